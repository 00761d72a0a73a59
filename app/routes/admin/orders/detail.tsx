import ArrowDown from 'lucide-react/icons/arrow-down'
import BadgeCheck from 'lucide-react/icons/badge-check'
import Mail from 'lucide-react/icons/mail'
import MessageCircle from 'lucide-react/icons/message-circle'
import MessageSquareReply from 'lucide-react/icons/message-square-reply'
import PackageCheck from 'lucide-react/icons/package-check'
import RefreshCw from 'lucide-react/icons/refresh-cw'
import Undo2 from 'lucide-react/icons/undo-2'
import BanknoteArrowDown from 'lucide-react/icons/banknote-arrow-down'
import FileText from 'lucide-react/icons/file-text'
import FilePlus from 'lucide-react/icons/file-plus'
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react'
import {
  data,
  Form,
  isRouteErrorResponse,
  Link,
  useNavigation,
  useParams,
  useRevalidator,
} from 'react-router'
import { Badge, type BadgeTone } from '~/components/admin/badge'
import { DetailCard, adminCard } from '~/components/admin/detail-card'
import { ConfirmPanel } from '~/components/ui/confirm-panel'
import { useConfirmedSubmit } from '~/components/ui/confirm'
import { AdminErrorPage } from '~/components/admin/error-page'
import { FlashNotice } from '~/components/admin/flash-notice'
import { BackLink } from '~/components/admin/page-header'
import { accountPageMeta } from '~/components/auth/messages'
import { FormErrors, TextareaField, TextField, useAppForm } from '~/components/forms'
import { OrderSecret } from '~/components/orders/order-secret'
import { useSiteSettings } from '~/components/shop/site-data'
import { Button } from '~/components/ui/button'
import type { ConfirmQuestion } from '~/components/ui/confirm'
import { services } from '~/lib/app-context.server'
import { requirePermission } from '~/services/permissions.server'
import { readFlash } from '~/lib/flash.server'
import {
  gatewayRefundSchemaUpTo,
  NO_LIVE_ITEM,
  ORDER_ACTION_SCHEMAS,
  type OrderActionField,
  type OrderActionIntent,
} from '~/lib/validation/order-actions'
import type { z } from '~/lib/validation/zod'
import { formatRupees, parseRupeesToPaise } from '~/lib/money'
import { orderAction, orderPageData, type OrderActionData } from './detail.server'
import { adminOrderPath } from '~/lib/order-status'
import { gatewayLabel, paymentModeLabel } from '~/lib/validation/gateway'
import { ORDER_NOT_FOUND_TITLE, ORDERS_PATH } from './filters'
import {
  adminStatusLabel,
  AdminStatusBadge,
  OpenReportBadge,
  TestModeBadge,
} from '~/components/admin/order-badges'
import type { Route } from './+types/detail'
import { adminProductEditPath } from '~/lib/paths'
import { buyerOrderMessage, customerWhatsappLink } from '~/lib/whatsapp'

/**
 * /admin/orders/{orderId}: everything about one order (customer, product, amounts, gateway
 * references, the delivered item behind Reveal, every step of its timeline with who did it,
 * problem reports) and the recovery actions that apply to it. Each action is a POST that
 * checks Can Manage Orders itself and asks for confirmation first.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db, env } = services()
  const [page, { flash, headers }] = await Promise.all([
    orderPageData(db, env, params.orderId),
    readFlash(request),
  ])
  if (!page) throw data({ title: ORDER_NOT_FOUND_TITLE }, { status: 404, headers })
  return data({ ...page, flash }, { headers })
}

export const action = orderAction

type PageData = Route.ComponentProps['loaderData']

function Fact({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`min-w-0 ${wide ? 'col-span-2 sm:col-span-1' : ''}`}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {label}
      </dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  )
}

const mono = 'font-mono text-[13px] break-all'

function Summary({ page }: { page: PageData }) {
  const { order, product } = page
  const { siteName } = useSiteSettings()
  // Only for an Indian mobile number: a chat with the order id filled in.
  const whatsapp = customerWhatsappLink(order.customerPhone, buyerOrderMessage(siteName, order))
  return (
    <DetailCard headingId="summary-heading" title="Summary" hiddenTitle>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-4">
        <Fact label="Customer" wide>
          <span className="font-semibold">{order.customerName}</span>
          <br />
          {order.mailUndeliverable ? (
            // A deleted account's address (docs/auth.md): shown, but nothing to write to.
            <span className="text-slate-600 dark:text-slate-400">{order.customerEmail}</span>
          ) : (
            <a
              href={`mailto:${order.customerEmail}`}
              className="text-brand-700 hover:underline dark:text-brand-300"
            >
              {order.customerEmail}
            </a>
          )}
          {order.customerPhone ? (
            <>
              <br />
              <a
                href={`tel:${order.customerPhone}`}
                className="text-brand-700 hover:underline dark:text-brand-300"
              >
                {order.customerPhone}
              </a>
            </>
          ) : null}
          {whatsapp ? (
            <>
              <br />
              <a
                href={whatsapp}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1 text-brand-700 hover:underline dark:text-brand-300"
              >
                <MessageCircle aria-hidden="true" className="size-4 shrink-0" />
                WhatsApp the buyer
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </>
          ) : null}
        </Fact>
        <Fact label="Account" wide>
          {order.account ??
            // Deleting an account leaves its orders with no user and an address under .invalid.
            (order.mailUndeliverable ? 'Deleted account' : 'Guest checkout (not signed in)')}
        </Fact>
        {order.business ? (
          <Fact label="Invoiced to" wide>
            <span className="font-semibold">{order.business.name}</span>
            <br />
            GSTIN <span className="font-mono">{order.business.gstin}</span>
            <br />
            <span className="text-slate-600 dark:text-slate-400">
              {order.business.address}
              {order.business.issued ? null : ' (from the account: no invoice issued yet)'}
            </span>
          </Fact>
        ) : null}
        <Fact label="Product" wide>
          {product ? (
            <Link
              to={adminProductEditPath(product.id)}
              className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
            >
              {order.productName}
            </Link>
          ) : (
            <>
              <span className="font-semibold">{order.productName}</span>{' '}
              <span className="text-slate-500 dark:text-slate-400">(product deleted since)</span>
            </>
          )}
        </Fact>
        <Fact label="Delivery" wide>
          {product?.deliveryMode ?? 'Unknown (product deleted)'}
        </Fact>
        <Fact label="Amount" wide>
          <span className="text-base font-bold">{order.amount}</span>
          {order.paidAmount ? (
            <span className="block text-rose-700 dark:text-rose-400">
              {gatewayLabel(order.gateway)} received {order.paidAmount}
            </span>
          ) : null}
        </Fact>
        <Fact label="Payment" wide>
          {gatewayLabel(order.gateway)}
          {order.paymentMode ? ` · ${paymentModeLabel(order.paymentMode)}` : ''}
          {order.testMode ? ' · test mode (no real money)' : ''}
        </Fact>
        <Fact label="Created">{order.createdAt}</Fact>
        <Fact label="Paid">{order.paidAt ?? 'Not paid'}</Fact>
        <Fact label="Transaction ID" wide>
          <span className={mono}>{order.gatewayTxnId ?? '—'}</span>
        </Fact>
        {order.gatewayOrderId ? (
          <Fact label={`${gatewayLabel(order.gateway)} order ID`} wide>
            <span className={mono}>{order.gatewayOrderId}</span>
          </Fact>
        ) : null}
        <Fact label="Bank transaction ID" wide>
          <span className={mono}>{order.bankTxnId ?? '—'}</span>
        </Fact>
        <Fact label="Gateway's last answer" wide>
          {order.gatewayAnswer ?? '—'}
        </Fact>
        <Fact label="Status checks" wide>
          {order.statusChecks === 0
            ? 'None'
            : `${order.statusChecks}${order.lastStatusCheckAt ? `, last ${order.lastStatusCheckAt}` : ''}`}
        </Fact>
        {order.paymentLinkId ? (
          <Fact label="Payment link" wide>
            <span className={mono}>{order.paymentLinkId}</span>
          </Fact>
        ) : null}
      </dl>
    </DetailCard>
  )
}

function DeliveredItem({
  page,
  actionData,
}: {
  page: PageData
  actionData: OrderActionData | undefined
}) {
  const reveal = actionData?.intent === 'reveal' ? actionData : null
  const live = liveItemOf(page)

  return (
    <DetailCard headingId="item-heading" title="Delivered item" anchor="delivered-item">
      {page.actions.reveal ? (
        <div className="mt-3">
          <OrderSecret
            audience="admin"
            secret={reveal?.step === 'revealed' ? reveal.secret : null}
            error={reveal?.step === 'error' ? reveal.error : null}
            action={`${adminOrderPath(page.order.id)}#delivered-item`}
            hideTo={adminOrderPath(page.order.id)}
          />
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          {page.order.status === 'refunded'
            ? 'Refunded: the buyer no longer sees the item delivered for this order.'
            : 'Nothing has been delivered for this order yet.'}
        </p>
      )}
      {page.items.length > 0 ? (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-slate-800 dark:text-slate-200">
            Items given to this order
          </h3>
          <ul className="mt-2 space-y-2">
            {page.items.map((item) => (
              <li
                key={item.id}
                className="rounded-xl border border-slate-200 px-3 py-2 text-sm dark:border-slate-700"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <code className="font-mono text-xs text-slate-600 dark:text-slate-300">
                    {item.id}
                  </code>
                  <Badge tone={item.status === 'revoked' ? 'muted' : 'success'}>
                    {item === live ? 'Live' : item.status === 'revoked' ? 'Revoked' : item.status}
                  </Badge>
                  <span className="text-slate-600 dark:text-slate-300">
                    {item.source}
                    {item.by ? ` by ${item.by}` : ''}
                  </span>
                </div>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  {item.deliveredAt ? `Delivered ${item.deliveredAt}` : null}
                  {item.revokedAt
                    ? ` · Revoked ${item.revokedAt}${item.revokedReason ? `: ${item.revokedReason}` : ''}`
                    : null}
                </p>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </DetailCard>
  )
}

function Timeline({ page }: { page: PageData }) {
  return (
    <DetailCard headingId="timeline-heading" title="Timeline">
      <ol className="mt-4 space-y-0">
        {page.timeline.map((event, index) => (
          <li key={event.id} className="relative flex gap-3 pb-5 last:pb-0">
            {index < page.timeline.length - 1 ? (
              <span
                aria-hidden="true"
                className="absolute left-[7px] top-5 h-full w-px bg-slate-200 dark:bg-slate-700"
              />
            ) : null}
            <span
              aria-hidden="true"
              className={`relative mt-1 size-[15px] shrink-0 rounded-full border-2 ${event.attention ? 'border-amber-500 bg-amber-400 dark:border-amber-400 dark:bg-amber-500' : 'border-brand-500 bg-white dark:bg-slate-900'}`}
            />
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-slate-950 dark:text-white">
                {event.attention ? (
                  <span className="mr-1.5 inline-flex rounded bg-amber-100 px-1.5 text-xs font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                    Check
                  </span>
                ) : null}
                {event.message}
              </p>
              <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                <time dateTime={event.atIso}>{event.at}</time> · by {event.actor}
                {event.ip ? ` · IP ${event.ip}` : ''}
              </p>
              {event.from || event.to ? (
                <p className="mt-1 text-xs font-medium text-slate-700 dark:text-slate-300">
                  {event.from ? adminStatusLabel(event.from) : 'New'} →{' '}
                  {event.to ? adminStatusLabel(event.to) : ''}
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ol>
    </DetailCard>
  )
}

const REFUND_STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  requested: { label: 'Sending', tone: 'warning' },
  pending: { label: 'Waiting for the gateway', tone: 'warning' },
  processed: { label: 'Refunded', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
}

const refundsNote =
  'mt-3 border-t border-slate-200 pt-3 text-sm text-slate-700 dark:border-slate-800 dark:text-slate-300'

/** Refunds asked of the gateway for this order, with what the gateway answered. */
function Refunds({ page }: { page: PageData }) {
  if (page.refunds.length === 0) return null
  const { checking, stopped } = page.unansweredRefund
  return (
    <DetailCard headingId="refunds-heading" title="Refunds">
      {/* Refreshed while a refund waits for its gateway: its new status is read out. */}
      <ul aria-live="polite" className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
        {page.refunds.map((refund) => {
          const status = REFUND_STATUS[refund.status] ?? REFUND_STATUS.requested!
          return (
            <li key={refund.id} className="py-3 first:pt-0 last:pb-0">
              <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-950 dark:text-white">
                {refund.amount}
                <Badge tone={status.tone}>{status.label}</Badge>
              </p>
              <p className="mt-1 text-xs break-all text-slate-600 dark:text-slate-400">
                {refund.createdAt} · by {refund.requestedBy}
                {refund.gatewayRefundId ? ` · gateway refund ${refund.gatewayRefundId}` : ''}
              </p>
              {refund.reason ? (
                <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{refund.reason}</p>
              ) : null}
              {refund.status === 'failed' && refund.gatewayMessage ? (
                <p className="mt-1 text-sm text-rose-700 dark:text-rose-300">
                  {refund.gatewayMessage}
                </p>
              ) : null}
            </li>
          )
        })}
      </ul>
      {checking && page.actions.refund ? (
        <p className={refundsNote}>
          {checking} is still waiting for the gateway’s answer, which KeyBazaar keeps asking for.
          Mark refunded, for money returned outside KeyBazaar, comes back once it is answered.
        </p>
      ) : null}
      {stopped && page.actions.refund ? (
        <p className={refundsNote}>
          {stopped} never had an answer from the gateway, and KeyBazaar has stopped asking (after a
          week of checks, or an error). Look it up in the gateway’s dashboard: if the money went
          back, or you return it yourself, Mark refunded records it.
        </p>
      ) : null}
    </DetailCard>
  )
}

/** The sale's invoice and its refunds' credit notes, as the buyer downloads them. */
function TaxDocuments({ page }: { page: PageData }) {
  if (!page.invoiceUrl && !page.uncredited) return null
  return (
    <DetailCard headingId="documents-heading" title="Invoice and credit notes">
      {page.uncredited ? (
        <p className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/30 dark:text-amber-200">
          {page.uncredited} refunded has no credit note. Issue one from{' '}
          <a href="#action-credit-note" className="font-semibold underline">
            Actions
          </a>{' '}
          so the refund is documented and the tax on it reversed.
        </p>
      ) : null}
      <ul className="mt-3 space-y-2 text-sm">
        {page.invoiceUrl ? (
          <li>
            <a
              href={page.invoiceUrl}
              download
              className="inline-flex items-center gap-1.5 font-semibold text-brand-700 hover:underline dark:text-brand-300"
            >
              <FileText aria-hidden="true" className="size-4" />
              Invoice
            </a>
          </li>
        ) : null}
        {page.creditNotes.map((note) => (
          <li key={note.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <a
              href={note.href}
              download
              className="inline-flex items-center gap-1.5 font-semibold text-brand-700 hover:underline dark:text-brand-300"
            >
              <FileText aria-hidden="true" className="size-4" />
              Credit note {note.number}
            </a>
            <span className="text-slate-600 dark:text-slate-400">
              {note.amount} · {note.issuedAt}
            </span>
          </li>
        ))}
      </ul>
    </DetailCard>
  )
}

const RESOLUTIONS: Record<string, string> = {
  replaced: 'Resolved by a replacement',
  replied: 'Resolved with a reply',
  refunded: 'Resolved by a refund',
}

function Reports({ page }: { page: PageData }) {
  if (page.reports.length === 0) return null
  return (
    <DetailCard headingId="reports-heading" title="Problem reports">
      <ul className="mt-3 space-y-3">
        {page.reports.map((report) => (
          <li
            key={report.id}
            className={`rounded-xl border p-3 ${
              report.status === 'open'
                ? 'border-rose-300 bg-rose-50 dark:border-rose-900 dark:bg-rose-950/30'
                : 'border-slate-200 dark:border-slate-700'
            }`}
          >
            <div className="flex flex-wrap items-center gap-2 text-xs">
              {report.status === 'open' ? (
                <Badge tone="danger">Open</Badge>
              ) : (
                <Badge tone="muted">{RESOLUTIONS[report.resolution ?? ''] ?? 'Resolved'}</Badge>
              )}
              <span className="text-slate-600 dark:text-slate-300">
                <time dateTime={report.createdAtIso}>{report.createdAt}</time> · by{' '}
                {report.reportedBy}
              </span>
            </div>
            <p className="mt-2 whitespace-pre-line text-sm text-slate-900 dark:text-slate-100">
              {report.reason}
            </p>
            {report.reply ? (
              <div className="mt-2 border-l-2 border-brand-500 pl-3">
                <p className="text-xs font-semibold text-slate-700 dark:text-slate-300">
                  Reply sent to the buyer
                </p>
                <p className="whitespace-pre-line text-sm text-slate-900 dark:text-slate-100">
                  {report.reply}
                </p>
              </div>
            ) : null}
            {report.resolvedAt ? (
              <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
                Resolved {report.resolvedAt}
                {report.resolvedBy ? ` by ${report.resolvedBy}` : ''}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </DetailCard>
  )
}

interface ActionSpec {
  intent: OrderActionIntent
  title: string
  icon: typeof Mail
  description: ReactNode
  submitLabel: string
  /** The question, fixed or made from what the form sends (the refund's amount). */
  confirm: ConfirmQuestion
  /** The form's own schema, when it checks more than the action's (what is left to refund). */
  schema?: z.ZodType
  tone?: 'primary' | 'secondary' | 'danger'
  /** The text the action takes; its limits come from the action's schema. */
  fields?: {
    name: OrderActionField
    label: string
    /** A one-line input (an amount) instead of a text area. */
    line?: { inputMode: 'decimal' | 'text'; defaultValue?: string }
    rows?: number
    placeholder?: string
    hint?: string
  }[]
  /** Values the form carries unseen (the refund's key). */
  hidden?: Partial<Record<OrderActionField, string>>
}

/** The question an action asks about what its form sends. */
function questionOf(question: ConfirmQuestion, sent: { name: string; value: string }[]) {
  if (typeof question !== 'function') return question
  const formData = new FormData()
  for (const { name, value } of sent) formData.set(name, value)
  return question(formData)
}

/**
 * Starts a card's form again once its own action went through (a success message arrived while
 * it was being sent; a refused one keeps what was typed): a native reset, which Conform follows
 * with the page's new values (a new refund key, what is left to refund). The form stays
 * mounted, so focus stays where it was.
 */
function useResetWhenDone(
  form: RefObject<HTMLFormElement | null>,
  sending: boolean,
  successId: string | null,
) {
  const sentAt = useRef<{ successId: string | null } | null>(null)
  useEffect(() => {
    if (sending) {
      sentAt.current ??= { successId }
      return
    }
    if (sentAt.current === null) return
    const done = successId !== null && sentAt.current.successId !== successId
    sentAt.current = null
    if (done) form.current?.reset()
  }, [form, sending, successId])
}

/**
 * One recovery action: its form (checked by its schema before anything is asked), the
 * confirmation (a dialog with JavaScript; without it the action answers with a confirmation
 * step shown here), and its errors.
 */
function ActionCard({
  spec,
  actionData,
  orderId,
  successId,
}: {
  spec: ActionSpec
  actionData: OrderActionData | undefined
  orderId: string
  /** The id of the page's success message, if it shows one (useResetWhenDone). */
  successId: string | null
}) {
  const navigation = useNavigation()
  const headingId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const mine = actionData && actionData.intent === spec.intent ? actionData : null
  const confirming = mine?.step === 'confirm' ? mine : null
  const question = confirming ? questionOf(spec.confirm, confirming.fields) : null
  const [form, fields] = useAppForm({
    schema: spec.schema ?? ORDER_ACTION_SCHEMAS[spec.intent],
    id: `${headingId}-form`,
    lastResult: mine?.step === 'error' ? mine.result : null,
    defaultValue: Object.fromEntries(
      (spec.fields ?? []).flatMap((input) =>
        input.line?.defaultValue ? [[input.name, input.line.defaultValue]] : [],
      ),
    ),
  })
  const onSubmit = useConfirmedSubmit(spec.confirm, {
    preventScrollReset: true,
    validate: form.onSubmit,
  })
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === spec.intent
  useResetWhenDone(formRef, busy, successId)
  const Icon = spec.icon

  return (
    <section
      id={`action-${spec.intent}`}
      aria-labelledby={headingId}
      className="scroll-mt-24 border-t border-slate-200 pt-4 first:border-t-0 first:pt-0 dark:border-slate-800"
    >
      <h3
        id={headingId}
        className="flex items-center gap-2 font-semibold text-slate-950 dark:text-white"
      >
        <Icon aria-hidden="true" className="size-4 text-brand-600 dark:text-brand-400" />
        {spec.title}
      </h3>
      <div className="mt-1 text-sm text-slate-600 dark:text-slate-300">{spec.description}</div>
      {confirming && question ? (
        <div className="mt-3">
          <ConfirmPanel
            id={`${headingId}-confirm`}
            headingLevel={4}
            title={question.title}
            action={adminOrderPath(orderId)}
            fields={{
              intent: spec.intent,
              ...Object.fromEntries(confirming.fields.map((field) => [field.name, field.value])),
            }}
            confirmLabel={question.confirmLabel ?? spec.submitLabel}
            cancelTo={adminOrderPath(orderId)}
            destructive={question.destructive ?? false}
            preventScrollReset
          >
            {question.description}
          </ConfirmPanel>
        </div>
      ) : (
        // Without JavaScript the answer (a confirmation step or an error) opens at this card.
        <Form
          ref={formRef}
          method="post"
          action={`${adminOrderPath(orderId)}#action-${spec.intent}`}
          id={form.id}
          noValidate={form.noValidate}
          onSubmit={onSubmit}
          preventScrollReset
          className="mt-3 space-y-3"
        >
          <input type="hidden" name="intent" value={spec.intent} />
          {Object.entries(spec.hidden ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {(spec.fields ?? []).map((input) => {
            const field = fields[input.name as keyof typeof fields]
            if (!field) return null
            return input.line ? (
              <TextField
                key={input.name}
                label={input.label}
                field={field}
                inputMode={input.line.inputMode}
                placeholder={input.placeholder}
                hint={input.hint}
              />
            ) : (
              <TextareaField
                key={input.name}
                label={input.label}
                field={field}
                rows={input.rows}
                placeholder={input.placeholder}
                hint={input.hint}
                raw={input.name === 'secret'}
              />
            )
          })}
          <FormErrors id={form.errorId} errors={form.errors} />
          <Button
            type="submit"
            variant={spec.tone ?? 'primary'}
            pending={busy}
            pendingLabel="Working…"
          >
            {spec.submitLabel}
          </Button>
        </Form>
      )}
    </section>
  )
}

/**
 * Why the order's gateway, as set up now, takes no part in this order: it is set up for test
 * payments and the order is live, or the other way round (docs/payments.md, "Refunds").
 */
function otherModeReason(page: PageData, doing: string): string | null {
  const { gatewayOtherMode: setUpFor, order } = page
  if (!setUpFor) return null
  return `${gatewayLabel(order.gateway)} is set up for ${setUpFor === 'test' ? 'test' : 'real'} payments now, so it cannot ${doing} this ${order.testMode ? 'test' : 'live'} order.`
}

/** Sentences under the actions about what is not offered, and why. */
function actionNotes(page: PageData): string[] {
  const { order, actions } = page
  const notes: string[] = []
  if (page.refundOtherMode) {
    notes.push(`Refund is not offered: ${otherModeReason(page, 'refund')!}`)
  }
  if (order.mailUndeliverable && (actions.resendDelivery || actions.replyToReport)) {
    notes.push(
      'No e-mail can be sent to this buyer (the account was deleted and its address removed), so Resend delivery e-mail and Reply to the report are not offered.',
    )
  }
  return notes
}

/** The item the buyer has now (delivered, or held while a report is open), if any. */
const liveItemOf = (page: PageData) =>
  page.items.find((item) => item.status === 'delivered' || item.status === 'held')

function actionSpecs(page: PageData): ActionSpec[] {
  const { order, actions, product } = page
  const specs: ActionSpec[] = []
  // What hands the buyer an item says when nothing was paid for it (docs/delivery.md, "Test
  // mode: simulated payments never get real goods").
  const testOrder = order.testMode ? ' Test order: no money was received.' : ''
  // Who the questions name: a deleted account's address reaches nobody (actionNotes).
  const buyer = order.mailUndeliverable ? 'the buyer' : order.customerEmail
  const mailed = (what = '') =>
    order.mailUndeliverable
      ? 'no e-mail can reach the buyer (the account was deleted)'
      : `${order.customerEmail} is e-mailed${what ? ` ${what}` : ''}`
  // The item a replacement replaces, as shown: one made meanwhile refuses this one. Posted as
  // NO_LIVE_ITEM when the page shows none, so a replacement made since is refused too.
  const replaces = { currentItemId: liveItemOf(page)?.id ?? NO_LIVE_ITEM }
  // The actions that issue a credit note say so near or after its time limit.
  const issuingCreditNote = (description: string): ReactNode =>
    page.creditNoteLimit ? (
      <>
        <p>{description}</p>
        <p className="mt-2 rounded-lg bg-amber-50 px-2 py-1.5 text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
          {page.creditNoteLimit}
        </p>
      </>
    ) : (
      description
    )
  const pushDeliver = (replacing: boolean) => {
    specs.push({
      intent: 'deliver',
      title: replacing ? 'Replace with new details' : 'Deliver manually',
      icon: PackageCheck,
      description: replacing
        ? 'Enter new account details or a new key: the current item is revoked and the buyer is e-mailed a link to the new one. Links in earlier e-mails to this order stop working.'
        : product?.mode === 'stock'
          ? 'Enter the account details or key yourself instead of waiting for stock. The buyer is e-mailed a link to see them.'
          : 'Enter the account details or key for this order. They are stored encrypted and the buyer is e-mailed a link to see them.',
      submitLabel: replacing ? 'Replace details' : 'Deliver',
      tone: replacing ? 'secondary' : 'primary',
      // What the admin saw: an order delivered meanwhile (stock arrived) is not replaced unasked.
      hidden: { replacing: replacing ? 'yes' : 'no', ...(replacing ? replaces : {}) },
      confirm: replacing
        ? {
            title: 'Replace the delivered details?',
            description: `The current item stops being shown and ${mailed('the new details')}.${testOrder}`,
            confirmLabel: 'Replace details',
          }
        : {
            title: 'Deliver these details?',
            description: `Order ${order.id} becomes delivered and ${mailed('a link to see the details')}.${testOrder}`,
            confirmLabel: 'Deliver',
          },
      fields: [
        {
          name: 'secret',
          label: replacing ? 'New account details or key' : 'Account details or key',
          rows: 4,
          placeholder: 'Email: buyer-account@example.com\nPassword: ...',
          hint: 'One "name: value" per line becomes named fields (Email, Password, ...); anything else is delivered as written.',
        },
      ],
    })
  }
  if (actions.confirmPayment) {
    const gateway = gatewayLabel(order.gateway)
    specs.push({
      intent: 'confirm',
      title: 'Confirm payment and deliver',
      icon: BadgeCheck,
      description: page.gatewayOtherMode
        ? otherModeReason(page, 'confirm')
        : page.gatewayName
          ? `For a payment we missed: asks ${page.gatewayName} about this order. Only when it confirms a successful payment of ${order.amount} is the order marked paid and delivered; otherwise nothing changes.`
          : `Payments are switched off (the ${gateway} gateway is inactive), so ${gateway} cannot be asked right now.`,
      submitLabel: 'Confirm payment and deliver',
      confirm: {
        title: 'Confirm payment and deliver?',
        description: `We ask ${gateway} about order ${order.id}. If ${gateway} confirms ${order.amount} was paid, the order is marked paid and delivered to ${buyer}.`,
        confirmLabel: `Ask ${gateway} and deliver`,
      },
    })
  }
  if (actions.deliverManually && order.status !== 'delivered') pushDeliver(false)
  // Resend and Reply only mail the buyer: not for an address no mail reaches (actionNotes).
  if (actions.replyToReport && !order.mailUndeliverable) {
    specs.push({
      intent: 'reply',
      title: 'Reply to the report',
      icon: MessageSquareReply,
      description: `Your reply is e-mailed to ${order.customerEmail} and closes the report. To fix the item instead, replace it: that closes the report too.`,
      submitLabel: 'Send reply',
      confirm: {
        title: 'Send this reply?',
        description: `It is e-mailed to ${order.customerEmail} and the report is marked resolved.`,
        confirmLabel: 'Send reply',
      },
      fields: [{ name: 'reply', label: 'Reply to the buyer', rows: 4 }],
    })
  }
  if (actions.replaceFromStock) {
    specs.push({
      intent: 'replace',
      title: 'Replace item from stock',
      icon: RefreshCw,
      description:
        'For an item that does not work: it is revoked and the next item in stock goes to the buyer, who is e-mailed a fresh link; links in earlier e-mails stop working. With no stock left nothing changes.',
      submitLabel: 'Replace item',
      tone: 'secondary',
      confirm: {
        title: 'Replace the item from stock?',
        description: `The delivered item is revoked and the next one in stock goes to ${buyer}.${testOrder}`,
        confirmLabel: 'Replace item',
      },
      hidden: replaces,
      fields: [
        {
          name: 'reason',
          label: 'Reason (optional, kept with the revoked item)',
          rows: 2,
          placeholder: 'Password changed by the account owner',
        },
      ],
    })
  }
  if (actions.deliverManually && order.status === 'delivered') pushDeliver(true)
  if (actions.resendDelivery && !order.mailUndeliverable) {
    specs.push({
      intent: 'resend',
      title: 'Resend delivery e-mail',
      icon: Mail,
      description: `Sends the delivery e-mail to ${order.customerEmail} again, with a fresh link to the order page.`,
      submitLabel: 'Resend e-mail',
      tone: 'secondary',
      confirm: {
        title: 'Send the delivery e-mail again?',
        description: `${order.customerEmail} gets a new e-mail with a link to the order page.`,
        confirmLabel: 'Send e-mail',
      },
    })
  }
  if (page.gatewayRefund) {
    const refund = page.gatewayRefund
    specs.push({
      intent: 'gateway-refund',
      title: 'Refund',
      icon: BanknoteArrowDown,
      description: issuingCreditNote(
        `Sends money back through ${refund.gateway}: all of it or a part (${refund.left} left to refund). When ${refund.gateway} confirms a full refund, the order becomes refunded, the delivered item is revoked and the buyer is e-mailed; a partial refund is e-mailed too.`,
      ),
      submitLabel: 'Refund',
      tone: 'danger',
      // The amount is asked about as typed: the box starts with all that is left, and a part
      // refund whose box was not changed would send everything back.
      confirm: (formData) => {
        const paise = parseRupeesToPaise(String(formData.get('amount') ?? ''))
        const amount = paise === null ? null : formatRupees(paise)
        return {
          title: 'Refund through the gateway?',
          description: `Refund ${amount ?? 'the amount entered'} to ${buyer} through ${refund.gateway}? ${
            amount === null
              ? ''
              : paise === refund.leftPaise
                ? 'That is all that is left to refund. '
                : `That is part of the ${refund.left} left to refund. `
          }This cannot be undone.`,
          confirmLabel: amount === null ? 'Refund' : `Refund ${amount}`,
          destructive: true,
        }
      },
      schema: gatewayRefundSchemaUpTo(refund.leftPaise),
      hidden: { refundKey: refund.refundKey },
      fields: [
        {
          name: 'amount',
          label: 'Amount in rupees',
          line: { inputMode: 'decimal', defaultValue: refund.leftText },
          hint: `Up to ${refund.left}, with paise if needed (249.50).`,
        },
        {
          name: 'reason',
          label: 'Reason (optional)',
          rows: 2,
          placeholder: 'Wrong region; buyer asked for a refund',
        },
      ],
    })
  }
  if (page.uncredited) {
    specs.push({
      intent: 'credit-note',
      title: 'Issue credit note',
      icon: FilePlus,
      description: issuingCreditNote(
        `${page.uncredited} has been refunded without a credit note. Issue it now (${order.testMode ? 'a test credit note, not numbered, as the order is a test' : 'numbered in this year’s series'}): it names the sale’s invoice and reverses the tax on the amount, and the buyer is e-mailed that it is on the order page.`,
      ),
      submitLabel: 'Issue credit note',
      confirm: {
        title: 'Issue the credit note?',
        description: `A credit note for ${page.uncredited}, dated today, is added to order ${order.id} and ${mailed()}. An issued credit note cannot be withdrawn.`,
        confirmLabel: 'Issue credit note',
      },
    })
  }
  // While a gateway refund waits for its answer, Mark refunded is refused (the Refunds card
  // says so): that money may still go back.
  if (actions.refund && !page.unansweredRefund.checking) {
    specs.push({
      intent: 'refund',
      title: 'Mark refunded',
      icon: Undo2,
      description: issuingCreditNote(
        `For a refund made outside (in the gateway’s dashboard, by bank transfer): this records it, and KeyBazaar does not send money back itself. It records all that is left of the payment (${page.markRefundedAmount}) as refunded, with a credit note for it: a part refunded outside is recorded as the whole. The buyer is e-mailed and no longer sees the delivered item.`,
      ),
      submitLabel: 'Mark refunded',
      tone: page.gatewayRefund ? 'secondary' : 'danger',
      confirm: {
        title: 'Mark this order refunded?',
        description:
          'Make the refund first: this only records it. The buyer is e-mailed and can no longer see the delivered item. This cannot be undone.',
        confirmLabel: 'Mark refunded',
        destructive: true,
      },
      fields: [
        {
          name: 'note',
          label: 'Refund note (required)',
          rows: 2,
          placeholder: 'Refund ID, amount, reason',
          hint: 'For example the refund reference from the gateway’s dashboard.',
        },
      ],
    })
  }
  return specs
}

/** How often, and for how long at most, the page refreshes while a refund waits. */
export const REFUND_REFRESH = { everyMs: 10_000, forMs: 5 * 60_000 }

/**
 * Calls `revalidate` every `everyMs` (each after the last one finished) until `forMs` have
 * passed since the start; returns what stops it sooner.
 */
export function refreshFor(
  revalidate: () => Promise<void>,
  { everyMs, forMs }: { everyMs: number; forMs: number },
): () => void {
  const until = Date.now() + forMs
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const next = () => {
    if (stopped || Date.now() + everyMs > until) return
    timer = setTimeout(() => {
      void revalidate().finally(next)
    }, everyMs)
  }
  next()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

/**
 * While a refund waits for its gateway's answer, which KeyBazaar keeps asking for, the page
 * refreshes itself, for 5 minutes after each new refund at most: the refund job's first checks
 * come within those (docs/payments.md, "Refunds").
 */
function useRefreshWhileRefunding(page: PageData, actionData: OrderActionData | undefined) {
  const { revalidate } = useRevalidator()
  // Not while the page shows an action's answer (a revealed item, a confirmation step, a field's
  // error): a refresh would clear it.
  const waiting =
    page.unansweredRefund.checking && !actionData
      ? page.refunds
          .filter((refund) => refund.status === 'requested' || refund.status === 'pending')
          .map((refund) => refund.id)
          .join(' ')
      : ''
  useEffect(
    () => (waiting ? refreshFor(revalidate, REFUND_REFRESH) : undefined),
    [waiting, revalidate],
  )
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const page = loaderData
  const { order, flash } = page
  const specs = actionSpecs(page)
  const openReport = page.reports.some((report) => report.status === 'open')
  useRefreshWhileRefunding(page, actionData)

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div>
        <BackLink to={ORDERS_PATH}>All orders</BackLink>
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2">
          <h1 className="break-all font-mono text-xl font-bold tracking-tight text-slate-950 sm:text-2xl dark:text-white">
            <span className="sr-only">Order </span>
            {order.id}
          </h1>
          <p className="flex flex-wrap items-center gap-1.5">
            <span className="sr-only">Status: </span>
            <AdminStatusBadge status={order.status} />
            {order.testMode ? <TestModeBadge /> : null}
            {openReport ? <OpenReportBadge /> : null}
          </p>
        </div>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {order.productName} · {order.amount} · placed {order.createdAt}
        </p>
        {specs.length > 0 ? (
          // On one column the actions come after the order's story: a way straight to them.
          <a
            href="#order-actions"
            className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline lg:hidden dark:text-brand-300"
          >
            Go to actions
            <ArrowDown aria-hidden="true" className="size-4" />
          </a>
        ) : null}
      </div>

      <FlashNotice flash={flash} />

      {/*
        What already happened comes first, the actions (some of which cannot be undone) after
        it: on phones one column in this order, on wide screens the actions in a column of their
        own beside it. The page is read, and tabbed through, in this same order.
      */}
      <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_auto_1fr]">
        <div className="lg:col-span-2">
          <Summary page={page} />
        </div>
        {page.reports.length > 0 ? (
          <div className="lg:col-span-2">
            <Reports page={page} />
          </div>
        ) : null}
        <div className="space-y-6 lg:col-span-2 lg:self-start">
          <DeliveredItem page={page} actionData={actionData} />
          <Refunds page={page} />
          <TaxDocuments page={page} />
          <Timeline page={page} />
        </div>
        <div className="lg:col-start-3 lg:row-span-3 lg:row-start-1 lg:self-start">
          <Actions specs={specs} page={page} actionData={actionData} />
        </div>
      </div>
    </div>
  )
}

function Actions({
  specs,
  page,
  actionData,
}: {
  specs: ActionSpec[]
  page: PageData
  actionData: OrderActionData | undefined
}) {
  const notes = actionNotes(page)
  return (
    <section id="order-actions" aria-label="Actions" className={`${adminCard} scroll-mt-24`}>
      <h2 className="text-lg font-bold text-slate-950 dark:text-white">Actions</h2>
      {specs.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          No action applies to an order that is {adminStatusLabel(page.order.status).toLowerCase()}.
        </p>
      ) : (
        // Each form starts again after its own action went through (useResetWhenDone).
        <div className="mt-4 space-y-4">
          {specs.map((spec) => (
            <ActionCard
              key={spec.intent}
              spec={spec}
              actionData={actionData}
              orderId={page.order.id}
              successId={page.flash?.type === 'success' ? page.flash.id : null}
            />
          ))}
        </div>
      )}
      {notes.map((note) => (
        <p
          key={note}
          className="mt-4 border-t border-slate-200 pt-4 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-300"
        >
          {note}
        </p>
      ))}
    </section>
  )
}

export function meta({ matches, params }: Route.MetaArgs) {
  return accountPageMeta(matches, `Order ${params.orderId}`)
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const params = useParams()
  // A 403 belongs to the admin layout's Access Denied page.
  if (isRouteErrorResponse(error) && error.status === 403) throw error
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <AdminErrorPage
      title={notFound ? ORDER_NOT_FOUND_TITLE : 'Something went wrong'}
      backTo={ORDERS_PATH}
      backLabel="Back to Orders"
    >
      {notFound
        ? `There is no order ${params.orderId ?? ''}. Check the order ID, or search for the customer in the orders list.`
        : 'The order could not be loaded. Please try again in a moment.'}
    </AdminErrorPage>
  )
}
