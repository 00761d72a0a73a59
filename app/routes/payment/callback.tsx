import CircleCheck from 'lucide-react/icons/circle-check'
import CircleX from 'lucide-react/icons/circle-x'
import Download from 'lucide-react/icons/download'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import Mail from 'lucide-react/icons/mail'
import MessageCircle from 'lucide-react/icons/message-circle'
import { useEffect, useRef } from 'react'
import { Link, useRevalidator } from 'react-router'
import { TestModeBanner } from '~/components/checkout/checkout-form'
import { rootMetaData, useSiteSettings } from '~/components/shop/site-data'
import { whatsappLink } from '~/components/shop/whatsapp'
import { getOrderWithAccessHash, PAID_STATUSES, type Order } from '~/data/order.server'
import { getPaymentLink } from '~/data/payment-link.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { getUser } from '~/lib/auth.server'
import { formatRupees } from '~/lib/money'
import { canViewOrder } from '~/lib/payments/order-access.server'
import type { Route } from './+types/callback'

/**
 * /payment/callback: the payment result page (spec section 2). Where the gateway's callback
 * sends the buyer, as /payment/callback?ORDERID=... The result comes only from our record of
 * the order: STATUS, TXNID or TXNAMOUNT in the query change nothing. While the order is
 * pending the page says 'Processing Payment...' and asks the server again (with JavaScript
 * through revalidation, without it by a meta refresh) until the order is final.
 */
type ResultState = 'processing' | 'success' | 'failed'

const SUCCESS_STATES: readonly string[] = [...PAID_STATUSES, 'refunded']
const UNKNOWN_ERROR = 'Unknown error occurred'
const CALLBACK_FAILED = 'Failed to process payment callback'

function stateOf(order: Order): ResultState {
  if (SUCCESS_STATES.includes(order.status)) return 'success'
  if (order.status === 'pending') return 'processing'
  return 'failed'
}

function failureMessage(order: Order): string {
  if (order.status === 'expired')
    return 'We did not receive a confirmation of this payment from the gateway in time.'
  return order.gatewayRespMsg || UNKNOWN_ERROR
}

export async function loader({ request }: Route.LoaderArgs) {
  const { db } = services()
  const orderId = new URL(request.url).searchParams.get('ORDERID')?.slice(0, 60) ?? ''
  const found = orderId ? await getOrderWithAccessHash(db, orderId) : null
  if (!found) {
    return { found: false as const, orderId, state: 'failed' as const, message: CALLBACK_FAILED }
  }
  const { order, accessTokenHash } = found
  const [user, settings] = await Promise.all([getUser(request), getSiteSettings(db)])
  const state = stateOf(order)
  let retryTo = '/'
  if (state === 'failed' && order.paymentLinkId) {
    const link = await getPaymentLink(db, order.paymentLinkId, '')
    if (link?.status === 'active') retryTo = link.paymentUrl
  } else if (state === 'failed' && order.productId) {
    const product = await db
      .selectFrom('product')
      .select(['slug', 'inStock'])
      .where('id', '=', order.productId)
      .executeTakeFirst()
    if (product?.inStock) retryTo = `/checkout/${encodeURIComponent(product.slug)}`
  }
  const when = new Date(state === 'success' && order.paidAt ? order.paidAt : order.updatedAt)
  const dateTime = new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: settings.timezone,
  }).format(when)
  return {
    found: true as const,
    orderId: order.id,
    state,
    testMode: order.testMode,
    retryTo,
    // The details only for the buyer (this browser's order cookie, the ?token= link, or the owner).
    details: (await canViewOrder(db, request, order, accessTokenHash, user))
      ? {
          productName: order.productName,
          transactionId: order.gatewayTxnId,
          amount: formatRupees(
            state === 'success' && order.paidAmount !== null ? order.paidAmount : order.amount,
          ),
          dateTime,
          email: order.customerEmail,
        }
      : null,
    message: state === 'failed' ? failureMessage(order) : null,
  }
}

/** Revalidates with growing gaps while the payment is being processed. */
function usePolling(active: boolean) {
  const revalidator = useRevalidator()
  const attempts = useRef(0)
  useEffect(() => {
    if (!active) {
      attempts.current = 0
      return
    }
    if (revalidator.state !== 'idle') return
    const delay = Math.min(10_000, 1500 + attempts.current * 1000)
    const timer = setTimeout(() => {
      attempts.current += 1
      void revalidator.revalidate()
    }, delay)
    return () => clearTimeout(timer)
  }, [active, revalidator])
}

const primaryLink =
  'inline-flex h-11 items-center justify-center gap-2 rounded-xl bg-brand-600 px-5 font-semibold text-white shadow-sm hover:bg-brand-700'
const secondaryLink =
  'inline-flex h-11 items-center justify-center gap-2 rounded-xl border border-slate-300 px-5 font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800'

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 border-b border-slate-100 py-2 last:border-0 dark:border-slate-800">
      <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="text-right font-semibold break-all text-slate-950 dark:text-white">{value}</dd>
    </div>
  )
}

export default function PaymentResult({ loaderData }: Route.ComponentProps) {
  const site = useSiteSettings()
  const result = loaderData
  usePolling(result.state === 'processing')
  const details = result.found ? result.details : null
  const help = whatsappLink(
    site.whatsappNumber,
    `Hi ${site.siteName}, I need help with my payment for order ${result.orderId || '(no order id)'}.`,
  )

  return (
    <main className="mx-auto w-full max-w-xl flex-1 px-4 pb-16 pt-8">
      {result.found && result.testMode ? (
        <div className="mb-4">
          <TestModeBanner />
        </div>
      ) : null}
      <section
        aria-labelledby="result-heading"
        className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        {result.state === 'processing' ? (
          <>
            <LoaderCircle
              aria-hidden="true"
              className="mx-auto size-14 animate-spin text-brand-600 motion-reduce:animate-none"
            />
            <h1
              id="result-heading"
              className="mt-4 text-2xl font-extrabold text-slate-950 dark:text-white"
            >
              Processing Payment...
            </h1>
            <p role="status" className="mt-2 text-slate-600 dark:text-slate-300">
              We are confirming your payment with the gateway. This page updates by itself.
            </p>
            <noscript>
              <meta httpEquiv="refresh" content="5" />
            </noscript>
          </>
        ) : result.state === 'success' ? (
          <>
            <CircleCheck
              aria-hidden="true"
              className="mx-auto size-14 text-emerald-600 dark:text-emerald-400"
            />
            <h1
              id="result-heading"
              className="mt-4 text-2xl font-extrabold text-slate-950 dark:text-white"
            >
              Payment Successful!
            </h1>
            <p className="mt-2 text-slate-600 dark:text-slate-300">Thank you for your purchase.</p>
          </>
        ) : (
          <>
            <CircleX
              aria-hidden="true"
              className="mx-auto size-14 text-rose-600 dark:text-rose-400"
            />
            <h1
              id="result-heading"
              className="mt-4 text-2xl font-extrabold text-slate-950 dark:text-white"
            >
              Payment Failed
            </h1>
            <p className="mt-2 text-slate-600 dark:text-slate-300">{result.message}</p>
          </>
        )}

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
        {result.found && !details ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
            To see this order’s details, open this page in the browser you paid with, use the link
            from your e-mail, or sign in.
          </p>
        ) : null}

        {result.state === 'success' ? (
          <>
            <p className="mt-6 rounded-xl bg-emerald-50 px-4 py-3 text-left text-sm text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100">
              Your account details will be sent to{' '}
              {details ? <strong>{details.email}</strong> : 'your e-mail'} within 5 minutes. Please
              check your spam folder if you do not see them.
            </p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
              {/* Invoices are not issued yet (the fulfilment work adds PDF invoices): no pretend download. */}
              <button
                type="button"
                disabled
                aria-describedby="invoice-note"
                className={`${secondaryLink} cursor-not-allowed opacity-60`}
              >
                <Download aria-hidden="true" className="size-4" />
                Download Invoice
              </button>
              <Link to="/dashboard" className={primaryLink}>
                Go to Dashboard
              </Link>
            </div>
            <p id="invoice-note" className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              PDF invoices are coming soon.
            </p>
          </>
        ) : null}

        {result.state === 'failed' ? (
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
            <Link to={result.found ? result.retryTo : '/'} className={primaryLink}>
              Retry Payment
            </Link>
            <Link to="/" className={secondaryLink}>
              Back to Home
            </Link>
          </div>
        ) : null}
      </section>

      {result.state === 'failed' ? (
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
                  WhatsApp {site.whatsappNumber}
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
  const heading =
    loaderData?.state === 'success'
      ? 'Payment Successful!'
      : loaderData?.state === 'processing'
        ? 'Processing Payment...'
        : 'Payment Failed'
  return [{ title: `${heading} | ${siteName}` }, { name: 'robots', content: 'noindex' }]
}
