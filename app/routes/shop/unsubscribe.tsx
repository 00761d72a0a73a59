import { data, Form, href, Link, useNavigation } from 'react-router'
import { AuthPage } from '~/components/auth/auth-forms'
import { accountPageMeta } from '~/components/auth/messages'
import { FormAlert } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { unsubscribeAddress } from '~/data/preferences.server'
import { services } from '~/lib/app-context.server'
import { maskMailAddress } from '~/lib/mail-address'
import { clientIp, hitPolicy } from '~/lib/rate-limit.server'
import { readUnsubscribeToken, UNSUBSCRIBE_PARAM } from '~/lib/unsubscribe-link.server'
import type { Route } from './+types/unsubscribe'

/**
 * /unsubscribe?t={token}: the unsubscribe link of the expiry reminders and back-in-stock mails
 * (docs/notifications.md, "Unsubscribing"; the token is app/lib/unsubscribe-link.server.ts).
 *
 * - A POST with a genuine token switches that address's reminders and offers off and answers
 *   200 with a short page. It is what a mail app's own Unsubscribe button sends (RFC 8058: a
 *   body of `List-Unsubscribe=One-Click`, no cookies, sent by the mail service's server without
 *   an Origin, which the cross-site check lets through), so it needs no session, and it is open
 *   during maintenance (app/services/maintenance.server.ts). The page's own button sends the same.
 * - A GET only asks: link checkers and mail scanners open links before the reader does.
 * - Anything but a genuine token: 400, and nothing changes. Such tokens tried from one address
 *   count against `unsubscribeLinkIp`, past which they get 429 (the same words: waiting does not
 *   make a bad link good); a genuine one is checked first and neither counts nor is refused.
 */
export const UNSUBSCRIBE_TEXT = {
  title: 'Unsubscribe',
  doneTitle: 'You are unsubscribed',
  invalidTitle: 'Link not valid',
  invalid:
    'This unsubscribe link is not valid. Open it again from the e-mail, the whole link, or sign in and turn off "E-mail me reminders and offers" in your account settings.',
  button: 'Unsubscribe',
} as const

/** "Unsubscribe a***@e***.in from reminders and offers?" */
export const confirmQuestion = (address: string) =>
  `Unsubscribe ${address} from reminders and offers?`

export const doneMessage = (address: string) =>
  `You will no longer get expiry reminders or back-in-stock e-mails at ${address}. Mails about your orders still come.`

type Page =
  | { state: 'confirm'; address: string }
  | { state: 'done'; address: string }
  | { state: 'invalid'; message: string }

/**
 * The link's address and kind, or the answer for a link that is not one of ours. The seal is
 * checked first (no database, and it cannot be forged), so only links that fail count against the
 * address: a genuine link works even from an address where someone tried bad ones, such as a
 * carrier's shared address or a proxy's.
 */
async function checkLink(request: Request, context: { clientIp?: string }) {
  const { db, env } = services()
  const token = new URL(request.url).searchParams.get(UNSUBSCRIBE_PARAM)
  const link = readUnsubscribeToken(env.APP_SECRET, token)
  if (link) return { ok: true as const, ...link }
  const hit = await hitPolicy(db, 'unsubscribeLinkIp', clientIp(context))
  const page: Page = { state: 'invalid', message: UNSUBSCRIBE_TEXT.invalid }
  const answer = hit.allowed
    ? data(page, { status: 400 })
    : data(page, { status: 429, headers: { 'Retry-After': String(hit.retryAfterSeconds) } })
  return { ok: false as const, answer }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const link = await checkLink(request, context)
  if (!link.ok) return link.answer
  return data<Page>({ state: 'confirm', address: maskMailAddress(link.email) })
}

export async function action({ request, context }: Route.ActionArgs) {
  // React Router sends every method but GET here; only the mail apps' and the page's POST counts.
  if (request.method !== 'POST') throw data('Method not allowed', { status: 405 })
  const link = await checkLink(request, context)
  if (!link.ok) return link.answer
  await unsubscribeAddress(services().db, link.email, link.kind)
  return data<Page>({ state: 'done', address: maskMailAddress(link.email) })
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const page: Page = actionData ?? loaderData
  const busy = useNavigation().state === 'submitting'
  if (page.state === 'invalid') {
    return (
      <AuthPage title={UNSUBSCRIBE_TEXT.invalidTitle}>
        <FormAlert>{page.message}</FormAlert>
      </AuthPage>
    )
  }
  if (page.state === 'done') {
    return (
      <AuthPage title={UNSUBSCRIBE_TEXT.doneTitle}>
        <div className="space-y-5 text-sm text-slate-700 dark:text-slate-300">
          <FormAlert tone="success">{doneMessage(page.address)}</FormAlert>
          <p>
            Changed your mind? Sign in with this address and turn on &quot;E-mail me reminders and
            offers&quot; on your account&apos;s Settings page. Without an account, sign up with this
            address first.
          </p>
          <Link to={href('/dashboard/settings')} className={buttonVariants({ block: true })}>
            Settings
          </Link>
        </div>
      </AuthPage>
    )
  }
  return (
    <AuthPage title={confirmQuestion(page.address)}>
      {/* Posts to this same address, token included; works without JavaScript. */}
      <Form method="post" className="space-y-5">
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <p className="text-sm text-slate-700 dark:text-slate-300">
          No more expiry reminders or back-in-stock e-mails will come to this address. Mails about
          your orders still do.
        </p>
        <Button type="submit" block pending={busy} pendingLabel="Unsubscribing…">
          {UNSUBSCRIBE_TEXT.button}
        </Button>
      </Form>
    </AuthPage>
  )
}

/** Never cached; a rate-limited answer keeps its Retry-After. */
export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  const retryAfter = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

export function meta({ matches }: Route.MetaArgs) {
  return [
    ...accountPageMeta(matches, UNSUBSCRIBE_TEXT.title),
    // The token stays out of the Referer of any link followed from here.
    // The token in the address never goes to another site; not 'no-referrer', which makes a
    // browser without JavaScript send the page's own form with `Origin: null`, refused.
    { name: 'referrer', content: 'same-origin' },
  ]
}
