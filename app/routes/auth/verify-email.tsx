import { data, Form, href, Link, redirect } from 'react-router'
import { AuthPage } from '~/components/auth/auth-forms'
import { accountPageMeta } from '~/components/auth/messages'
import { FormAlert } from '~/components/forms'
import { services } from '~/lib/app-context.server'
import { confirmEmailWithToken } from '~/services/auth.server'
import { clientIp, hitPolicy, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { safeRedirect } from '~/lib/validation/auth'
import { accountPageHeaders } from '~/lib/page-headers'
import type { Route } from './+types/verify-email'
import { buttonVariants } from '~/components/ui/button-variants'

export const CONFIRM_LINK_FAILED =
  'This link has expired or is not valid. Log in with your e-mail and password and we will send you a new one.'
/** The page's headings: the link did not work, or this address tried too often to tell. */
export const VERIFY_EMAIL_TITLES = {
  failed: 'Link expired',
  tooMany: 'Too many attempts',
  otherAccount: 'Signed in to another account',
} as const

/** A link for another account than the one signed in here: nothing is changed. */
export function otherAccountMessage(email: string): string {
  return `You are signed in as ${email}, and this link confirms another account's address. Log out first, then open the link again.`
}

/**
 * /verify-email?token=...: the link of the confirmation mail. The first use confirms the
 * address and signs the account in; a later use of the same link only says it is confirmed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const token = url.searchParams.get('token') ?? ''
  // Shares the reset link's per-address budget: both are guesses at a mailed secret.
  const limit = await hitPolicy(services().db, 'passwordResetLinkIp', clientIp(context))
  if (!limit.allowed) {
    // Nothing was checked, so the link may still be good: say so rather than "Link expired".
    return data(
      {
        title: VERIFY_EMAIL_TITLES.tooMany,
        error: tooManyAttemptsMessage(limit.retryAfterSeconds),
      },
      { status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
    )
  }
  const result = token ? await confirmEmailWithToken(request, token) : { ok: false as const }
  if (!result.ok && result.signedInAs)
    return {
      title: VERIFY_EMAIL_TITLES.otherAccount,
      error: otherAccountMessage(result.signedInAs),
    }
  if (!result.ok) return { title: VERIFY_EMAIL_TITLES.failed, error: CONFIRM_LINK_FAILED }
  if (result.signedIn) {
    throw redirect(safeRedirect(url.searchParams.get('redirectTo'), href('/')), {
      headers: result.headers,
    })
  }
  throw redirect(`${href('/login')}?confirmed=1`)
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
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
        ) : (
          <Link to={href('/login')} className={buttonVariants({ block: true })}>
            Log in
          </Link>
        )}
      </div>
    </AuthPage>
  )
}

/** Never cached (accountPageHeaders); a rate-limited answer keeps the loader's Retry-After. */
export function headers(args: Route.HeadersArgs) {
  const headers = new Headers(accountPageHeaders(args))
  const retryAfter = args.loaderHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

export function meta({ matches }: Route.MetaArgs) {
  return [
    ...accountPageMeta(matches, 'Confirm your address'),
    { name: 'referrer', content: 'no-referrer' },
  ]
}
