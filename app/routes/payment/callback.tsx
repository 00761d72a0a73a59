import CircleCheck from 'lucide-react/icons/circle-check'
import CircleHelp from 'lucide-react/icons/circle-help'
import CircleX from 'lucide-react/icons/circle-x'
import Download from 'lucide-react/icons/download'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import Mail from 'lucide-react/icons/mail'
import MessageCircle from 'lucide-react/icons/message-circle'
import Package from 'lucide-react/icons/package'
import Undo2 from 'lucide-react/icons/undo-2'
import { useEffect, useRef } from 'react'
import { data, href, Link, useRevalidator, useRouteLoaderData } from 'react-router'
import { modalHref } from '~/components/auth/auth-modals'
import { TestModeBanner } from '~/components/checkout/checkout-form'
import { OrderSecret, secretView } from '~/components/orders/order-secret'
import {
  hasInvoice,
  orderStatusExplanation,
  orderStatusLabel,
} from '~/components/orders/order-status'
import { rootMetaData, useSiteSettings } from '~/components/shop/site-data'
import { whatsappDisplayNumber, whatsappLink } from '~/lib/whatsapp'
import { PAID_STATUSES, PAYABLE_STATUSES, type Order } from '~/data/order.server'
import { getPaymentLink, maskEmail } from '~/data/payment-link.server'
import { getProductById } from '~/data/product.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { assertSameSite } from '~/lib/cross-site.server'
import { formatRupees } from '~/lib/money'
import { invoicePath, orderPath, paymentResultPath } from '~/lib/order-status'
import { checkoutPath } from '~/lib/paths'
import { gatewayLabel } from '~/lib/validation/gateway'
import { clientIp, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { shopDateTime } from '~/lib/date-format'
import {
  findViewableOrder,
  ORDER_PAGE_HEADERS,
  overLimit,
  revealForBuyer,
  SECRET_UNREADABLE,
  seesCustomerEmail,
} from '~/services/order-access.server'
import type { loader as rootLoader } from '~/root'
import type { Route } from './+types/callback'
import { readFormData } from '~/lib/form-data.server'
import { buttonVariants } from '~/components/ui/button-variants'
import { paidInTestEnvironment, sellableNow } from '~/services/payment/offered-gateways.server'

/**
 * /payment/callback: the payment result page. Where the gateway's callback
 * sends the buyer, as /payment/callback?ORDERID=... The result comes only from our record of
 * the order: STATUS, TXNID or TXNAMOUNT in the query change nothing. While the order is
 * pending the page says 'Processing Payment...' and asks the server again (with JavaScript
 * through revalidation, without it by a meta refresh) until the order is final; a failed or
 * expired one is asked about every 30 s for a day more, since a confirmed payment still pays it
 * (docs/payments.md, "Statuses"). A poll that cannot reach the shop keeps the page as it was and
 * tries again later (`clientLoader`).
 *
 * Only whoever may open the order (owner, admin, a holder of its token: see
 * app/services/order-access.server.ts) learns its status; anyone else gets the page of an
 * unknown order. After a successful payment the buyer finds the
 * delivered account details behind 'Reveal' right here (logged like a reveal on the order
 * page), or what happens next when the order waits for stock or for the shop; the invoice;
 * and the order page.
 *
 * A visitor who may not open the order (another browser, no e-mail link at hand) is not told the
 * payment failed: they may well have paid. They are sent to sign in or to their e-mail instead.
 */
type ResultState = 'processing' | 'success' | 'refunded' | 'failed' | 'unavailable'

const SUCCESS_STATES: readonly string[] = PAID_STATUSES
const UNKNOWN_ERROR = 'Unknown error occurred'
const NOTHING_TO_REVEAL = 'There is nothing to reveal for this order yet.'
// The spec's words for a return from the gateway that names no order: nothing can be looked up.
const CALLBACK_FAILED = 'Failed to process payment callback'

const HEADINGS: Record<Exclude<ResultState, 'unavailable'>, string> = {
  processing: 'Processing Payment...',
  success: 'Payment Successful!',
  refunded: 'Payment refunded',
  failed: 'Payment Failed',
}

/** The page's heading, also its title. */
function headingOf(state: ResultState, orderId: string): string {
  if (state !== 'unavailable') return HEADINGS[state]
  return orderId ? 'We can’t show this order here' : 'No order to show'
}

function stateOf(order: Order): ResultState {
  if (SUCCESS_STATES.includes(order.status)) return 'success'
  if (order.status === 'refunded') return 'refunded'
  if (order.status === 'pending') return 'processing'
  return 'failed'
}

function orderIdOf(request: Request): string {
  return new URL(request.url).searchParams.get('ORDERID')?.slice(0, 60) ?? ''
}

/**
 * How the page asks the server again: 'fast' while the payment is being processed; 'slow' for a
 * failed or expired order whose outcome is less than a day old, because a UPI approval or a
 * bank's confirmation that comes late still pays it (docs/payments.md, "Statuses"); null once
 * nothing the gateway says can change it.
 */
type Polling = 'fast' | 'slow' | null
/** How long after a payment failed or expired the page still looks for a late confirmation. */
export const LATE_CONFIRMATION_MS = 24 * 60 * 60 * 1000
/** The gap between the polls of a failed or expired order. */
const SLOW_POLL_MS = 30_000

function pollingOf(order: Order, now: number): Polling {
  if (order.status === 'pending') return 'fast'
  const payable: readonly string[] = PAYABLE_STATUSES
  const changed = Date.parse(order.updatedAt)
  return payable.includes(order.status) && now - changed < LATE_CONFIRMATION_MS ? 'slow' : null
}

function failureMessage(order: Order): string {
  if (order.status === 'expired')
    return 'We did not receive a confirmation of this payment from the gateway in time.'
  return order.gatewayRespMsg || UNKNOWN_ERROR
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = services()
  const orderId = orderIdOf(request)
  // Only someone who may open the order (its owner, an admin, or a holder of one of its tokens)
  // learns anything about it; everyone else gets exactly the answer for an unknown order.
  const access = orderId ? await findViewableOrder(request, clientIp(context), orderId) : null
  if (!access?.ok) {
    return {
      found: false as const,
      orderId,
      state: 'unavailable' as const,
      poll: null,
      message: orderId ? null : CALLBACK_FAILED,
    }
  }
  const { order } = access.viewer
  const settings = await getSiteSettings(db)
  const state = stateOf(order)
  let retryTo = href('/')
  if (state === 'failed' && order.paymentLinkId) {
    const link = await getPaymentLink(db, order.paymentLinkId, '')
    if (link?.status === 'active') retryTo = link.paymentUrl
  } else if (state === 'failed' && order.productId) {
    // Back to the checkout only while it can take an order (stock products need an item left).
    const product = await getProductById(db, order.productId)
    if (product && (await sellableNow(db, env, [product])).has(product.id))
      retryTo = checkoutPath(product.slug)
  }
  const when = new Date(state === 'success' && order.paidAt ? order.paidAt : order.updatedAt)
  const dateTime = shopDateTime(settings.timezone).format(when)
  return {
    found: true as const,
    orderId: order.id,
    state,
    testMode: order.testMode,
    // Which simulator or test environment stood in for the gateway, for the test-mode banner.
    gatewayName: gatewayLabel(order.gateway),
    testEnvironment: order.testMode && (await paidInTestEnvironment(db, env, order.gateway)),
    retryTo,
    poll: pollingOf(order, Date.now()),
    details: {
      productName: order.productName,
      transactionId: order.gatewayTxnId,
      amount: formatRupees(
        state === 'success' && order.paidAmount !== null ? order.paidAmount : order.amount,
      ),
      dateTime,
      // A payment link's customer is masked for whoever merely pressed Pay: see seesCustomerEmail.
      email: seesCustomerEmail(access.viewer)
        ? order.customerEmail
        : maskEmail(order.customerEmail),
      status: order.status,
      // Deleted since the order was placed: the shop delivers another way or refunds.
      productGone: order.productId === null,
      orderUrl: orderPath(order.id),
      invoiceUrl: hasInvoice(order.status) ? invoicePath(order.id) : null,
    },
    message: state === 'failed' ? failureMessage(order) : null,
  }
}

type RevealResult =
  { secret: ReturnType<typeof secretView>; error: null } | { secret: null; error: string }

/** Reveal on the result page: the same rules and log as the order page's, via result_page. */
export async function action({ request, context }: Route.ActionArgs) {
  // The gateway may post here from its own site (exempt in cross-site.server.ts); a reveal may not.
  assertSameSite(request)
  const { db, env } = services()
  const ip = clientIp(context)
  const form = await readFormData(request)
  const access = await findViewableOrder(request, ip, orderIdOf(request))
  if (!access.ok || form.get('intent') !== 'reveal') {
    return data<RevealResult>(
      { secret: null, error: NOTHING_TO_REVEAL },
      { status: 404, headers: ORDER_PAGE_HEADERS },
    )
  }
  const blocked = await overLimit('revealIp', ip)
  if (blocked) {
    return data<RevealResult>(
      { secret: null, error: tooManyAttemptsMessage(blocked.retryAfterSeconds) },
      {
        status: 429,
        headers: { ...ORDER_PAGE_HEADERS, 'Retry-After': String(blocked.retryAfterSeconds) },
      },
    )
  }
  const { order, actor } = access.viewer
  const { secret, unreadable } = await revealForBuyer(db, env.APP_SECRET, order.id, {
    actor,
    ip,
    via: 'result_page',
  })
  if (!secret)
    return data<RevealResult>(
      { secret: null, error: unreadable ? SECRET_UNREADABLE : NOTHING_TO_REVEAL },
      { status: 409, headers: ORDER_PAGE_HEADERS },
    )
  return data<RevealResult>(
    { secret: secretView(secret), error: null },
    { headers: ORDER_PAGE_HEADERS },
  )
}

/**
 * The result page shows an order's details: never stored by a browser or a cache, and answered
 * per browser (the order pages' headers, app/services/order-access.server.ts).
 */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(ORDER_PAGE_HEADERS)
  const retryAfter = actionHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}

type Answer = Awaited<ReturnType<Route.ClientLoaderArgs['serverLoader']>>

/**
 * The last answer the server gave for each order shown here, and how many polls failed since.
 * Kept in the browser only, for `clientLoader`.
 */
const lastAnswers = new Map<string, { answer: Answer; failedPolls: number }>()

/** The order whose result page is on screen now: null while the tab shows another page. */
let onScreen: string | null = null

/** The answer the page was rendered with (from the server's HTML, before any poll). */
function rememberAnswer(answer: Answer) {
  if (!lastAnswers.has(answer.orderId)) lastAnswers.set(answer.orderId, { answer, failedPolls: 0 })
}

/**
 * Marks the order's result page as on screen, until the returned cleanup (the page's effect:
 * set when it shows the order, cleared when it leaves it or the tab goes to another page).
 */
export function showOnScreen(orderId: string): () => void {
  onScreen = orderId
  return () => {
    if (onScreen === orderId) onScreen = null
  }
}

/**
 * Whether a load of an order's page that failed is answered with the page's last answer: only a
 * poll, that is a load of the order whose page is on screen now and may still change. A page the
 * browser is not showing (the first visit, or a return to it after leaving, say through View
 * order) fails as before, and so does a load the browser gave up itself (a newer navigation).
 */
export function keepsLastAnswer(
  load: { orderId: string; aborted: boolean },
  shown: string | null,
  last: { poll: Polling } | undefined,
): boolean {
  return !load.aborted && shown === load.orderId && Boolean(last?.poll)
}

/**
 * Every load in the browser goes through here. A poll that fails (the buyer's phone went to the
 * UPI app and back without a connection, the server restarting, a proxy's 502) keeps the page as
 * it was instead of the root's error page, and the next poll waits longer (`nextPollDelay`). A
 * page the browser is not showing fails as before (`keepsLastAnswer`; docs/payments.md,
 * "Polling").
 */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const orderId = orderIdOf(request)
  try {
    const answer = await serverLoader()
    lastAnswers.set(orderId, { answer, failedPolls: 0 })
    return answer
  } catch (error) {
    const last = lastAnswers.get(orderId)
    if (
      !last ||
      !keepsLastAnswer({ orderId, aborted: request.signal.aborted }, onScreen, last.answer)
    )
      throw error
    last.failedPolls += 1
    return last.answer
  }
}

/**
 * The wait before the next poll: 1.5 s growing to 10 s while the payment is being processed,
 * 30 s for a failed order; after polls that failed, 5 s doubling up to a minute.
 */
export function nextPollDelay(poll: 'fast' | 'slow', attempts: number, failedPolls: number) {
  const usual = poll === 'fast' ? Math.min(10_000, 1500 + attempts * 1000) : SLOW_POLL_MS
  if (failedPolls === 0) return usual
  return Math.max(usual, Math.min(60_000, 5_000 * 2 ** (failedPolls - 1)))
}

/** Revalidates with growing gaps while the order may still change (see `Polling`). */
function usePolling(poll: Polling, orderId: string) {
  const revalidator = useRevalidator()
  const attempts = useRef(0)
  useEffect(() => {
    if (!poll) {
      attempts.current = 0
      return
    }
    if (revalidator.state !== 'idle') return
    const failedPolls = lastAnswers.get(orderId)?.failedPolls ?? 0
    const timer = setTimeout(
      () => {
        attempts.current += 1
        void revalidator.revalidate()
      },
      nextPollDelay(poll, attempts.current, failedPolls),
    )
    return () => clearTimeout(timer)
  }, [poll, orderId, revalidator])
}

const primaryLink = buttonVariants({ size: 'wide' })
const secondaryLink =
  'inline-flex h-11 items-center justify-center gap-2 rounded-xl border border-slate-300 px-5 font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800'

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 border-b border-slate-100 py-2 last:border-0 dark:border-slate-800">
      <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="text-right font-semibold wrap-anywhere text-slate-950 dark:text-white">
        {value}
      </dd>
    </div>
  )
}

/** What the buyer gets now: the account details, or what happens next. */
function Delivery({
  orderId,
  status,
  productGone,
  reveal,
}: {
  orderId: string
  status: string
  productGone: boolean
  reveal: RevealResult | undefined
}) {
  const here = paymentResultPath(orderId)
  if (status === 'delivered') {
    return (
      <section
        aria-labelledby="secret-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-slate-50 p-4 text-left dark:border-slate-700 dark:bg-slate-800/50"
      >
        <h2 id="secret-heading" className="font-bold text-slate-950 dark:text-white">
          Your account details
        </h2>
        <div className="mt-2">
          <OrderSecret
            secret={reveal?.secret ?? null}
            error={reveal?.error}
            action={here}
            hideTo={here}
          />
        </div>
      </section>
    )
  }
  const explanation = orderStatusExplanation(status, { productGone })
  if (!explanation) return null
  return (
    <section
      aria-labelledby="next-heading"
      className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-4 text-left dark:border-amber-800 dark:bg-amber-950/50"
    >
      <h2
        id="next-heading"
        className="flex items-center gap-2 font-bold text-slate-950 dark:text-white"
      >
        <Package aria-hidden="true" className="size-4" />
        {orderStatusLabel(status, { productGone })}
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">{explanation}</p>
    </section>
  )
}

/** The icon above the heading (decorative: the heading says it in words). */
function StateIcon({ state }: { state: ResultState }) {
  if (state === 'processing')
    return (
      <LoaderCircle
        aria-hidden="true"
        className="mx-auto size-14 animate-spin text-brand-600 motion-reduce:animate-none"
      />
    )
  if (state === 'success')
    return (
      <CircleCheck
        aria-hidden="true"
        className="mx-auto size-14 text-emerald-600 dark:text-emerald-400"
      />
    )
  if (state === 'failed')
    return (
      <CircleX aria-hidden="true" className="mx-auto size-14 text-rose-600 dark:text-rose-400" />
    )
  if (state === 'refunded')
    return (
      <Undo2 aria-hidden="true" className="mx-auto size-14 text-slate-500 dark:text-slate-400" />
    )
  return (
    <CircleHelp aria-hidden="true" className="mx-auto size-14 text-slate-500 dark:text-slate-400" />
  )
}

/** The sentence under the heading. */
function leadOf(result: Route.ComponentProps['loaderData']): string {
  switch (result.state) {
    case 'processing':
      // Only a confirmed payment sends the order's mail (delivered, awaiting stock or paid:
      // docs/delivery.md, "Order mails").
      return 'Your bank or UPI app has not confirmed the payment yet. This page updates by itself; you can also leave it — we e-mail you when it is confirmed.'
    case 'success':
      return 'Thank you for your purchase.'
    case 'refunded':
      return orderStatusExplanation('refunded')
    case 'failed':
      return result.message ?? UNKNOWN_ERROR
    case 'unavailable':
      // The same words for an unknown order and for one this browser may not see.
      return result.orderId
        ? 'If you paid for this order, open this page in the browser you paid with, use the link from your e-mail, or sign in to see it.'
        : `${CALLBACK_FAILED}: the address names no order. If you paid, use the link from your e-mail, or sign in to see your orders.`
  }
}

export default function PaymentResult({ loaderData, actionData }: Route.ComponentProps) {
  const site = useSiteSettings()
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>('root')?.user)
  const result = loaderData
  useEffect(() => rememberAnswer(result), [result])
  useEffect(() => showOnScreen(result.orderId), [result.orderId])
  usePolling(result.poll, result.orderId)
  const details = result.found ? result.details : null
  const help = whatsappLink(
    site.whatsappNumber,
    `Hi ${site.siteName}, I need help with my payment for order ${result.orderId || '(no order id)'}.`,
  )
  const here = paymentResultPath(result.orderId || null)
  // The login modal over this page, which shows the order once the buyer is signed in.
  const signIn = modalHref(href('/payment/callback'), here.split('?')[1] ?? '', 'login', here)

  return (
    <main className="mx-auto w-full max-w-xl flex-1 px-4 pb-16 pt-8">
      {result.found && result.testMode ? (
        <div className="mb-4">
          <TestModeBanner
            gateways={[result.gatewayName]}
            sandboxes={result.testEnvironment ? [result.gatewayName] : []}
          />
        </div>
      ) : null}
      <section
        aria-labelledby="result-heading"
        className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        <StateIcon state={result.state} />
        {/* One region for every state, so a screen reader hears the outcome when the page
            turns from processing to success or failure by itself. */}
        <div role="status">
          <h1
            id="result-heading"
            className="mt-4 text-2xl font-extrabold text-slate-950 dark:text-white"
          >
            {headingOf(result.state, result.orderId)}
          </h1>
          <p className="mt-2 text-slate-600 dark:text-slate-300">{leadOf(result)}</p>
        </div>
        {result.poll ? (
          <noscript>
            <meta httpEquiv="refresh" content={result.poll === 'fast' ? '5' : '30'} />
          </noscript>
        ) : null}

        {result.orderId ? (
          <dl className="mt-6 text-left text-sm">
            <Detail label="Order ID" value={result.orderId} />
            {details ? (
              <>
                <Detail label="Product" value={details.productName} />
                <Detail label="Transaction ID" value={details.transactionId ?? '—'} />
                <Detail
                  label={result.state === 'success' ? 'Amount Paid' : 'Amount'}
                  value={details.amount}
                />
                <Detail label="Date & Time" value={details.dateTime} />
              </>
            ) : null}
          </dl>
        ) : null}

        {result.state === 'success' ? (
          <>
            {details && result.found ? (
              <Delivery
                orderId={result.orderId}
                status={details.status}
                productGone={details.productGone}
                reveal={actionData}
              />
            ) : null}
            <p className="mt-6 rounded-xl bg-emerald-50 px-4 py-3 text-left text-sm text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100">
              We have e-mailed the link to your order page to{' '}
              {details ? (
                <strong className="wrap-anywhere">{details.email}</strong>
              ) : (
                'your e-mail address'
              )}
              . It should arrive within 5 minutes. Please check your spam folder if you do not see
              it.
            </p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-center">
              {details?.invoiceUrl ? (
                <a href={details.invoiceUrl} download className={secondaryLink}>
                  <Download aria-hidden="true" className="size-4" />
                  Download Invoice
                </a>
              ) : null}
              {details ? (
                <Link to={details.orderUrl} className={secondaryLink}>
                  View order
                </Link>
              ) : null}
              <Link to={href('/dashboard')} className={primaryLink}>
                Go to Dashboard
              </Link>
            </div>
          </>
        ) : null}

        {result.state === 'processing' && details ? (
          // Not a dead end while a UPI payment may take its time: the order page keeps its
          // status, and the help box below is there too.
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
            <Link to={details.orderUrl} className={secondaryLink}>
              View order
            </Link>
          </div>
        ) : null}

        {result.state === 'refunded' && details ? (
          // The order page keeps the invoice and its credit notes.
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
            <Link to={details.orderUrl} className={primaryLink}>
              View order
            </Link>
            <Link to={href('/')} className={secondaryLink}>
              Back to Home
            </Link>
          </div>
        ) : null}

        {result.state === 'failed' ? (
          <>
            {result.poll ? (
              // A payment approved late still pays this order: paying again would charge twice.
              <p className="mt-6 rounded-xl bg-amber-50 px-4 py-3 text-left text-sm text-amber-900 dark:bg-amber-950/60 dark:text-amber-100">
                If you approved the payment in your UPI app or bank, wait a minute before trying
                again — this page updates by itself.
              </p>
            ) : null}
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-center">
              <Link to={result.retryTo} className={primaryLink}>
                Retry Payment
              </Link>
              {details ? (
                <Link to={details.orderUrl} className={secondaryLink}>
                  View order
                </Link>
              ) : null}
              <Link to={href('/')} className={secondaryLink}>
                Back to Home
              </Link>
            </div>
          </>
        ) : null}

        {result.state === 'unavailable' ? (
          // No Retry: whoever lands here may have paid already. Signing in (the account the
          // order was placed with, or its verified e-mail address) shows it here again.
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
            {signedIn ? (
              <Link to={href('/dashboard/orders')} className={primaryLink}>
                My Orders
              </Link>
            ) : (
              <Link to={signIn} className={primaryLink}>
                Sign in
              </Link>
            )}
            <Link to={href('/')} className={secondaryLink}>
              Back to Home
            </Link>
          </div>
        ) : null}
      </section>

      {result.state === 'processing' ||
      result.state === 'failed' ||
      result.state === 'unavailable' ? (
        <aside
          aria-labelledby="help-heading"
          className="mt-6 rounded-2xl border border-slate-200 bg-slate-50 p-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 id="help-heading" className="font-bold text-slate-950 dark:text-white">
            Need help?
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            If money left your account, it is not lost: contact us with your order ID and we will
            sort it out.
          </p>
          <ul className="mt-3 space-y-2 text-sm">
            {site.contactEmail ? (
              <li>
                <a
                  href={`mailto:${site.contactEmail}?subject=${encodeURIComponent(`Payment for order ${result.orderId}`)}`}
                  className="inline-flex items-center gap-2 font-semibold text-brand-700 hover:underline dark:text-brand-300"
                >
                  <Mail aria-hidden="true" className="size-4" />
                  {site.contactEmail}
                </a>
              </li>
            ) : null}
            {help ? (
              <li>
                <a
                  href={help}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-2 font-semibold text-emerald-700 hover:underline dark:text-emerald-400"
                >
                  <MessageCircle aria-hidden="true" className="size-4" />
                  WhatsApp {whatsappDisplayNumber(site.whatsappNumber)}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ) : null}
            {!site.contactEmail && !help ? (
              <li className="text-slate-600 dark:text-slate-300">
                Contact the shop’s support team.
              </li>
            ) : null}
          </ul>
        </aside>
      ) : null}
    </main>
  )
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const siteName = rootMetaData(matches)?.site.siteName ?? 'KeyBazaar'
  const heading = loaderData
    ? headingOf(loaderData.state, loaderData.orderId)
    : headingOf('unavailable', '')
  return [{ title: `${heading} | ${siteName}` }, { name: 'robots', content: 'noindex' }]
}
