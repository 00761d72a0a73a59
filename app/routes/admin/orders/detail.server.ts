import type { SubmissionResult } from '@conform-to/react'
import { data, redirect } from 'react-router'
import { secretView, type RevealedSecret } from '~/components/orders/order-secret'
import { describeActors, getAdminOrder, orderActions } from '~/data/order-admin.server'
import {
  confirmOrderPayment,
  deliverManually,
  issueMissingCreditNotes,
  markRefunded,
  replaceFromStock,
  replyToReport,
  resendDeliveryMail,
  revealForAdmin,
} from '~/services/order-actions.server'
import { listOrderReports } from '~/data/order-report.server'
import { getOrder, listOrderEvents } from '~/data/order.server'
import { getSiteSettings } from '~/data/settings.server'
import type { StockSecret } from '~/data/stock.server'
import { services } from '~/lib/app-context.server'
import { readFormData } from '~/lib/form-data.server'
import { clientIp } from '~/lib/rate-limit.server'
import {
  ORDER_ACTION_INTENTS,
  orderActionSchema,
  type OrderActionField,
  type OrderActionInput,
  type OrderActionIntent,
} from '~/lib/validation/order-actions'
import { parseSubmission } from '~/lib/validation/submission'
import { MAIL_FAILED_EVENT } from '~/services/notifications/order-mail.server'
import { requirePermission } from '~/services/permissions.server'
import { ORDER_NOT_FOUND_TITLE } from './filters'
import type { Route } from './+types/detail'
import { SecretDecryptionError } from '~/lib/crypto.server'
import { shopDateTime } from '~/lib/date-format'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { formatRupees } from '~/lib/money'
import { creditNoteTimeLimitNotice } from '~/lib/gst'
import { resolvePaytmSetup } from '~/services/payment/config.server'
import { refundGatewayFor } from '~/services/payment/gateways.server'
import { gatewayAnswer, gatewayLabel } from '~/lib/validation/gateway'
import { requestGatewayRefund, unansweredRefunds } from '~/services/payment/refunds.server'
import { listOrderRefunds, newRefundId, refundableAmount } from '~/data/refund.server'
import { invoiceBusinessOf } from '~/data/invoice.server'
import { creditNoteTimeLimit, listCreditNotes, uncreditedRefunds } from '~/data/credit-note.server'
import { orderDocuments } from '~/components/orders/order-status'
import { paiseToDecimalText, parseRupeesToPaise } from '~/lib/money'
import { flashHeaders } from '~/lib/flash.server'
import { adminOrderPath } from '~/lib/order-status'
import { recordAdminChange } from '~/services/audit.server'
import { isUndeliverable } from '~/lib/mail-address'

/**
 * The order page's data (everything about one order, dates in the shop's time zone, actors by
 * name) and its action: the recovery actions (one schema, `orderActionSchema`), each confirmed
 * first (a dialog with JavaScript, a second step on the page without), and the admin's reveal
 * of the delivered item.
 */
export type OrderActionData =
  | {
      intent: OrderActionIntent
      step: 'confirm'
      /** What the admin typed, carried by the confirmation's form. */
      fields: { name: OrderActionField; value: string }[]
    }
  | { intent: OrderActionIntent; step: 'error'; result: SubmissionResult<string[]> }
  | { intent: 'reveal'; step: 'revealed'; secret: RevealedSecret }
  | { intent: 'reveal'; step: 'error'; error: string }

const DELIVERY_MODES: Record<string, string> = {
  stock: 'From stock (one item per order)',
  shared: 'Shared account (the same details for every buyer)',
  manual: 'By hand (an admin enters the details)',
}

/** Everything the order page shows, or null for an order that does not exist. */
/**
 * Timeline entries the admin's order page marks as needing attention; `mail_failed` is a mail to
 * the buyer the job runner gave up on (docs/delivery.md, "Order mails").
 */
const ATTENTION_EVENTS = new Set([
  'refund_warning',
  'refund_failed',
  'credit_note_failed',
  MAIL_FAILED_EVENT,
])

export async function orderPageData(db: DB, env: Env, orderId: string) {
  const detail = await getAdminOrder(db, orderId)
  if (!detail) return null
  const { order, product, items } = detail
  const [
    events,
    reports,
    settings,
    paytm,
    refunds,
    refundable,
    refundGateway,
    creditNotes,
    uncredited,
    invoiceBusiness,
  ] = await Promise.all([
    listOrderEvents(db, order.id),
    listOrderReports(db, order.id),
    getSiteSettings(db),
    // Only a Paytm order's confirmation names Paytm's setup (its simulator or Paytm).
    order.gateway === 'paytm' ? resolvePaytmSetup(db, env) : null,
    listOrderRefunds(db, order.id),
    refundableAmount(db, order.id),
    refundGatewayFor(db, env, order.gateway),
    listCreditNotes(db, order.id),
    uncreditedRefunds(db, order.id),
    invoiceBusinessOf(db, order.id),
  ])
  const unanswered = await unansweredRefunds(db, refunds)
  const timeLimit = await creditNoteTimeLimit(db, order, settings)
  const actors = await describeActors(
    db,
    [
      ...events.map((event) => event.actor),
      ...reports.flatMap((report) => [report.reportedBy, report.resolvedBy ?? '']).filter(Boolean),
      ...items.map((item) => item.addedBy),
      ...refunds.map((refund) => refund.requestedBy),
      ...(order.userId ? [`user:${order.userId}`] : []),
    ],
    order.gateway,
  )
  // An actor describeActors has no words for is shown as it is stored.
  const who = (actor: string) => actors[actor] ?? actor
  const format = shopDateTime(settings.timezone, { seconds: true })
  const when = (iso: string | null) => (iso ? format.format(new Date(iso)) : null)
  const manualItems = new Set(
    events.flatMap((event) => {
      const item = (event.data as { manualItemId?: unknown } | null)?.manualItemId
      return typeof item === 'string' ? [item] : []
    }),
  )
  const actions = orderActions(detail)
  // Refund through the gateway: a paid order with money left to refund, and the gateway that
  // took it (real or simulator, as the order was) has a refund API configured now.
  const canRefund = actions.refund && refundable > 0 && refundGateway?.testMode === order.testMode
  // The order's gateway is configured now for the other kind of payments (test or real): it
  // neither confirms nor refunds this order (docs/payments.md, "Refunds").
  const otherMode = refundGateway !== null && refundGateway.testMode !== order.testMode
  return {
    order: {
      id: order.id,
      status: order.status,
      createdAt: when(order.createdAt)!,
      paidAt: when(order.paidAt),
      updatedAt: when(order.updatedAt)!,
      amount: formatRupees(order.amount),
      paidAmount:
        order.paidAmount !== null && order.paidAmount !== order.amount
          ? formatRupees(order.paidAmount)
          : null,
      customerName: order.customerName,
      customerEmail: order.customerEmail,
      customerPhone: order.customerPhone,
      // An address no mail reaches: a deleted account's orders keep one (docs/auth.md), and
      // the page offers no action that only sends the buyer a mail.
      mailUndeliverable: isUndeliverable(order.customerEmail),
      account: order.userId ? (actors[`user:${order.userId}`] ?? null) : null,
      // The business its invoice names (docs/delivery.md, "Business invoices").
      business: invoiceBusiness
        ? {
            name: invoiceBusiness.business.businessName,
            gstin: invoiceBusiness.business.gstin,
            address: invoiceBusiness.business.address,
            issued: invoiceBusiness.issued,
          }
        : null,
      productName: order.productName,
      gateway: order.gateway,
      testMode: order.testMode,
      gatewayTxnId: order.gatewayTxnId,
      // The gateway's own id of the order (Razorpay's order_..., PhonePe's OMO...), by which
      // its dashboard finds the payment attempts.
      gatewayOrderId: order.gatewayOrderId,
      bankTxnId: order.bankTxnId,
      paymentMode: order.paymentMode,
      gatewayAnswer: gatewayAnswer(order),
      statusChecks: order.statusChecks,
      lastStatusCheckAt: when(order.lastStatusCheckAt),
      paymentLinkId: order.paymentLinkId,
    },
    product: product
      ? {
          id: product.id,
          title: product.title,
          deliveryMode: DELIVERY_MODES[product.deliveryMode] ?? product.deliveryMode,
          mode: product.deliveryMode,
        }
      : null,
    items: items.map((item) => ({
      id: item.id,
      status: item.status,
      source: manualItems.has(item.id) ? 'Entered by hand' : 'From stock',
      by: manualItems.has(item.id) ? who(item.addedBy) : null,
      deliveredAt: when(item.deliveredAt),
      revokedAt: when(item.revokedAt),
      revokedReason: item.revokedReason,
    })),
    timeline: events.map((event) => ({
      id: event.id,
      at: when(event.createdAt)!,
      atIso: event.createdAt,
      type: event.type,
      // What asks the admin to look: a refund that failed, may have paid twice or was never
      // answered, a credit note that could not be issued, a mail to the buyer that was lost.
      attention: ATTENTION_EVENTS.has(event.type),
      message: event.message,
      actor: who(event.actor),
      from: event.fromStatus,
      to: event.toStatus,
      ip:
        event.type === 'secret_revealed'
          ? (((event.data as { ip?: unknown } | null)?.ip as string | undefined) ?? null)
          : null,
    })),
    reports: reports.map((report) => ({
      id: report.id,
      createdAt: when(report.createdAt)!,
      createdAtIso: report.createdAt,
      reason: report.reason,
      status: report.status,
      resolution: report.resolution,
      reply: report.reply,
      reportedBy: who(report.reportedBy),
      resolvedBy: report.resolvedBy ? who(report.resolvedBy) : null,
      resolvedAt: when(report.resolvedAt),
    })),
    actions,
    refunds: refunds.map((refund) => ({
      id: refund.id,
      amount: formatRupees(refund.amount),
      reason: refund.reason,
      status: refund.status,
      gatewayRefundId: refund.gatewayRefundId,
      gatewayMessage: refund.gatewayMessage,
      requestedBy: who(refund.requestedBy),
      createdAt: when(refund.createdAt)!,
      processedAt: when(refund.processedAt),
    })),
    // What 'Mark refunded' records as refunded: the payment less what gateways gave back.
    markRefundedAmount: formatRupees(
      Math.max(
        0,
        Number(order.paidAmount ?? order.amount) -
          refunds
            .filter((refund) => refund.status === 'processed')
            .reduce((sum, refund) => sum + Number(refund.amount), 0),
      ),
    ),
    // Refunds the gateway has not answered: 'Mark refunded' waits for those still asked about
    // (markRefunded); the others are for the admin to look up in the gateway's dashboard.
    unansweredRefund: {
      checking: unanswered.checking > 0 ? formatRupees(unanswered.checking) : null,
      stopped: unanswered.stopped > 0 ? formatRupees(unanswered.stopped) : null,
    },
    gatewayRefund: canRefund
      ? {
          gateway: gatewayLabel(order.gateway),
          left: formatRupees(refundable),
          leftText: paiseToDecimalText(refundable),
          leftPaise: refundable,
          // One refund per form: a double click or a re-post sends this key again.
          refundKey: newRefundId(),
        }
      : null,
    // The sale's invoice and credit notes, as the buyer's order page offers them (the owner may
    // open any order's).
    ...orderDocuments(order, creditNotes, (iso) => when(iso)!),
    // Money refunded that no credit note covers yet: 'Issue credit note' covers it.
    uncredited: uncredited.amount > 0 ? formatRupees(uncredited.amount) : null,
    creditNoteLimit: timeLimit
      ? creditNoteTimeLimitNotice(timeLimit.financialYear, new Date())
      : null,
    // Set up for test payments ('test') or real ones ('live') now, unlike the order: why Confirm
    // payment is refused and Refund not offered.
    gatewayOtherMode: otherMode ? (refundGateway.testMode ? 'test' : 'live') : null,
    // Refund would apply, but the gateway is set up for the other mode.
    refundOtherMode: actions.refund && refundable > 0 && otherMode,
    // Who 'Confirm payment' asks: the order's own gateway as configured now (null: switched off,
    // when refundGatewayFor finds no setup either).
    gatewayName: !refundGateway
      ? null
      : paytm?.source === 'simulator'
        ? 'the built-in Paytm simulator'
        : gatewayLabel(order.gateway),
  }
}

const NO_MAIL_REFUSAL =
  'No e-mail can be sent to this buyer: the account was deleted and its address removed. Nothing was changed.'

/** An action's outcome; `repeated`: the same request again, which changed nothing new. */
type RunResult = { ok: boolean; message: string; field?: OrderActionField; repeated?: boolean }

function run(
  db: DB,
  env: Env,
  input: OrderActionInput,
  orderId: string,
  actor: string,
): Promise<RunResult> {
  switch (input.intent) {
    case 'gateway-refund':
      return requestGatewayRefund(db, {
        refundId: input.refundKey,
        orderId,
        // The schema has checked it is an amount of at least ₹1.00.
        amountPaise: parseRupeesToPaise(input.amount)!,
        reason: input.reason,
        actor,
      })
    case 'confirm':
      return confirmOrderPayment(db, env, { orderId, actor })
    case 'deliver':
      return deliverManually(db, env.APP_SECRET, {
        orderId,
        secret: input.secret,
        actor,
        replacing: input.replacing === undefined ? undefined : input.replacing === 'yes',
        currentItemId: input.currentItemId,
      })
    case 'replace':
      return replaceFromStock(db, {
        orderId,
        actor,
        reason: input.reason,
        currentItemId: input.currentItemId,
      })
    case 'refund':
      return markRefunded(db, { orderId, note: input.note, actor })
    case 'resend':
      return resendDeliveryMail(db, { orderId, actor })
    case 'reply':
      return replyToReport(db, { orderId, reply: input.reply, actor })
    case 'credit-note':
      return issueMissingCreditNotes(db, { orderId, actor })
  }
}

const FIELDS: readonly OrderActionField[] = [
  'secret',
  'reason',
  'note',
  'reply',
  'amount',
  'refundKey',
  'replacing',
  'currentItemId',
]

/** Shows the admin the item delivered to the buyer (revealForAdmin), or why not. */
async function reveal(
  db: DB,
  env: Env,
  orderId: string,
  admin: { id: string; name: string; email: string },
  ip: string,
) {
  let secret: StockSecret | null
  try {
    secret = await revealForAdmin(db, env.APP_SECRET, orderId, admin, ip)
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) {
      // Read or recorded in part (the timeline or the audit log not written): nothing is shown.
      console.error(`[admin] revealing the item of order ${orderId} failed:`, error)
      return data<OrderActionData>(
        {
          intent: 'reveal',
          step: 'error',
          error: 'Something went wrong, so the item was not shown. Please try again.',
        },
        { status: 500 },
      )
    }
    return data<OrderActionData>(
      {
        intent: 'reveal',
        step: 'error',
        error:
          'The item cannot be decrypted: APP_SECRET has changed since it was stored. Deliver new details instead.',
      },
      { status: 409 },
    )
  }
  if (!secret) {
    return data<OrderActionData>(
      {
        intent: 'reveal',
        step: 'error',
        error: 'Nothing to reveal: only a delivered order has an item to show.',
      },
      { status: 409 },
    )
  }
  return data<OrderActionData>({ intent: 'reveal', step: 'revealed', secret: secretView(secret) })
}

const ACTION_NAMES: Record<OrderActionInput['intent'], string> = {
  confirm: 'Confirmed the payment of',
  deliver: 'Delivered by hand',
  replace: 'Replaced the item of',
  refund: 'Marked as refunded',
  'gateway-refund': 'Requested a gateway refund of',
  resend: 'Resent the delivery mail of',
  reply: 'Replied to the report on',
  'credit-note': 'Issued a missing credit note for',
}

/**
 * The audit entry of a done recovery action (docs/audit.md): the order's status and payment
 * before and after, and what the admin typed (details delivered by hand are masked).
 */
async function recordOrderAction(
  db: DB,
  admin: { id: string; name: string; email: string },
  ip: string,
  input: OrderActionInput,
  before: Awaited<ReturnType<typeof getOrder>>,
) {
  const after = before ? await getOrder(db, before.id) : null
  if (!before || !after) return
  const view = (order: NonNullable<typeof before>) => ({
    status: order.status,
    paidAt: order.paidAt,
    gatewayTxnId: order.gatewayTxnId,
  })
  const typed = Object.fromEntries(
    FIELDS.filter((field) => field in input).map((field) => [
      field,
      (input as Record<string, unknown>)[field],
    ]),
  )
  await recordAdminChange(db, {
    actor: { id: admin.id, name: admin.name, email: admin.email },
    ip,
    action: `order.${input.intent}`,
    target: { type: 'order', id: before.id },
    summary: `${ACTION_NAMES[input.intent]} order ${before.id}`,
    before: view(before),
    after: { ...view(after), ...typed },
    secretFields: ['secret'],
  })
}

/**
 * One POST to the order page; every action checks Can Manage Orders itself. Input problems
 * come back with 400 and the typed text (Conform's reply); an unconfirmed action comes back as
 * a confirmation step; a done (or refused) action redirects to the page with a one-time
 * message, so a reload never repeats it.
 */
export async function orderAction({ request, params, context }: Route.ActionArgs) {
  const user = await requirePermission(request, 'canManageOrders')
  const { db, env } = services()
  const orderId = params.orderId
  const current = await getOrder(db, orderId)
  if (!current) {
    throw data({ title: ORDER_NOT_FOUND_TITLE }, { status: 404 })
  }
  const form = await readFormData(request)
  const intent = form.get('intent')
  const actor = `user:${user.id}`
  if (intent === 'reveal') return reveal(db, env, orderId, user, clientIp(context))
  if (!ORDER_ACTION_INTENTS.includes(intent as OrderActionIntent)) {
    throw data('Unknown action', { status: 400 })
  }
  // Resend and Reply only mail the buyer, and no mail reaches a deleted account's address
  // (docs/auth.md): the page does not offer them, and a form left open is told so.
  if ((intent === 'resend' || intent === 'reply') && isUndeliverable(current.customerEmail)) {
    throw redirect(adminOrderPath(orderId), {
      headers: await flashHeaders('error', NO_MAIL_REFUSAL),
    })
  }

  const submission = parseSubmission(form, orderActionSchema)
  if (submission.status !== 'success') {
    return data<OrderActionData>(
      { intent: intent as OrderActionIntent, step: 'error', result: submission.reply() },
      { status: 400 },
    )
  }
  const input = submission.value
  if (input.confirmed !== 'yes') {
    const fields = FIELDS.filter((field) => field in input).map((name) => {
      const typed = form.get(name)
      return { name, value: typeof typed === 'string' ? typed : '' }
    })
    return data<OrderActionData>({ intent: input.intent, step: 'confirm', fields })
  }

  let result: RunResult
  let before: Awaited<ReturnType<typeof getOrder>> = null
  try {
    before = await getOrder(db, orderId)
    result = await run(db, env, input, orderId, actor)
  } catch (error) {
    console.error(`[admin] order action ${input.intent} on ${orderId} failed:`, error)
    result = { ok: false, message: 'Something went wrong; nothing was changed. Please try again.' }
  }
  if (result.ok && !result.repeated) {
    // Done is done: an entry that cannot be written is logged, never reported as a failure
    // that would have the admin do it again (a second replacement item, say).
    await recordOrderAction(db, user, clientIp(context), input, before).catch((error: unknown) =>
      console.error(
        `[admin] order action ${input.intent} on ${orderId} done, but its audit entry was not written:`,
        error,
      ),
    )
  }
  if (!result.ok && result.field) {
    return data<OrderActionData>(
      {
        intent: input.intent,
        step: 'error',
        result: submission.reply({ fieldErrors: { [result.field]: [result.message] } }),
      },
      { status: 400 },
    )
  }
  throw redirect(adminOrderPath(orderId), {
    headers: await flashHeaders(result.ok ? 'success' : 'error', result.message),
  })
}
