import ShieldAlert from 'lucide-react/icons/shield-alert'
import { href, useNavigate } from 'react-router'
import { buttonVariants } from '~/components/ui/button-variants'

/**
 * The admin guard's answer to a signed-in user without the right:
 * 'Access Denied', the reason, and Go Back. Without JavaScript the button goes home.
 */
export function AccessDenied({ title, message }: { title: string; message: string }) {
  const navigate = useNavigate()
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <ShieldAlert aria-hidden="true" className="size-12 text-rose-600" />
      <h1 className="text-3xl font-bold text-slate-950 dark:text-white">{title}</h1>
      <p className="text-slate-600 dark:text-slate-300">{message}</p>
      <form action={href('/')} method="get">
        <button
          type="submit"
          onClick={(event) => {
            event.preventDefault()
            if (window.history.length > 1) navigate(-1)
            else navigate(href('/'))
          }}
          className={buttonVariants({ size: 'wide' })}
        >
          Go Back
        </button>
      </form>
    </main>
  )
}
