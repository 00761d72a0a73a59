import { getFormProps } from '@conform-to/react'
import { data, Form, href, Link, redirect, useNavigation } from 'react-router'
import { AuthPage } from '~/components/auth/auth-forms'
import { accountPageMeta } from '~/components/auth/messages'
import { FormAlert, FormErrors, TextField, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { services } from '~/lib/app-context.server'
import { readFormData } from '~/lib/form-data.server'
import { accountPageHeaders } from '~/lib/page-headers'
import {
  clientIp,
  hitPolicy,
  releaseRateLimit,
  tooManyAttemptsMessage,
} from '~/lib/rate-limit.server'
import { AUTH_MESSAGES, confirmEmailSchema, safeRedirect } from '~/lib/validation/auth'
import { parseSubmission } from '~/lib/validation/submission'
import {
  confirmEmailWithToken,
  readConfirmationLink,
  type ConfirmationLink,
} from '~/services/auth.server'
import { passwordReplies } from './password-reply.server'
import type { Route } from './+types/verify-email'

export const CONFIRM_LINK_FAILED =
  'This link has expired or is not valid. Log in with your e-mail and password and we will send you a new one.'
/** A password that is not the one the account was signed up with. */
export const CONFIRM_WRONG_PASSWORD =
  'That is not the password this account was created with. Enter it again, or set a new password below.'
/** The page's headings: the link did not work, or this address tried too often to tell. */
export const VERIFY_EMAIL_TITLES = {
  confirm: 'Confirm your address',
  failed: 'Link expired',
  tooMany: 'Too many attempts',
  otherAccount: 'Signed in to another account',
  suspended: 'Account suspended',
  needsPassword: 'Set a password',
} as const

/** An account without a password: only a password set through a mailed link confirms it. */
export const CONFIRM_NEEDS_PASSWORD =
  'To confirm this address, set a password with the link we e-mail you, then log in with it.'

/** A link for another account than the one signed in here: nothing is changed. */
export function otherAccountMessage(email: string): string {
  return `You are signed in as ${email}, and this link confirms another account's address. Log out first, then open the link again.`
}

/** What the page shows for a link that cannot be used here. */
function refusal(link: Exclude<ConfirmationLink, { state: 'open' | 'confirmed' }>) {
  switch (link.state) {
    case 'invalid':
      return { title: VERIFY_EMAIL_TITLES.failed, error: CONFIRM_LINK_FAILED, form: null }
    case 'other-account':
      return {
        title: VERIFY_EMAIL_TITLES.otherAccount,
        error: otherAccountMessage(link.signedInAs),
        form: null,
      }
    case 'suspended':
      return {
        title: VERIFY_EMAIL_TITLES.suspended,
        error: AUTH_MESSAGES.accountSuspended,
        form: null,
      }
    case 'needs-password':
      return { title: VERIFY_EMAIL_TITLES.needsPassword, error: CONFIRM_NEEDS_PASSWORD, form: null }
  }
}

/** The answer to a link tried too often from this address: nothing was checked. */
function tooMany(retryAfterSeconds: number) {
  return data(
    {
      title: VERIFY_EMAIL_TITLES.tooMany,
      error: tooManyAttemptsMessage(retryAfterSeconds),
      form: null,
    },
    { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
  )
}

/**
 * /verify-email?token=...: the link of the confirmation mail. Opening it changes nothing (a mail
 * scanner that follows links confirms nobody): the page asks for the password chosen at sign-up
 * and the form confirms the address and signs the account in (docs/decisions/0021). A later use
 * of the same link only says it is confirmed. Only links that do not work count against the
 * address's budget (`passwordResetLinkIp`), so customers behind one shared address are not held
 * back by each other's good links.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = services()
  const url = new URL(request.url)
  const token = url.searchParams.get('token') ?? ''
  // Shares the reset link's per-address budget: both are guesses at a mailed secret.
  const limit = await hitPolicy(db, 'passwordResetLinkIp', clientIp(context))
  // Nothing was checked, so the link may still be good: say so rather than "Link expired".
  if (!limit.allowed) return tooMany(limit.retryAfterSeconds)
  const link = token ? await readConfirmationLink(request, token) : ({ state: 'invalid' } as const)
  if (link.state !== 'open' && link.state !== 'confirmed') return refusal(link)
  await releaseRateLimit(db, limit)
  if (link.state === 'confirmed') throw redirect(`${href('/login')}?confirmed=1`)
  return {
    title: VERIFY_EMAIL_TITLES.confirm,
    error: null,
    form: {
      token,
      email: link.email,
      redirectTo: safeRedirect(url.searchParams.get('redirectTo'), ''),
    },
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db } = services()
  const submission = parseSubmission(await readFormData(request), confirmEmailSchema)
  const replies = passwordReplies(submission, ['password'])
  if (submission.status !== 'success') return replies.invalid()
  const ip = clientIp(context)
  const limit = await hitPolicy(db, 'passwordResetLinkIp', ip)
  if (!limit.allowed) return replies.tooMany(limit.retryAfterSeconds)
  const { token, password, redirectTo } = submission.value
  const result = await confirmEmailWithToken(request, ip, token, password)
  if (!result.ok) {
    if ('wrongPassword' in result) return replies.refused(CONFIRM_WRONG_PASSWORD, 400)
    // Refused where the page would not show why (better-auth refused the token): said here.
    if (result.link.state === 'invalid') return replies.refused(CONFIRM_LINK_FAILED, 400)
    // Otherwise the link's state changed since the page showed it: the page says how.
    throw redirect(`${href('/verify-email')}?token=${encodeURIComponent(token)}`)
  }
  await releaseRateLimit(db, limit)
  if (result.signedIn) {
    throw redirect(safeRedirect(redirectTo, href('/')), { headers: result.headers })
  }
  throw redirect(`${href('/login')}?confirmed=1`)
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.form) {
    return (
      <AuthPage title={loaderData.title}>
        <div className="space-y-5">
          <FormAlert>{loaderData.error}</FormAlert>
          {loaderData.title === VERIFY_EMAIL_TITLES.otherAccount ? (
            // Logging out returns to the home page; the link, opened again, then confirms.
            <Form method="post" action={href('/logout')}>
              <button type="submit" className={buttonVariants({ block: true })}>
                Log out
              </button>
            </Form>
          ) : loaderData.title === VERIFY_EMAIL_TITLES.needsPassword ? (
            <Link to={href('/forgot-password')} className={buttonVariants({ block: true })}>
              E-mail me a link
            </Link>
          ) : (
            <Link to={href('/login')} className={buttonVariants({ block: true })}>
              Log in
            </Link>
          )}
        </div>
      </AuthPage>
    )
  }
  return <ConfirmForm form={loaderData.form} result={actionData?.result} />
}

function ConfirmForm({
  form: link,
  result,
}: {
  form: { token: string; email: string; redirectTo: string }
  result: Parameters<typeof useAppForm>[0]['lastResult']
}) {
  const [form, fields] = useAppForm({ schema: confirmEmailSchema, lastResult: result })
  const busy = useNavigation().state === 'submitting'
  return (
    <AuthPage
      title={VERIFY_EMAIL_TITLES.confirm}
      subtitle={`Enter the password you chose when you signed up with ${link.email}.`}
    >
      <div className="space-y-5">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <input type="hidden" name="token" value={link.token} />
          <input type="hidden" name="redirectTo" value={link.redirectTo} />
          <TextField
            label="Password"
            field={fields.password}
            type="password"
            autoComplete="current-password"
          />
          <Button type="submit" block pending={busy} pendingLabel="Confirming…">
            Confirm and log in
          </Button>
        </Form>
        <p className="text-center text-sm text-slate-600 dark:text-slate-300">
          Did not sign up, or forgot the password?{' '}
          <Link
            to={href('/forgot-password')}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
          >
            Set a new password
          </Link>
        </p>
      </div>
    </AuthPage>
  )
}

/** Never cached (accountPageHeaders); a rate-limited answer keeps its Retry-After. */
export function headers(args: Route.HeadersArgs) {
  const headers = new Headers(accountPageHeaders(args))
  const retryAfter = args.actionHeaders.get('Retry-After') ?? args.loaderHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

export function meta({ matches }: Route.MetaArgs) {
  return [
    ...accountPageMeta(matches, 'Confirm your address'),
    // The token in the address never goes to another site; not 'no-referrer', which makes a
    // browser without JavaScript send the page's own form with `Origin: null`, refused.
    { name: 'referrer', content: 'same-origin' },
  ]
}
