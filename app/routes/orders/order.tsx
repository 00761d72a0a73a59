import Download from 'lucide-react/icons/download'
import Flag from 'lucide-react/icons/flag'
import { useEffect, useId, useRef } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { TestModeBanner } from '~/components/checkout/checkout-form'
import { FormAlert } from '~/components/forms'
import { Pill } from '~/components/ui/badge'
import { OrderErrorPage, ORDER_NOT_FOUND } from '~/components/orders/order-error'
import { OrderSecret, secretView } from '~/components/orders/order-secret'
import { ReviewForm, ReviewSaved } from '~/components/orders/review-form'
import { ReviewText } from '~/components/shop/product-reviews'
import { modalHref } from '~/components/auth/auth-modals'
import {
  hasInvoice,
  orderDocuments,
  orderStatusExplanation,
  OrderStatusBadge,
} from '~/components/orders/order-status'
import { orderPath } from '~/lib/order-status'
import { rootMetaData } from '~/components/shop/site-data'
import { OrderHelp } from '~/components/orders/order-help'
import { listCreditNotes } from '~/data/credit-note.server'
import { invoiceBusinessOf } from '~/data/invoice.server'
import { getOrderPageProduct } from '~/data/customer-orders.server'
import {
  listOrderReports,
  REPORT_MESSAGES,
  REPORT_REASON_MAX,
  REPORT_REASON_MIN,
} from '~/data/order-report.server'
import { createOrderReport } from '~/services/order-reports.server'
import { getReviewByOrder } from '~/data/review.server'
import { productPath } from '~/lib/paths'
import { parseSubmission } from '~/lib/validation/submission'
import { reviewSchema } from '~/lib/validation/review'
import { editableUntil, saveReview } from '~/services/reviews.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { formatRupees } from '~/lib/money'
import { orderValidity } from '~/lib/validity'
import { clientIp, hitPolicy, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { shopDateTime } from '~/lib/date-format'
import {
  ORDER_PAGE_HEADERS,
  orderAccessCookie,
  orderPageHeaders,
  isOwnOrder,
  overLimit,
  requireViewableOrder,
  revealForBuyer,
  SECRET_UNREADABLE,
} from '~/services/order-access.server'
import {
  closedToVisitor,
  MAINTENANCE_REFUSAL,
  MAINTENANCE_RETRY_AFTER_SECONDS,
} from '~/services/maintenance.server'
import type { Route } from './+types/order'
import { gatewayLabel } from '~/lib/validation/gateway'
import {
  liveGatewayActive,
  paidInTestEnvironment,
} from '~/services/payment/offered-gateways.server'
import { readFormData } from '~/lib/form-data.server'

/**
 * /orders/{orderId}: the buyer's order page. Status in plain words, the product,
 * amount, dates, payment reference, validity and delivery time; the delivered account details
 * behind 'Reveal' (each reveal logged with time and IP); the invoice; help by WhatsApp and
 * e-mail; and 'Report a problem' for a delivered order. See ./order-access.server.ts for who may
 * see it: everyone else gets the same 404 as a missing order.
 */
const NOTHING_TO_REVEAL = 'There is nothing to reveal for this order yet.'

const RESOLUTION_TEXT: Record<string, string> = {
  replaced: 'We replaced the item. The new details are above.',
  replied: 'The shop replied:',
  refunded: 'Your payment was refunded.',
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, env } = services()
  const viewer = await requireViewableOrder(request, clientIp(context), params.orderId)
  const { order } = viewer
  const url = new URL(request.url)
  if (url.searchParams.has('token')) {
    // The token moves into this browser's cookie and out of the address bar and history.
    const headers = new Headers(ORDER_PAGE_HEADERS)
    if (viewer.queryToken)
      headers.set(
        'Set-Cookie',
        orderAccessCookie(request, order.id, viewer.queryToken, env.PUBLIC_URL),
      )
    throw redirect(orderPath(order.id), { status: 303, headers })
  }
  // Only the order's signed-in owner writes its review (app/services/reviews.server.ts).
  const owner = viewer.user && isOwnOrder(order, viewer.user) ? viewer.user : null
  const paidSale = hasInvoice(order.status) || order.status === 'refunded'
  // A test-mode order is not reviewed once the shop takes real money (docs/reviews.md).
  const reviewable =
    order.status === 'delivered' && !(order.testMode && (await liveGatewayActive(db, env)))
  const [settings, product, reports, review, creditNotes, invoiceBusiness] = await Promise.all([
    getSiteSettings(db),
    getOrderPageProduct(db, order.productId),
    listOrderReports(db, order.id),
    owner && reviewable ? getReviewByOrder(db, order.id) : null,
    // Only a paid order can have been refunded, in full or in part.
    paidSale ? listCreditNotes(db, order.id) : [],
    // The business the invoice names (docs/delivery.md, "Business invoices").
    paidSale ? invoiceBusinessOf(db, order.id) : null,
  ])
  const reviewEnds = review ? editableUntil(review.createdAt) : null
  const when = shopDateTime(settings.timezone)
  const openReport = reports.find((report) => report.status === 'open')
  return data(
    {
      order: {
        id: order.id,
        status: order.status,
        productName: order.productName,
        amount: formatRupees(order.paidAmount ?? order.amount),
        orderedAt: when.format(new Date(order.createdAt)),
        paidAt: order.paidAt ? when.format(new Date(order.paidAt)) : null,
        paymentReference: order.gatewayTxnId,
        bankReference: order.bankTxnId,
        testMode: order.testMode,
        // For its test-mode banner: the gateway's name, and whether its test environment took it.
        gatewayName: gatewayLabel(order.gateway),
        testEnvironment: order.testMode && (await paidInTestEnvironment(db, env, order.gateway)),
        // The validity it was sold with, shown as the storefront showed it ('1 Year' when blank).
        validity: orderValidity(order.validity, product?.validity),
      },
      product: product
        ? {
            href: productPath(product.slug),
            // As the storefront shows it ('Instant' by default: docs/original-spec.md, product page).
            deliveryTime: product.deliveryTime.trim() || 'Instant',
          }
        : null,
      // A refunded sale keeps its invoice beside its credit notes.
      ...orderDocuments(order, creditNotes, (iso) => when.format(new Date(iso))),
      invoiceBusiness: invoiceBusiness
        ? { name: invoiceBusiness.business.businessName, gstin: invoiceBusiness.business.gstin }
        : null,
      reports: reports.map((report) => ({
        id: report.id,
        open: report.status === 'open',
        reason: report.reason,
        reportedAt: when.format(new Date(report.createdAt)),
        resolution: report.resolution,
        reply: report.reply,
        resolvedAt: report.resolvedAt ? when.format(new Date(report.resolvedAt)) : null,
      })),
      canReport: order.status === 'delivered' && !openReport,
      reasonLength: { min: REPORT_REASON_MIN, max: REPORT_REASON_MAX },
      justReported: url.searchParams.has('reported') && Boolean(openReport),
      review:
        !reviewable || !product
          ? null
          : {
              /** write: the owner may write or change it; sign-in: someone else holds the link. */
              mode: owner ? ('write' as const) : viewer.user ? null : ('sign-in' as const),
              signInHref: modalHref(orderPath(order.id), '', 'login', orderPath(order.id)),
              productHref: productPath(product.slug),
              existing: review
                ? {
                    rating: review.rating,
                    title: review.title,
                    body: review.body,
                    hidden: review.hidden,
                    hiddenReason: review.hiddenReason,
                  }
                : null,
              editable: reviewEnds ? reviewEnds.getTime() > Date.now() : true,
              editableUntil: reviewEnds ? when.format(reviewEnds) : null,
              saved: url.searchParams.get('reviewed'),
            },
    },
    { headers: ORDER_PAGE_HEADERS },
  )
}

type ActionResult =
  | { intent: 'reveal'; secret: ReturnType<typeof secretView>; error: null }
  | { intent: 'reveal'; secret: null; error: string }
  | { intent: 'report'; error: string; reason: string }
  | { intent: 'review'; result: ReturnType<ReturnType<typeof parseSubmission>['reply']> }
  | { intent: null; error: string }

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, env } = services()
  const ip = clientIp(context)
  const { order, actor, user } = await requireViewableOrder(request, ip, params.orderId)
  const form = await readFormData(request)
  const intent = form.get('intent')

  if (intent === 'reveal') {
    const blocked = await overLimit('revealIp', ip)
    if (blocked) {
      return data<ActionResult>(
        {
          intent: 'reveal',
          secret: null,
          error: tooManyAttemptsMessage(blocked.retryAfterSeconds),
        },
        {
          status: 429,
          headers: { ...ORDER_PAGE_HEADERS, 'Retry-After': String(blocked.retryAfterSeconds) },
        },
      )
    }
    const { secret, unreadable } = await revealForBuyer(db, env.APP_SECRET, order.id, {
      actor,
      ip,
      via: 'order_page',
    })
    if (!secret) {
      return data<ActionResult>(
        {
          intent: 'reveal',
          secret: null,
          error: unreadable ? SECRET_UNREADABLE : NOTHING_TO_REVEAL,
        },
        { status: 409, headers: ORDER_PAGE_HEADERS },
      )
    }
    return data<ActionResult>(
      { intent: 'reveal', secret: secretView(secret), error: null },
      { headers: ORDER_PAGE_HEADERS },
    )
  }

  if (intent === 'review') {
    const submission = parseSubmission(form, reviewSchema)
    if (submission.status !== 'success')
      return data<ActionResult>(
        { intent: 'review', result: submission.reply() },
        { status: 400, headers: ORDER_PAGE_HEADERS },
      )
    if (!user)
      return data<ActionResult>(
        {
          intent: 'review',
          result: submission.reply({
            formErrors: ['Sign in with the account that placed this order to review it.'],
          }),
        },
        { status: 403, headers: ORDER_PAGE_HEADERS },
      )
    if (await closedToVisitor(db, user))
      return data<ActionResult>(
        { intent: 'review', result: submission.reply({ formErrors: [MAINTENANCE_REFUSAL] }) },
        {
          status: 503,
          headers: {
            ...ORDER_PAGE_HEADERS,
            'Retry-After': String(MAINTENANCE_RETRY_AFTER_SECONDS),
          },
        },
      )
    const hit = await hitPolicy(db, 'reviewUser', user.id)
    if (!hit.allowed)
      return data<ActionResult>(
        {
          intent: 'review',
          result: submission.reply({
            formErrors: [tooManyAttemptsMessage(hit.retryAfterSeconds)],
          }),
        },
        {
          status: 429,
          headers: {
            ...ORDER_PAGE_HEADERS,
            'Retry-After': String(Math.ceil(hit.retryAfterSeconds)),
          },
        },
      )
    const saved = await saveReview(db, user, order.id, submission.value)
    if (!saved.ok)
      return data<ActionResult>(
        { intent: 'review', result: submission.reply({ formErrors: [saved.error] }) },
        { status: saved.status, headers: ORDER_PAGE_HEADERS },
      )
    throw redirect(`${orderPath(order.id)}?reviewed=${saved.created ? 'new' : 'changed'}#review`, {
      status: 303,
      headers: ORDER_PAGE_HEADERS,
    })
  }

  if (intent === 'report') {
    const reason = String(form.get('reason') ?? '').slice(0, REPORT_REASON_MAX + 1000)
    const trimmed = reason.trim()
    // Checked here first so a typo does not use up the address's reports.
    const invalid =
      trimmed.length < REPORT_REASON_MIN
        ? REPORT_MESSAGES.tooShort
        : trimmed.length > REPORT_REASON_MAX
          ? REPORT_MESSAGES.tooLong
          : null
    if (invalid)
      return data<ActionResult>(
        { intent: 'report', error: invalid, reason },
        { status: 400, headers: ORDER_PAGE_HEADERS },
      )
    const blocked = await overLimit('reportIp', ip)
    if (blocked) {
      return data<ActionResult>(
        { intent: 'report', error: tooManyAttemptsMessage(blocked.retryAfterSeconds), reason },
        {
          status: 429,
          headers: { ...ORDER_PAGE_HEADERS, 'Retry-After': String(blocked.retryAfterSeconds) },
        },
      )
    }
    const result = await createOrderReport(db, {
      orderId: order.id,
      reason: trimmed,
      reportedBy: user ? `user:${user.id}` : 'customer',
    })
    if (!result.ok)
      return data<ActionResult>(
        { intent: 'report', error: result.error, reason },
        { status: 400, headers: ORDER_PAGE_HEADERS },
      )
    throw redirect(`${orderPath(order.id)}?reported=1`, {
      status: 303,
      headers: ORDER_PAGE_HEADERS,
    })
  }

  return data<ActionResult>(
    { intent: null, error: 'Unknown action.' },
    { status: 400, headers: ORDER_PAGE_HEADERS },
  )
}

const card =
  'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900'
const cardHeading = 'text-lg font-bold text-slate-950 dark:text-white'
const secondaryButton =
  'inline-flex h-11 items-center justify-center gap-2 rounded-xl border border-slate-300 px-5 font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800'

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-slate-100 py-2.5 last:border-0 sm:flex-row sm:justify-between sm:gap-4 dark:border-slate-800">
      <dt className="text-sm text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="text-sm font-semibold wrap-anywhere text-slate-950 sm:text-right dark:text-white">
        {children}
      </dd>
    </div>
  )
}

function ReportForm({
  error,
  reason,
  length,
}: {
  error: string | null
  reason: string
  length: { min: number; max: number }
}) {
  const id = useId()
  const busy = useNavigation().formData?.get('intent') === 'report'
  const field = useRef<HTMLTextAreaElement>(null)
  // A refused report puts the cursor back in the field its message is about.
  useEffect(() => {
    if (error) field.current?.focus()
  }, [error])
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  return (
    <Form method="post" preventScrollReset className="mt-4 space-y-3">
      <input type="hidden" name="intent" value="report" />
      <div className="space-y-1.5">
        <label
          htmlFor={id}
          className="block text-sm font-medium text-slate-800 dark:text-slate-200"
        >
          What is wrong?
        </label>
        <textarea
          ref={field}
          id={id}
          name="reason"
          rows={4}
          maxLength={length.max}
          defaultValue={reason}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : hintId}
          className="block w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 placeholder:text-slate-400 focus:border-brand-500 aria-[invalid=true]:border-rose-500 dark:border-slate-600 dark:bg-slate-900 dark:text-white"
        />
        {error ? (
          <p id={errorId} className="text-sm font-medium text-rose-700 dark:text-rose-400">
            {error}
          </p>
        ) : (
          <p id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
            For example: the password is not accepted, or the key says it was already used. At least{' '}
            {length.min} characters.
          </p>
        )}
      </div>
      <button type="submit" disabled={busy} className={secondaryButton}>
        <Flag aria-hidden="true" className="size-4" />
        {busy ? 'Sending…' : 'Report a problem'}
      </button>
    </Form>
  )
}

type OrderReview = NonNullable<Route.ComponentProps['loaderData']['review']>

function ReviewSection({
  review,
  lastResult,
}: {
  review: OrderReview
  lastResult: Parameters<typeof ReviewForm>[0]['lastResult']
}) {
  const { existing } = review
  return (
    <section id="review" aria-labelledby="review-heading" className={`${card} scroll-mt-24`}>
      <h2 id="review-heading" className={cardHeading}>
        {existing ? 'Your review' : 'Review this product'}
      </h2>
      {review.saved ? <ReviewSaved created={review.saved === 'new'} /> : null}
      {review.mode === 'sign-in' ? (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-200">
          Bought this with an account?{' '}
          <Link
            to={review.signInHref}
            className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
          >
            Sign in
          </Link>{' '}
          with it to rate and review the product.
        </p>
      ) : (
        <>
          {existing ? (
            <div className="mt-3 rounded-xl bg-slate-50 p-4 text-sm dark:bg-slate-800/60">
              <ReviewText review={existing} />
              {existing.hidden ? (
                <p className="mt-2 font-medium text-amber-900 dark:text-amber-200">
                  The shop has hidden this review: {existing.hiddenReason}
                </p>
              ) : (
                <p className="mt-2 text-slate-600 dark:text-slate-300">
                  Shown on the{' '}
                  <Link
                    to={`${review.productHref}#reviews`}
                    className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
                  >
                    product page
                  </Link>
                  .
                </p>
              )}
            </div>
          ) : (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              How was it? Your review helps other buyers choose.
            </p>
          )}
          {review.editable ? (
            <>
              {review.editableUntil ? (
                <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
                  You can change it until {review.editableUntil}.
                </p>
              ) : null}
              <ReviewForm existing={existing} lastResult={lastResult} />
            </>
          ) : (
            <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
              Reviews can be changed for 30 days after they are written; this one can no longer be
              changed.
            </p>
          )}
        </>
      )}
    </section>
  )
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const {
    order,
    product,
    invoiceUrl,
    creditNotes,
    invoiceBusiness,
    reports,
    canReport,
    justReported,
    review,
  } = loaderData
  const path = orderPath(order.id)
  const reveal = actionData?.intent === 'reveal' ? actionData : null
  const report = actionData?.intent === 'report' ? actionData : null

  return (
    <main className="mx-auto w-full max-w-3xl flex-1 space-y-6 px-4 pb-16 pt-8">
      {order.testMode ? (
        <TestModeBanner
          gateways={[order.gatewayName]}
          sandboxes={order.testEnvironment ? [order.gatewayName] : []}
        />
      ) : null}
      {actionData?.intent === null ? <FormAlert>{actionData.error}</FormAlert> : null}

      <section aria-labelledby="order-heading" className={card}>
        <p className="text-sm font-medium text-slate-600 dark:text-slate-300">
          Order <span className="font-mono break-all">{order.id}</span>
        </p>
        <h1
          id="order-heading"
          className="mt-1 text-2xl font-extrabold tracking-tight text-slate-950 sm:text-3xl dark:text-white"
        >
          {order.productName}
        </h1>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <OrderStatusBadge status={order.status} productGone={product === null} />
        </div>
        <p className="mt-3 text-slate-700 dark:text-slate-200">
          {orderStatusExplanation(order.status, { productGone: product === null })}
        </p>
        <dl className="mt-5">
          <Detail label="Order ID">
            <span className="font-mono">{order.id}</span>
          </Detail>
          <Detail label="Product">
            {product ? (
              <Link
                to={product.href}
                className="text-brand-700 hover:underline dark:text-brand-300"
              >
                {order.productName}
              </Link>
            ) : (
              order.productName
            )}
          </Detail>
          <Detail label={order.paidAt ? 'Amount paid' : 'Amount'}>{order.amount}</Detail>
          <Detail label="Ordered on">{order.orderedAt}</Detail>
          {order.paidAt ? <Detail label="Paid on">{order.paidAt}</Detail> : null}
          <Detail label="Payment reference">{order.paymentReference ?? '—'}</Detail>
          {order.bankReference ? (
            <Detail label="Bank reference">{order.bankReference}</Detail>
          ) : null}
          {order.validity ? <Detail label="Validity">{order.validity}</Detail> : null}
          {product ? <Detail label="Delivery time">{product.deliveryTime}</Detail> : null}
        </dl>
      </section>

      {order.status === 'delivered' ? (
        <section aria-labelledby="secret-heading" className={card}>
          <h2 id="secret-heading" className={cardHeading}>
            Your account details
          </h2>
          <div className="mt-3">
            <OrderSecret
              secret={reveal?.secret ?? null}
              error={reveal?.error}
              action={path}
              hideTo={path}
            />
          </div>
        </section>
      ) : null}

      <div className="grid gap-6 sm:grid-cols-2">
        {invoiceUrl ? (
          <section aria-labelledby="invoice-heading" className={card}>
            <h2 id="invoice-heading" className={cardHeading}>
              Invoice
            </h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {invoiceBusiness
                ? `A PDF made out to ${invoiceBusiness.name} (GSTIN ${invoiceBusiness.gstin}), with the seller, the amount and the payment reference.`
                : 'A PDF with the seller, your details, the amount and the payment reference.'}
            </p>
            <a href={invoiceUrl} download className={`${secondaryButton} mt-4`}>
              <Download aria-hidden="true" className="size-4" />
              Download Invoice
            </a>
            {creditNotes.length > 0 ? (
              <>
                <h3 className="mt-5 text-sm font-semibold text-slate-950 dark:text-white">
                  {creditNotes.length === 1 ? 'Credit note' : 'Credit notes'}
                </h3>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                  Issued for the refund against this invoice.
                </p>
                <ul className="mt-2 space-y-2 text-sm">
                  {creditNotes.map((note) => (
                    <li key={note.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                      <a
                        href={note.href}
                        download
                        className="inline-flex items-center gap-1.5 font-semibold text-brand-700 hover:underline dark:text-brand-300"
                      >
                        <Download aria-hidden="true" className="size-4" />
                        {note.number}
                      </a>
                      <span className="text-slate-600 dark:text-slate-300">
                        {note.amount} · {note.issuedAt}
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>
        ) : null}

        <OrderHelp order={order} className={`${card} ${invoiceUrl ? '' : 'sm:col-span-2'}`} />
      </div>

      {review?.mode ? (
        <ReviewSection
          review={review}
          lastResult={actionData?.intent === 'review' ? actionData.result : null}
        />
      ) : null}

      {canReport || reports.length > 0 ? (
        <section aria-labelledby="report-heading" className={card}>
          <h2 id="report-heading" className={cardHeading}>
            {canReport ? 'Report a problem' : 'Your report'}
          </h2>
          {justReported ? (
            <div className="mt-3">
              <FormAlert tone="success">
                Thank you. We have told the shop about the problem; you will hear back by e-mail.
              </FormAlert>
            </div>
          ) : null}
          {reports.length > 0 ? (
            <ul className="mt-3 space-y-3">
              {reports.map((item) => (
                <li
                  key={item.id}
                  className="rounded-xl bg-slate-50 p-4 text-sm dark:bg-slate-800/60"
                >
                  <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <Pill tone={item.open ? 'warning' : 'success'}>
                      {item.open ? 'Open' : 'Resolved'}
                    </Pill>
                    <span className="text-slate-600 dark:text-slate-300">
                      Reported on {item.reportedAt}
                      {item.resolvedAt ? `, resolved on ${item.resolvedAt}` : ''}
                    </span>
                  </p>
                  <p className="mt-1 whitespace-pre-line break-words text-slate-700 dark:text-slate-200">
                    {item.reason}
                  </p>
                  {item.open ? (
                    <p className="mt-2 text-slate-600 dark:text-slate-300">
                      The shop is looking into it and will get back to you by e-mail.
                    </p>
                  ) : item.resolution ? (
                    <div className="mt-2 border-l-2 border-brand-500 pl-3 text-slate-700 dark:text-slate-200">
                      <p>{RESOLUTION_TEXT[item.resolution] ?? 'Resolved by the shop.'}</p>
                      {item.reply ? (
                        <p className="mt-1 whitespace-pre-line break-words">{item.reply}</p>
                      ) : null}
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          {canReport ? (
            <>
              <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
                Do the details not work? Tell us what happens and the shop will replace the item or
                reply.
              </p>
              <ReportForm
                error={report?.error ?? null}
                reason={report?.reason ?? ''}
                length={loaderData.reasonLength}
              />
            </>
          ) : null}
        </section>
      ) : null}
    </main>
  )
}

export const headers = orderPageHeaders

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const siteName = rootMetaData(matches)?.site.siteName ?? 'KeyBazaar'
  const title = loaderData ? `Order ${loaderData.order.id}` : ORDER_NOT_FOUND.title
  return [{ title: `${title} | ${siteName}` }, { name: 'robots', content: 'noindex' }]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <OrderErrorPage error={error} />
}
