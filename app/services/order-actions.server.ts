import type { Transaction } from 'kysely'
import type { z } from 'zod'
import {
  appendOrderEvent,
  DuplicateTransactionError,
  getOrder,
  PAID_STATUSES,
  PAYABLE_STATUSES,
  revokeOrderAccessTokens,
  transitionOrder,
  type Order,
  takeOrderRows,
} from '~/data/order.server'
import { latestOrderEventAt } from '~/data/order-event.server'
import {
  issueCreditNote,
  issueCreditNoteWithinRefund,
  markedRefundSource,
  TEST_CREDIT_NOTE_NUMBER,
  uncreditedRefunds,
  type CreditNote,
} from '~/data/credit-note.server'
import { getSiteSettings } from '~/data/settings.server'
import { resolveOrderReport } from '~/data/order-report.server'
import { listUnansweredRefunds, processedRefundTotal, refundableAmount } from '~/data/refund.server'
import {
  allocateStockItem,
  insertManualOrderItem,
  revealOrderSecret,
  type StockSecret,
} from '~/data/stock.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { enqueueOrderMail } from '~/services/notifications/order-mail.server'
import { formatRupees } from '~/lib/money'
import { PaytmChecksumError } from '~/lib/payments/paytm-checksum.server'
import {
  fetchOrderStatus,
  GatewayUnavailableError,
  paymentStatusOf,
  type PaytmConfig,
  type PaytmOrderStatus,
} from '~/lib/payments/paytm.server'
import {
  GatewayRefusedError,
  GatewayUnreachableError,
  type GatewayPaymentStatus,
} from '~/lib/payments/gateway.server'
import { parseManualSecret } from '~/lib/stock-parse'
import { gatewayLabel } from '~/lib/validation/gateway'
import {
  firstProblem,
  ORDER_INPUT_MESSAGES,
  REPLACE_REASON_MAX,
  refundNoteText,
  replyText,
} from '~/lib/validation/order-actions'
import type { Database, OrderStatus } from '../../db/schema'
import { recordAdminChange } from './audit.server'
import { markOrderPaid } from './fulfilment.server'
import {
  gatewayOrderOf,
  gatewayStatusDetails,
  type ReconcilingGateway,
} from './payment/gateway-flow.server'
import { resolvePaytmSetup } from './payment/config.server'
import { reconcilingGatewayFor } from './payment/gateways.server'
import { unansweredRefunds } from './payment/refunds.server'

/**
 * The back office's recovery actions on one order (docs/admin.md): confirm a payment with the
 * order's gateway, deliver by hand, replace from stock, refund, resend, reply to a report. Every
 * action re-reads the order inside its own transaction and changes it only from the statuses it
 * applies to (compare-and-set), writes its timeline entry with the admin as actor and queues
 * the buyer's e-mail in the same transaction, so a double click or two admins at once change
 * an order once. Permissions are checked by the routes (canManageOrders).
 */
export const ORDER_ADMIN_MESSAGES = {
  notFound: 'Order not found',
  noGateway: noGatewayMessage('Paytm'),
  // What the admin types is checked by the page's schema (app/lib/validation/order-actions.ts).
  ...ORDER_INPUT_MESSAGES,
  noOpenReport: 'This order has no open problem report.',
  notStockProduct:
    'Only an order of a product sold from stock can be replaced from stock. Enter new details by hand instead.',
  alreadyReplaced:
    'This item was already replaced. Reload the order to see its current details. Nothing was changed.',
} as const

/**
 * How long after a replacement, or a resent delivery e-mail, the same action is taken for a
 * repeat (a double click, a form posted again, two admins at once) and refused: a replacement
 * whose form did not say which item it replaces (`currentItemId`), and every resend.
 */
export const REPEAT_WINDOW_SECONDS = 60

const statusText = (status: OrderStatus) => status.replace('_', ' ')

/** Why an action does not apply to the order as it is now. */
export function notApplicableMessage(action: string, status: OrderStatus): string {
  return `${action} does not apply to an order that is ${statusText(status)}. Nothing was changed.`
}

export function alreadyPaidMessage(orderId: string, status: OrderStatus): string {
  return `Order ${orderId} is already paid (${statusText(status)}). Nothing was changed.`
}

/** A replacement without `currentItemId` within REPEAT_WINDOW_SECONDS of the last one. */
export function recentlyReplacedMessage(retryAfterSeconds: number): string {
  return `This item was already replaced moments ago. Reload the order to see its current details; to replace it again, try in ${retryAfterSeconds} seconds. Nothing was changed.`
}

/** A resend within REPEAT_WINDOW_SECONDS of the last one. */
export function recentlyResentMessage(retryAfterSeconds: number): string {
  return `The delivery e-mail was sent again moments ago. To send it once more, try in ${retryAfterSeconds} seconds. Nothing was changed.`
}

/** An order whose whole payment is in refunds the gateway has not answered yet. */
export function refundingMessage(action: string, amountPaise: number, gateway: string): string {
  return `${action} does not apply while all that is left of the payment is being refunded (${formatRupees(amountPaise)} through ${gatewayLabel(gateway)}, waiting for its answer): the buyer would get details the refund then takes back. Nothing was changed.`
}

export function noStockMessage(productName: string): string {
  return `No stock is left for ${productName}. Add stock items to the product, or enter new details by hand. Nothing was changed.`
}

export type ActionResult =
  | { ok: true; message: string; status: OrderStatus }
  | { ok: false; message: string; field?: 'secret' | 'note' | 'reply' }

// ---------------------------------------------------------------------------------------------
// Recovery actions

/**
 * Takes the order for this transaction if it is in one of `statuses`: a write that changes
 * nothing, first in the transaction, so PostgreSQL locks the row (a concurrent action waits,
 * then finds the status it left). Returns what it read.
 */
async function claimOrder(
  trx: Transaction<Database>,
  orderId: string,
  statuses: readonly OrderStatus[],
) {
  return takeOrderRows(trx)
    .where('id', '=', orderId)
    .where('status', 'in', statuses)
    .returning(['id', 'status', 'productId', 'productName', 'testMode', 'gateway'])
    .executeTakeFirst()
}

async function currentStatus(db: DB, orderId: string): Promise<OrderStatus | null> {
  const row = await db
    .selectFrom('order')
    .select('status')
    .where('id', '=', orderId)
    .executeTakeFirst()
  return row?.status ?? null
}

/** The order's live item (delivered or held) becomes revoked; returns the ids revoked. */
async function revokeLiveItems(
  trx: Transaction<Database>,
  orderId: string,
  reason: string,
  at: string,
): Promise<string[]> {
  const rows = await trx
    .updateTable('stockItem')
    .set({ status: 'revoked', revokedReason: reason, revokedAt: at, updatedAt: at })
    .where('orderId', '=', orderId)
    .where('status', 'in', ['held', 'delivered'])
    .returning('id')
    .execute()
  return rows.map((row) => row.id)
}

/**
 * Refuses `action` on a claimed order whose whole payment is in refunds KeyBazaar still asks the
 * gateway about (nothing left to refund: refundableAmount), as the stock fill skips it
 * (app/services/fulfilment.server.ts): the buyer would be e-mailed details the refund then
 * revokes. A refund KeyBazaar stopped asking about does not hold the admin up, as for Mark
 * refunded: the shop was mailed to look it up (docs/delivery.md, "Refunds in progress").
 */
async function refuseWhileRefundingInFull(
  trx: Transaction<Database>,
  order: { id: string; gateway: string },
  action: string,
  now: Date,
): Promise<void> {
  // One indexed read, empty for nearly every order.
  const open = await listUnansweredRefunds(trx, order.id)
  if (open.length === 0 || (await refundableAmount(trx, order.id)) > 0) return
  const { checking } = await unansweredRefunds(trx, open, now)
  if (checking > 0) throw new Refused(refundingMessage(action, checking, order.gateway))
}

/**
 * Seconds until `types` may be done again on the order: REPEAT_WINDOW_SECONDS after its latest
 * such timeline entry (0: now). Read with the order's row claimed, so of two requests at once
 * the second sees the first's entry.
 */
async function repeatWaitSeconds(
  trx: Transaction<Database>,
  orderId: string,
  types: readonly string[],
  now: Date,
): Promise<number> {
  const windowMs = REPEAT_WINDOW_SECONDS * 1000
  const latest = await latestOrderEventAt(trx, orderId, types, new Date(now.getTime() - windowMs))
  if (!latest) return 0
  const leftMs = latest.getTime() + windowMs - now.getTime()
  return Math.max(1, Math.ceil(leftMs / 1000))
}

/**
 * Revokes the order's live item for a replacement, only if it is still the one the admin
 * replaces: `currentItemId` is the live item's id as the order page showed it ('' or null: it
 * showed none), and any other live item now (a replacement made meanwhile) refuses the
 * replacement. Without it, a replacement within REPEAT_WINDOW_SECONDS of the last one
 * (`repeatTypes` in the timeline; none for a first delivery) is taken for a repeat and refused
 * (docs/delivery.md, "The shop's side"). Throws Refused; the caller's transaction then changes
 * nothing.
 */
async function revokeReplacedItem(
  trx: Transaction<Database>,
  orderId: string,
  input: { currentItemId?: string | null; repeatTypes: readonly string[]; reason: string },
  now: Date,
): Promise<string[]> {
  if (input.currentItemId === undefined && input.repeatTypes.length > 0) {
    const wait = await repeatWaitSeconds(trx, orderId, input.repeatTypes, now)
    if (wait > 0) throw new Refused(recentlyReplacedMessage(wait))
  }
  const revoked = await revokeLiveItems(trx, orderId, input.reason, now.toISOString())
  if (input.currentItemId !== undefined) {
    const expected = input.currentItemId || null
    const same =
      expected === null ? revoked.length === 0 : revoked.length === 1 && revoked[0] === expected
    if (!same) throw new Refused(ORDER_ADMIN_MESSAGES.alreadyReplaced)
  }
  return revoked
}

/** The action did its work: what the admin is told, with the order's status after it. */
const applied = (status: OrderStatus, message: string): ActionResult => ({
  ok: true,
  status,
  message,
})

const notFound = (): ActionResult => ({ ok: false, message: ORDER_ADMIN_MESSAGES.notFound })

/**
 * What the admin typed, checked by its field's schema (app/lib/validation/order-actions.ts, the
 * page's form checks it too): the refusal naming the field, or null when it passes.
 */
function refusedInput(
  schema: z.ZodType,
  value: string,
  field: 'note' | 'reply',
): ActionResult | null {
  const problem = firstProblem(schema, value)
  return problem ? { ok: false, message: problem, field } : null
}

async function notApplicable(db: DB, orderId: string, action: string): Promise<ActionResult> {
  const status = await currentStatus(db, orderId)
  return status ? { ok: false, message: notApplicableMessage(action, status) } : notFound()
}

/** Thrown inside a transaction to roll it back with a message for the admin. */
class Refused extends Error {}

/** A gateway's answer in words for the admin (Paytm's UNKNOWN, "no such order", left out). */
function describeAnswer(answer: { status: string; respCode: string; respMsg: string }): string {
  return [answer.status === 'UNKNOWN' ? null : answer.status, answer.respCode, answer.respMsg]
    .filter(Boolean)
    .join(', ')
}

/** A gateway's answer about one order, as the admin's confirmation weighs it. */
interface CheckedPayment {
  status: GatewayPaymentStatus
  /** The answer in words, for a refusal ("TXN_FAILURE, 227, Insufficient balance"). */
  described: string
  /** What the timeline keeps of it. */
  details: Record<string, unknown>
}

/**
 * 'Confirm payment and deliver' as the order page offers it: asks the gateway the order was
 * placed through, as configured now (Paytm, or Razorpay and PhonePe below).
 */
export async function confirmOrderPayment(
  db: DB,
  env: Env,
  input: { orderId: string; actor: string },
): Promise<ActionResult> {
  return confirmWithGateway(db, input, async (order) => {
    if (order.gateway !== 'paytm')
      return askGateway(order, await reconcilingGatewayFor(db, env, order.gateway))
    const setup = await resolvePaytmSetup(db, env)
    return askPaytm(order, setup?.config ?? null, { testMode: setup?.testMode ?? false })
  })
}

/**
 * 'Confirm payment and deliver' for a pending, failed or expired order whose payment we missed:
 * asks Paytm's status API (the same request reconciliation makes) and marks the order paid only
 * when Paytm says TXN_SUCCESS for exactly the order's amount; markOrderPaid delivers in the same
 * transaction. Works once: a paid order is left alone and the admin is told. When Paytm does not
 * confirm, the answer is shown and recorded in the timeline, and the order does not change.
 * Orders placed through Razorpay or PhonePe: confirmGatewayPaymentAndDeliver.
 */
export async function confirmPaymentAndDeliver(
  db: DB,
  input: {
    orderId: string
    actor: string
    /** The Paytm to ask; null when payments are switched off. */
    gateway: PaytmConfig | null
    /** Whether that Paytm takes test payments only (it confirms only test-mode orders). */
    testMode?: boolean
    fetch?: typeof globalThis.fetch
    timeoutMs?: number
    now?: Date
  },
): Promise<ActionResult> {
  return confirmWithGateway(db, input, (order) =>
    askPaytm(order, input.gateway, { ...input, testMode: input.testMode ?? false }),
  )
}

/** Why a gateway set up for the other mode cannot confirm `order`; null when it can. */
function otherModeRefusal(
  label: string,
  gatewayTestMode: boolean,
  order: Order,
): ActionResult | null {
  if (gatewayTestMode === order.testMode) return null
  return {
    ok: false,
    message: `${label} is set up ${gatewayTestMode ? 'as the built-in simulator' : 'with real keys'} now, which cannot confirm a ${order.testMode ? 'test-mode' : 'live'} order. Nothing was changed.`,
  }
}

/** Paytm's status API about an order, or why it cannot be asked. */
async function askPaytm(
  order: Order,
  gateway: PaytmConfig | null,
  options: { testMode: boolean; fetch?: typeof globalThis.fetch; timeoutMs?: number },
): Promise<CheckedPayment | ActionResult> {
  if (!gateway) return { ok: false, message: ORDER_ADMIN_MESSAGES.noGateway }
  const otherMode = otherModeRefusal('Paytm', options.testMode, order)
  if (otherMode) return otherMode
  let answer: PaytmOrderStatus
  try {
    answer = await fetchOrderStatus(order.id, gateway, options)
  } catch (error) {
    if (error instanceof GatewayUnavailableError) {
      return {
        ok: false,
        message: `Paytm could not be reached (${error.attempts.map((a) => a.reason).join('; ')}). Nothing was changed; try again in a minute.`,
      }
    }
    if (error instanceof PaytmChecksumError) {
      return {
        ok: false,
        message:
          'The Paytm merchant key cannot sign the status request; check the gateway settings. Nothing was changed.',
      }
    }
    throw error
  }
  const status = paymentStatusOf(answer)
  return {
    status,
    described: describeAnswer(answer),
    details: gatewayStatusDetails(status, { via: 'admin', statusApi: answer.source }),
  }
}

/**
 * 'Confirm payment and deliver' for an order placed through a gateway of the shared payment
 * workflow (Razorpay, PhonePe): its status API decides, as in reconciliation, with the same
 * rules as for Paytm above. `gateway` is the order's gateway as configured now (null: switched
 * off); the simulator never confirms a live order, nor a real gateway a test one.
 */
export async function confirmGatewayPaymentAndDeliver(
  db: DB,
  input: { orderId: string; actor: string; gateway: ReconcilingGateway | null; now?: Date },
): Promise<ActionResult> {
  return confirmWithGateway(db, input, (order) => askGateway(order, input.gateway))
}

/** A shared-workflow gateway's status API about an order, or why it cannot be asked. */
async function askGateway(
  order: Order,
  gateway: ReconcilingGateway | null,
): Promise<CheckedPayment | ActionResult> {
  const label = gatewayLabel(order.gateway)
  if (!gateway) return { ok: false, message: noGatewayMessage(label) }
  const otherMode = otherModeRefusal(label, gateway.testMode, order)
  if (otherMode) return otherMode
  let status: GatewayPaymentStatus
  try {
    status = await gateway.queryStatus(gatewayOrderOf(order))
  } catch (error) {
    if (error instanceof GatewayUnreachableError) {
      return {
        ok: false,
        message: `${label} could not be reached (${error.message}). Nothing was changed; try again in a minute.`,
      }
    }
    if (error instanceof GatewayRefusedError) {
      return {
        ok: false,
        message: `${label} refused the status request (${error.message}); check the gateway settings. Nothing was changed.`,
      }
    }
    throw error
  }
  return {
    status,
    described: describeAnswer(status),
    details: gatewayStatusDetails(status, { via: 'admin' }),
  }
}

function noGatewayMessage(label: string): string {
  return `Payments are switched off (the ${label} gateway is inactive), so ${label} cannot be asked. Nothing was changed.`
}

/**
 * What both confirmations share: the order must be payable; `ask` asks the order's gateway (or
 * says why it cannot); only a successful payment of exactly the order's amount, with its id,
 * marks it paid, and any other answer is recorded in the timeline and changes nothing.
 */
async function confirmWithGateway(
  db: DB,
  input: { orderId: string; actor: string; now?: Date },
  ask: (order: Order) => Promise<CheckedPayment | ActionResult>,
): Promise<ActionResult> {
  const now = input.now ?? new Date()
  const order = await getOrder(db, input.orderId)
  if (!order) return notFound()
  if (!(PAYABLE_STATUSES as readonly OrderStatus[]).includes(order.status)) {
    return order.status === 'refunded' ||
      (PAID_STATUSES as readonly OrderStatus[]).includes(order.status)
      ? { ok: false, message: alreadyPaidMessage(order.id, order.status) }
      : { ok: false, message: notApplicableMessage('Confirm payment', order.status) }
  }
  const checked = await ask(order)
  if ('ok' in checked) return checked
  const answer = checked.status
  const label = gatewayLabel(order.gateway)
  const refuse = async (message: string): Promise<ActionResult> => {
    await appendOrderEvent(
      db,
      order.id,
      {
        type: 'payment_check',
        message: `Checked with ${label} by an admin: ${message}`,
        actor: input.actor,
        data: checked.details,
      },
      now,
    )
    return { ok: false, message: `${message} Nothing was changed.` }
  }

  if (answer.state !== 'paid')
    return refuse(`${label} does not confirm this payment (${checked.described}).`)
  if (answer.amountPaise !== order.amount) {
    const shown = answer.amountPaise === null ? 'no amount' : formatRupees(answer.amountPaise)
    return refuse(
      `${label} reports a successful payment of ${shown}, but the order is for ${formatRupees(order.amount)}.`,
    )
  }
  if (!answer.txnId) return refuse(`${label} reports success without a transaction id.`)

  try {
    const result = await markOrderPaid(
      db,
      order.id,
      {
        status: answer.status,
        txnId: answer.txnId,
        bankTxnId: answer.bankTxnId,
        paymentMode: answer.paymentMode,
        paidAmount: answer.amountPaise,
        respCode: answer.respCode.slice(0, 60),
        respMsg: answer.respMsg,
      },
      {
        message: `Payment of ${formatRupees(order.amount)} confirmed with ${label} by an admin`,
        data: checked.details,
        actor: input.actor,
        expected: order.status,
        countsStatusCheck: true,
      },
      now,
    )
    if (!result.changed) {
      return result.status
        ? { ok: false, message: alreadyPaidMessage(order.id, result.status) }
        : notFound()
    }
  } catch (error) {
    if (!(error instanceof DuplicateTransactionError)) throw error
    return refuse(`${label} transaction ${answer.txnId} already paid another order.`)
  }
  const status = (await currentStatus(db, order.id)) ?? 'paid'
  const outcome =
    status === 'delivered'
      ? 'the order was delivered.'
      : status === 'awaiting_stock'
        ? 'the product is out of stock, so the order waits for stock.'
        : 'the order is paid and waits for you to deliver it.'
  return applied(status, `Payment confirmed with ${label}: ${outcome}`)
}

/**
 * 'Deliver manually': the admin enters the details (lines, or "name: value" lines). A paid or
 * waiting order becomes delivered; for a delivered order the details replace what it had (the
 * old item is revoked, if it is still the one the admin replaces: revokeReplacedItem), the
 * order's old links stop opening it (revokeOrderAccessTokens) and an open report is resolved as
 * replaced. The item is encrypted like stock; the buyer gets the delivery (or replacement)
 * e-mail, queued in the same transaction. Refused while the whole payment is being refunded.
 */
export async function deliverManually(
  db: DB,
  appSecret: string,
  input: {
    orderId: string
    secret: string
    actor: string
    /**
     * The form the admin used: false to deliver an order not yet delivered, true to replace a
     * delivered one's details. An order that changed meanwhile (delivered from new stock) is
     * refused rather than replaced unasked. Undefined: either.
     */
    replacing?: boolean
    /**
     * The order's live item as the admin's page showed it ('' or null: none); a replacement is
     * refused when another one is live now (revokeReplacedItem).
     */
    currentItemId?: string | null
    now?: Date
  },
): Promise<ActionResult> {
  const parsed = parseManualSecret(input.secret)
  if (!parsed.ok) return { ok: false, message: parsed.error, field: 'secret' }
  const now = input.now ?? new Date()
  const at = now.toISOString()
  const statuses: OrderStatus[] =
    input.replacing === undefined
      ? ['paid', 'awaiting_stock', 'delivered']
      : input.replacing
        ? ['delivered']
        : ['paid', 'awaiting_stock']
  let done: { status: 'delivered'; replaced: boolean } | null
  try {
    done = await db.transaction().execute(async (trx) => {
      const order = await claimOrder(trx, input.orderId, statuses)
      if (!order) return null
      await refuseWhileRefundingInFull(trx, order, 'Manual delivery', now)
      const replacing = order.status === 'delivered'
      const revoked = await revokeReplacedItem(
        trx,
        order.id,
        {
          currentItemId: input.currentItemId,
          // A form that did not say it replaces may be a second click on Deliver: the
          // delivery that click made counts as well.
          repeatTypes: !replacing
            ? []
            : input.replacing === undefined
              ? ['replaced', 'delivered']
              : ['replaced'],
          reason: 'Replaced by details entered by an admin',
        },
        now,
      )
      const item = await insertManualOrderItem(trx, appSecret, {
        orderId: order.id,
        productId: order.productId,
        secret: parsed.secret,
        addedBy: input.actor,
        now: input.now,
      })
      if (replacing) {
        await appendOrderEvent(
          trx,
          order.id,
          {
            type: 'replaced',
            message: 'Replaced with details entered by an admin',
            actor: input.actor,
            data: { manualItemId: item.id, revokedItemIds: revoked },
          },
          at,
        )
        // Old links to the order stop working: only the mail's fresh one opens it.
        await revokeOrderAccessTokens(trx, order.id)
        await enqueueOrderMail(trx, { orderId: order.id, kind: 'replaced' })
        await resolveOrderReport(
          trx,
          { orderId: order.id, resolution: 'replaced', actor: input.actor },
          now,
        )
        return { status: 'delivered' as const, replaced: true }
      }
      await trx
        .updateTable('order')
        .set({ status: 'delivered', updatedAt: at })
        .where('id', '=', order.id)
        .where('status', '=', order.status)
        .execute()
      await appendOrderEvent(
        trx,
        order.id,
        {
          type: 'delivered',
          message: 'Delivered by hand by an admin',
          actor: input.actor,
          from: order.status,
          to: 'delivered',
          data: { manualItemId: item.id, revokedItemIds: revoked },
        },
        at,
      )
      await enqueueOrderMail(trx, { orderId: order.id, kind: 'delivered' })
      return { status: 'delivered' as const, replaced: false }
    })
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message }
    throw error
  }
  if (!done) return notApplicable(db, input.orderId, 'Manual delivery')
  return applied(
    done.status,
    done.replaced
      ? 'The new details replace the old ones; the buyer has been e-mailed.'
      : 'Delivered; the buyer has been e-mailed.',
  )
}

/**
 * 'Replace item' for a delivered order of a stock product: in one transaction the delivered
 * item is revoked (first: one live item per order), if it is still the one the admin replaces
 * (revokeReplacedItem), and the next available one is allocated. With no stock left, nothing
 * changes. The order's old links stop opening it (revokeOrderAccessTokens): the buyer gets the
 * 'replaced' e-mail with a fresh one. An open report is resolved as replaced. Refused while the
 * whole payment is being refunded.
 */
export async function replaceFromStock(
  db: DB,
  input: {
    orderId: string
    actor: string
    reason?: string
    /** The order's live item as the admin's page showed it ('' or null: none). */
    currentItemId?: string | null
    now?: Date
  },
): Promise<ActionResult> {
  const now = input.now ?? new Date()
  const at = now.toISOString()
  const reason = input.reason?.trim().slice(0, REPLACE_REASON_MAX) || 'Replaced by an admin'
  try {
    const done = await db.transaction().execute(async (trx) => {
      const order = await claimOrder(trx, input.orderId, ['delivered'])
      if (!order) return null
      const product = order.productId
        ? await trx
            .selectFrom('product')
            .select('deliveryMode')
            .where('id', '=', order.productId)
            .executeTakeFirst()
        : undefined
      if (!order.productId || product?.deliveryMode !== 'stock')
        throw new Refused(ORDER_ADMIN_MESSAGES.notStockProduct)
      await refuseWhileRefundingInFull(trx, order, 'Replace item', now)
      const revoked = await revokeReplacedItem(
        trx,
        order.id,
        { currentItemId: input.currentItemId, repeatTypes: ['replaced'], reason },
        now,
      )
      const item = await allocateStockItem(trx, {
        orderId: order.id,
        productId: order.productId,
        // A test-mode order is replaced from test items only, a real one from real items.
        testItems: Boolean(order.testMode),
        now: input.now,
      })
      if (!item) throw new Refused(noStockMessage(order.productName))
      await appendOrderEvent(
        trx,
        order.id,
        {
          type: 'replaced',
          message: `Item replaced from stock: ${reason}`,
          actor: input.actor,
          data: { stockItemId: item.id, revokedItemIds: revoked },
        },
        at,
      )
      // Old links to the order stop working: only the mail's fresh one opens it.
      await revokeOrderAccessTokens(trx, order.id)
      await enqueueOrderMail(trx, { orderId: order.id, kind: 'replaced' })
      await resolveOrderReport(
        trx,
        { orderId: order.id, resolution: 'replaced', actor: input.actor },
        new Date(at),
      )
      return true
    })
    if (!done) return notApplicable(db, input.orderId, 'Replace item')
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message }
    throw error
  }
  return applied('delivered', 'The item was replaced from stock; the buyer has been e-mailed.')
}

/**
 * 'Mark refunded' for a paid, delivered or waiting order: records that the money went back
 * (the refund itself is made in the Paytm dashboard; no refund API is called), with the admin's
 * note. The buyer is e-mailed and no longer sees the delivered item; an open report is resolved
 * as refunded. A credit note is issued for what gateway refunds have not already given back
 * (app/data/credit-note.server.ts). While a gateway refund waits for an answer KeyBazaar still
 * asks for, it is refused: that money may still go back, and the buyer would be refunded twice
 * and e-mailed twice. A refund no longer asked about does not hold it up.
 */
export async function markRefunded(
  db: DB,
  input: { orderId: string; note: string; actor: string; now?: Date },
): Promise<ActionResult> {
  const refused = refusedInput(refundNoteText, input.note, 'note')
  if (refused) return refused
  const note = input.note.trim()
  const now = input.now ?? new Date()
  let result: Awaited<ReturnType<typeof transitionOrder>>
  try {
    result = await markRefundedOnce(db, input, note, now)
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message }
    throw error
  }
  if (result.changed) return applied('refunded', 'Marked refunded; the buyer has been e-mailed.')
  if (!result.status) return notFound()
  if (result.status === 'refunded')
    return { ok: false, message: 'This order is already refunded. Nothing was changed.' }
  return { ok: false, message: notApplicableMessage('Mark refunded', result.status) }
}

function markRefundedOnce(
  db: DB,
  input: { orderId: string; actor: string },
  note: string,
  now: Date,
) {
  return transitionOrder(
    db,
    input.orderId,
    {
      from: PAID_STATUSES,
      to: 'refunded',
      event: {
        type: 'refunded',
        message: `Marked refunded: ${note}`,
        data: { note },
        actor: input.actor,
      },
      async also(trx) {
        // Read after the order's row is written: a refund requested meanwhile has been seen.
        const order = await trx
          .selectFrom('order')
          .select(['amount', 'paidAmount', 'gateway'])
          .where('id', '=', input.orderId)
          .executeTakeFirstOrThrow()
        const { checking } = await unansweredRefunds(
          trx,
          await listUnansweredRefunds(trx, input.orderId),
        )
        if (checking > 0)
          throw new Refused(
            `A refund of ${formatRupees(checking)} through ${gatewayLabel(order.gateway)} is still waiting for its answer. Mark refunded records money returned outside KeyBazaar: use it once that refund is answered. Nothing was changed.`,
          )
        // As a gateway refund does: the item is taken back, not left live for a mail to carry.
        await revokeLiveItems(trx, input.orderId, 'Refunded', now.toISOString())
        // Its credit note, for what the gateway refunds (if any) have not already given back.
        const refundedBefore = await processedRefundTotal(trx, input.orderId)
        const { creditNote, failure } = await issueCreditNoteWithinRefund(
          trx,
          {
            orderId: input.orderId,
            source: markedRefundSource(input.orderId),
            amountPaise: Number(order.paidAmount ?? order.amount) - refundedBefore,
            // The admin's note is for the shop (a bank reference, say), not for the buyer's PDF.
            reason: '',
          },
          await getSiteSettings(trx),
          now,
        )
        if (failure)
          await appendOrderEvent(
            trx,
            input.orderId,
            {
              type: 'credit_note_failed',
              message: `No credit note could be issued for this refund: ${failure}`,
              actor: 'system',
            },
            now.toISOString(),
          )
        await enqueueOrderMail(trx, {
          orderId: input.orderId,
          kind: 'refunded',
          creditNoteId: creditNote?.id,
        })
        await resolveOrderReport(
          trx,
          { orderId: input.orderId, resolution: 'refunded', actor: input.actor },
          now,
        )
      },
    },
    now,
  )
}

/**
 * 'Issue credit note': the credit notes a refunded sale lacks (one failed in its refund's
 * transaction, or the refund came before credit notes were kept), issued now with today's date
 * for what has been refunded and not yet credited (uncreditedRefunds). Recorded in the timeline;
 * the buyer is e-mailed that it is on the order page. Twice, or two admins at once: the second
 * finds nothing left to credit.
 */
export async function issueMissingCreditNotes(
  db: DB,
  input: { orderId: string; actor: string; now?: Date },
): Promise<ActionResult> {
  const now = input.now ?? new Date()
  const outcome = await db.transaction().execute(async (trx) => {
    // The order's row first, as a refund's credit note takes it (issueCreditNote).
    const order = await takeOrderRows(trx)
      .where('id', '=', input.orderId)
      .returning(['status'])
      .executeTakeFirst()
    if (!order) return null
    const { refunds } = await uncreditedRefunds(trx, input.orderId)
    const settings = await getSiteSettings(trx)
    const issued: CreditNote[] = []
    for (const refund of refunds) {
      const note = await issueCreditNote(trx, { orderId: input.orderId, ...refund }, settings, now)
      if (note) issued.push(note)
    }
    if (issued.length === 0) return { status: order.status, issued }
    const total = issued.reduce((sum, note) => sum + Number(note.amount), 0)
    const numbers = issued.map((note) => note.number ?? TEST_CREDIT_NOTE_NUMBER).join(', ')
    await appendOrderEvent(
      trx,
      input.orderId,
      {
        type: 'credit_note_issued',
        message: `Credit note ${numbers} issued for ${formatRupees(total)} refunded`,
        data: { creditNoteIds: issued.map((note) => note.id) },
        actor: input.actor,
      },
      now.toISOString(),
    )
    await enqueueOrderMail(trx, {
      orderId: input.orderId,
      kind: 'credit_note',
      // One credit note is named in the mail; several are on the order page.
      creditNoteId: issued.length === 1 ? issued[0]!.id : undefined,
    })
    return { status: order.status, issued }
  })
  if (!outcome) return notFound()
  if (outcome.issued.length === 0)
    return {
      ok: false,
      message: 'Every refund of this order already has its credit note. Nothing was changed.',
    }
  const [first] = outcome.issued
  return applied(
    outcome.status,
    outcome.issued.length === 1
      ? `Credit note ${first!.number ?? TEST_CREDIT_NOTE_NUMBER} issued; the buyer has been e-mailed.`
      : `${outcome.issued.length} credit notes issued; the buyer has been e-mailed.`,
  )
}

/**
 * 'Resend delivery e-mail' for a delivered order; recorded in the timeline. Once a minute per
 * order (REPEAT_WINDOW_SECONDS after the last resend in the timeline), so a double click or two
 * admins at once send one mail. Refused while the whole payment is being refunded.
 */
export async function resendDeliveryMail(
  db: DB,
  input: { orderId: string; actor: string; now?: Date },
): Promise<ActionResult> {
  const now = input.now ?? new Date()
  let sent: boolean
  try {
    sent = await db.transaction().execute(async (trx) => {
      const order = await claimOrder(trx, input.orderId, ['delivered'])
      if (!order) return false
      await refuseWhileRefundingInFull(trx, order, 'Resending the delivery e-mail', now)
      const wait = await repeatWaitSeconds(trx, order.id, ['mail_resent'], now)
      if (wait > 0) throw new Refused(recentlyResentMessage(wait))
      await enqueueOrderMail(trx, { orderId: order.id, kind: 'delivered' })
      await appendOrderEvent(
        trx,
        order.id,
        { type: 'mail_resent', message: 'Delivery e-mail sent again', actor: input.actor },
        now,
      )
      return true
    })
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message }
    throw error
  }
  if (!sent) return notApplicable(db, input.orderId, 'Resending the delivery e-mail')
  return applied('delivered', 'The delivery e-mail is on its way to the buyer.')
}

/** 'Reply to report': the reply is e-mailed to the buyer and resolves the open report as replied. */
export async function replyToReport(
  db: DB,
  input: { orderId: string; reply: string; actor: string; now?: Date },
): Promise<ActionResult> {
  const refused = refusedInput(replyText, input.reply, 'reply')
  if (refused) return refused
  const resolved = await db.transaction().execute(async (trx) => {
    const closed = await resolveOrderReport(
      trx,
      { orderId: input.orderId, resolution: 'replied', actor: input.actor, reply: input.reply },
      input.now,
    )
    // The buyer gets the reply by e-mail, queued with the resolution or not at all.
    if (closed)
      await enqueueOrderMail(trx, {
        orderId: input.orderId,
        kind: 'reply',
        message: input.reply.trim(),
      })
    return closed
  })
  if (!resolved) {
    const status = await currentStatus(db, input.orderId)
    return status ? { ok: false, message: ORDER_ADMIN_MESSAGES.noOpenReport } : notFound()
  }
  return applied(
    (await currentStatus(db, input.orderId)) ?? 'delivered',
    'Reply sent; the report is resolved.',
  )
}

/**
 * Shows an admin the item delivered to the buyer: the reveal goes on the order's timeline
 * (revealOrderSecret) and in the audit log as `order.reveal` (docs/audit.md), in one
 * transaction, so no item is shown without both. The entry names the order and the admin, never
 * the item. Null when the order has nothing delivered to show; throws SecretDecryptionError when
 * the item cannot be read with `appSecret`.
 */
export async function revealForAdmin(
  db: DB,
  appSecret: string,
  orderId: string,
  admin: { id: string; name: string; email: string },
  ip: string,
): Promise<StockSecret | null> {
  return db.transaction().execute(async (trx) => {
    const shown = await revealOrderSecret(trx, appSecret, orderId, {
      actor: `user:${admin.id}`,
      ip,
      via: 'admin',
    })
    if (shown) {
      await recordAdminChange(trx, {
        actor: { id: admin.id, name: admin.name, email: admin.email },
        ip,
        action: 'order.reveal',
        target: { type: 'order', id: orderId },
        summary: `Revealed the delivered item of order ${orderId}`,
      })
    }
    return shown
  })
}
