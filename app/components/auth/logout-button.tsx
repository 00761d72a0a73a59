import LogOut from 'lucide-react/icons/log-out'
import { Form, href } from 'react-router'

/** Logout is a POST to /logout, which ends the session and returns to /. */
export function LogoutButton({ className }: { className?: string }) {
  return (
    <Form method="post" action={href('/logout')}>
      <button
        type="submit"
        className={
          className ??
          'inline-flex h-10 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'
        }
      >
        <LogOut aria-hidden="true" className="size-4" />
        Logout
      </button>
    </Form>
  )
}

/** The spec's display name: the name, or the part of the e-mail before the @. */
export function displayName(user: { name: string; email: string }): string {
  return user.name.trim() || user.email.split('@')[0] || user.email
}
