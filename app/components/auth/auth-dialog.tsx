import * as Dialog from '@radix-ui/react-dialog'
import X from 'lucide-react/icons/x'
import { useId } from 'react'
import { Link } from 'react-router'
import { AUTH_TITLES, ForgotPasswordForm, LoginForm, SignupForm, type AuthView } from './auth-forms'
import { googleErrorMessage } from './messages'

/**
 * The modal itself (loaded when a modal opens). Rendered without a portal so that the
 * server can render it too (no JavaScript needed to use it).
 */
export default function AuthDialog({
  view,
  google,
  redirectTo,
  links,
  closeHref,
  onClose,
  googleError,
}: {
  view: AuthView
  google: boolean
  redirectTo: string
  links: Record<AuthView, string>
  closeHref: string
  onClose: () => void
  googleError: string | null
}) {
  const { title, subtitle } = AUTH_TITLES[view]
  // Radix links the title only after mounting; set it ourselves so the server HTML has it too.
  const titleId = useId()
  const formError =
    googleError !== null && view !== 'forgot' ? googleErrorMessage(view, googleError) : undefined
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-sm" />
      <Dialog.Content
        aria-labelledby={titleId}
        className="fixed inset-x-0 bottom-0 z-50 max-h-[92dvh] overflow-y-auto rounded-t-2xl border border-slate-200 bg-white p-6 shadow-2xl sm:inset-x-auto sm:bottom-auto sm:left-1/2 sm:top-1/2 sm:w-full sm:max-w-md sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-2xl dark:border-slate-700 dark:bg-slate-900"
      >
        <div className="flex items-start justify-between gap-4">
          <div>
            <Dialog.Title
              id={titleId}
              className="text-xl font-bold tracking-tight text-slate-950 dark:text-white"
            >
              {title}
            </Dialog.Title>
            <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {subtitle}
            </Dialog.Description>
          </div>
          {/* A link, so that closing works without JavaScript too. */}
          <Link
            to={closeHref}
            replace
            preventScrollReset
            aria-label="Close"
            onClick={(event) => {
              event.preventDefault()
              onClose()
            }}
            className="-mr-2 -mt-1 inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
          >
            <X aria-hidden="true" className="size-5" />
          </Link>
        </div>
        <div className="mt-5">
          {view === 'login' ? (
            <LoginForm
              redirectTo={redirectTo}
              google={google}
              links={links}
              modal
              formError={formError}
            />
          ) : view === 'signup' ? (
            <SignupForm
              redirectTo={redirectTo}
              google={google}
              links={links}
              modal
              formError={formError}
            />
          ) : (
            <ForgotPasswordForm links={links} modal />
          )}
        </div>
      </Dialog.Content>
    </Dialog.Root>
  )
}
