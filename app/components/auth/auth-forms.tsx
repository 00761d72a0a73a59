import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react'
import { href, Link, useFetcher } from 'react-router'
import { FormAlert, FormErrors, TextField, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { forgotPasswordSchema, loginSchema, signupSchema } from '~/lib/validation/auth'

/**
 * The login, sign-up and forgot-password forms. Each is used twice: on its full page
 * (/login, /signup, /forgot-password; plain HTML forms that work without JavaScript) and
 * in the modal over any page. With JavaScript the form checks itself with the same Zod
 * schema as the server before it submits, and submits through a fetcher.
 */
export interface AuthFormResult {
  /** Conform's reply from the action: field errors, the form's error, the values to keep. */
  result?: SubmissionResult<string[]>
  /** A success message (e.g. "check your inbox"). */
  message?: string
}

export type AuthView = 'login' | 'signup' | 'forgot'

const linkClass = 'font-semibold text-brand-700 hover:underline dark:text-brand-300'

type PasswordFields = Parameters<typeof TextField>[0]['field']

/**
 * A new password and its confirmation, as sign-up, password reset and account settings ask
 * for them (the spec's rules: at least 6 characters, both the same).
 */
export function NewPasswordFields({
  password,
  confirmPassword,
  replacing = false,
}: {
  password: PasswordFields
  confirmPassword: PasswordFields
  /** Labels read "New password" when it replaces an existing or forgotten one. */
  replacing?: boolean
}) {
  return (
    <>
      <TextField
        label={replacing ? 'New password' : 'Password'}
        field={password}
        type="password"
        autoComplete="new-password"
        hint="At least 6 characters"
      />
      <TextField
        label={replacing ? 'Confirm new password' : 'Confirm password'}
        field={confirmPassword}
        type="password"
        autoComplete="new-password"
      />
    </>
  )
}

export function GoogleButton({
  intent,
  redirectTo,
}: {
  intent: 'login' | 'signup'
  redirectTo: string
}) {
  // A plain form: the server answers with a redirect to Google (works without JavaScript).
  return (
    <form method="post" action={href('/auth/google')}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Button type="submit" variant="secondary" block className="gap-3">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5">
          <path
            fill="#4285F4"
            d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.5 5.5 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7z"
          />
          <path
            fill="#34A853"
            d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z"
          />
          <path
            fill="#FBBC05"
            d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6H1.3a12 12 0 0 0 0 10.8l4-3.1z"
          />
          <path
            fill="#EA4335"
            d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z"
          />
        </svg>
        Continue with Google
      </Button>
    </form>
  )
}

function Divider() {
  return (
    <div className="flex items-center gap-3 text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
      <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      or
      <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
    </div>
  )
}

interface FormProps {
  /** The server's answer when the page was rendered after a form post (no JavaScript). */
  result?: AuthFormResult
  /** A problem found before the form was shown (e.g. Google refused the sign-in). */
  formError?: string
  redirectTo: string
  google: boolean
  /** Where the "switch" links point: full pages, or the modal's own views. */
  links: Record<AuthView, string>
  /** Shown above the form (e.g. after a password reset). */
  notice?: string
  /** In the modal, switching views replaces the history entry (Back closes the modal). */
  modal?: boolean
}

function SwitchLink({
  to,
  modal,
  className,
  onClick,
  children,
}: {
  to: string
  modal?: boolean
  className?: string
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void
  children: ReactNode
}) {
  return (
    <Link
      to={to}
      className={className}
      onClick={onClick}
      {...(modal ? { replace: true, preventScrollReset: true, state: { authModal: true } } : {})}
    >
      {children}
    </Link>
  )
}

/** What each of the forms starts with: its fetcher, the Conform form over the last answer, and whether it is being sent. */
function useAuthForm<Schema extends Parameters<typeof useAppForm>[0]['schema']>(
  schema: Schema,
  result: AuthFormResult | undefined,
  formError?: string,
) {
  const fetcher = useFetcher<AuthFormResult>()
  const [form, fields] = useAppForm({
    schema,
    lastResult: fetcher.data?.result ?? result?.result,
  })
  return {
    fetcher,
    form,
    fields,
    /** The last answer: the fetcher's, or the page's after a post without JavaScript. */
    current: fetcher.data ?? result,
    errors: form.errors ?? (formError ? [formError] : undefined),
    busy: fetcher.state !== 'idle',
  }
}

/**
 * What every auth form shows, top to bottom: its success messages, its error, what `intro`
 * says, the form (posted through its fetcher, with where to return after signing in) ending in
 * its submit button, Google sign-in where the form offers it, and what comes under it (`footer`).
 */
function AuthFormLayout({
  auth: { fetcher, form, errors, busy },
  action,
  notices,
  intro,
  redirectTo,
  submit,
  pendingLabel,
  google,
  footer,
  children,
}: {
  auth: ReturnType<typeof useAuthForm>
  action: string
  notices: Array<string | null | undefined | false>
  intro?: ReactNode
  redirectTo?: string
  submit: string
  pendingLabel: string
  /** Log in and sign up offer Google too (where it is configured), returning to redirectTo. */
  google?: { enabled: boolean; intent: 'login' | 'signup' }
  footer: ReactNode
  children: ReactNode
}) {
  return (
    <div className="space-y-5">
      {notices.map((notice, index) =>
        notice ? (
          <FormAlert key={index} tone="success">
            {notice}
          </FormAlert>
        ) : null,
      )}
      <FormErrors id={form.errorId} errors={errors} />
      {intro}
      <fetcher.Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
        {redirectTo === undefined ? null : (
          <input type="hidden" name="redirectTo" value={redirectTo} />
        )}
        {children}
        <Button type="submit" block pending={busy} pendingLabel={pendingLabel}>
          {submit}
        </Button>
      </fetcher.Form>
      {google && redirectTo !== undefined ? (
        <GoogleChoice google={google.enabled} intent={google.intent} redirectTo={redirectTo} />
      ) : null}
      {footer}
    </div>
  )
}

/** "Or" and the Google button, where Google sign-in is configured. */
function GoogleChoice({
  google,
  intent,
  redirectTo,
}: {
  google: boolean
  intent: 'login' | 'signup'
  redirectTo: string
}) {
  return google ? (
    <>
      <Divider />
      <GoogleButton intent={intent} redirectTo={redirectTo} />
    </>
  ) : null
}

/** The line under a form that leads to another one ("Don't have an account? Sign up"). */
function SwitchLine({
  question,
  to,
  modal,
  children,
}: {
  question: ReactNode
  to: string
  modal?: boolean
  children: ReactNode
}) {
  return (
    <p className="text-center text-sm text-slate-600 dark:text-slate-300">
      {question}{' '}
      <SwitchLink to={to} modal={modal} className={linkClass}>
        {children}
      </SwitchLink>
    </p>
  )
}

export function LoginForm({
  result,
  formError,
  redirectTo,
  google,
  links,
  notice,
  modal,
}: FormProps) {
  const auth = useAuthForm(loginSchema, result, formError)
  return (
    <AuthFormLayout
      auth={auth}
      action={href('/login')}
      notices={[!auth.errors && notice]}
      redirectTo={redirectTo}
      submit="Log in"
      pendingLabel="Logging in…"
      google={{ enabled: google, intent: 'login' }}
      footer={
        <SwitchLine question="Don't have an account?" to={links.signup} modal={modal}>
          Sign up
        </SwitchLine>
      }
    >
      <TextField label="Email" field={auth.fields.email} type="email" autoComplete="email" />
      <TextField
        label="Password"
        field={auth.fields.password}
        type="password"
        autoComplete="current-password"
      />
      <div className="flex justify-end">
        <SwitchLink to={links.forgot} modal={modal} className={`text-sm ${linkClass}`}>
          Forgot password?
        </SwitchLink>
      </div>
    </AuthFormLayout>
  )
}

export function SignupForm({
  result,
  formError,
  redirectTo,
  google,
  links,
  notice,
  modal,
}: FormProps) {
  // After a valid sign-up the action answers with "check your inbox" (docs/decisions/0008),
  // which then stands in place of the form: the filled form would invite a second sign-up.
  const auth = useAuthForm(signupSchema, result, formError)
  const { fields } = auth
  // "Sign up again" (a mistyped address) brings the empty form back without a page load.
  const [dismissed, setDismissed] = useState<AuthFormResult>()
  const sent = auth.current !== dismissed ? auth.current?.message : undefined
  if (sent) {
    return (
      <SignupSent
        message={sent}
        links={links}
        modal={modal}
        onSignUpAgain={() => setDismissed(auth.current)}
      />
    )
  }
  return (
    <AuthFormLayout
      auth={auth}
      action={href('/signup')}
      notices={[!auth.errors && notice]}
      redirectTo={redirectTo}
      submit="Create account"
      pendingLabel="Creating account…"
      google={{ enabled: google, intent: 'signup' }}
      footer={
        <SwitchLine question="Already have an account?" to={links.login} modal={modal}>
          Log in
        </SwitchLine>
      }
    >
      <TextField label="Full name" field={fields.name} autoComplete="name" />
      <TextField label="Email" field={fields.email} type="email" autoComplete="email" />
      <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
    </AuthFormLayout>
  )
}

/**
 * What a sign-up that went through shows instead of its form: "check your inbox", and what to
 * do when no mail comes. The same for a new address and a taken one (docs/decisions/0008).
 */
function SignupSent({
  message,
  links,
  modal,
  onSignUpAgain,
}: {
  message: string
  links: Record<AuthView, string>
  modal?: boolean
  onSignUpAgain: () => void
}) {
  const ref = useRef<HTMLDivElement>(null)
  // The form the focus was in is gone: screen readers and keyboards land on the message.
  useEffect(() => ref.current?.focus(), [])
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="space-y-5 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <FormAlert tone="success">{message}</FormAlert>
      <div className="text-sm text-slate-600 dark:text-slate-300">
        <p className="font-semibold text-slate-900 dark:text-white">No e-mail?</p>
        <ul className="mt-2 list-disc space-y-1.5 pl-5">
          <li>It can take a few minutes. Look in your spam or junk folder too.</li>
          <li>
            Address mistyped?{' '}
            <SwitchLink
              to={links.signup}
              modal={modal}
              className={linkClass}
              onClick={(event) => {
                // Without JavaScript the link loads the empty form.
                event.preventDefault()
                onSignUpAgain()
              }}
            >
              Sign up again
            </SwitchLink>{' '}
            with the right one.
          </li>
          <li>
            Still nothing after 10 minutes?{' '}
            <SwitchLink to={links.forgot} modal={modal} className={linkClass}>
              Set a new password
            </SwitchLink>{' '}
            with this address: the link we e-mail for it confirms the address too.
          </li>
        </ul>
      </div>
      <SwitchLine question="Confirmed your address?" to={links.login} modal={modal}>
        Log in
      </SwitchLine>
    </div>
  )
}

export function ForgotPasswordForm({
  result,
  links,
  modal,
}: Pick<FormProps, 'result' | 'links' | 'modal'>) {
  const auth = useAuthForm(forgotPasswordSchema, result)
  return (
    <AuthFormLayout
      auth={auth}
      action={href('/forgot-password')}
      notices={[auth.current?.message]}
      intro={
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Enter the e-mail address of your account and we will send you a link to set a new
          password.
        </p>
      }
      submit="Send reset link"
      pendingLabel="Sending…"
      footer={
        <SwitchLine question="Remembered it?" to={links.login} modal={modal}>
          Back to login
        </SwitchLine>
      }
    >
      <TextField label="Email" field={auth.fields.email} type="email" autoComplete="email" />
    </AuthFormLayout>
  )
}

/** The card the full pages (/login, /signup, /forgot-password, /reset-password) share. */
export function AuthPage({
  title,
  subtitle,
  children,
}: {
  title: string
  subtitle?: string
  children: ReactNode
}) {
  return (
    <main className="flex flex-1 items-start justify-center px-4 py-10 sm:py-16">
      <Card padding="lg" className="w-full max-w-md">
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
          {title}
        </h1>
        {subtitle ? (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{subtitle}</p>
        ) : null}
        <div className="mt-6">{children}</div>
      </Card>
    </main>
  )
}

export const AUTH_TITLES: Record<AuthView, { title: string; subtitle: string }> = {
  login: { title: 'Log in', subtitle: 'Welcome back! Log in to see your orders and account.' },
  signup: {
    title: 'Create your account',
    subtitle: 'Track your orders and get your keys faster next time.',
  },
  forgot: { title: 'Reset your password', subtitle: 'We will e-mail you a link to set a new one.' },
}

/** The full-page auth URLs; login and sign-up keep where to return after signing in. */
export function pageLinks(redirectTo?: string | null): Record<AuthView, string> {
  const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''
  return {
    login: `${href('/login')}${query}`,
    signup: `${href('/signup')}${query}`,
    forgot: href('/forgot-password'),
  }
}

const PAGE_FORMS = { login: LoginForm, signup: SignupForm }

/** /login and /signup: the card with the view's title, and its form linking to the other full pages. */
export function AuthFormPage({
  view,
  ...props
}: { view: keyof typeof PAGE_FORMS } & Omit<FormProps, 'links' | 'modal'>) {
  const ViewForm = PAGE_FORMS[view]
  return (
    <AuthPage title={AUTH_TITLES[view].title} subtitle={AUTH_TITLES[view].subtitle}>
      <ViewForm {...props} links={pageLinks(props.redirectTo)} />
    </AuthPage>
  )
}
