import { data, redirect } from 'react-router'
import { secretView, type RevealedSecret } from '~/components/orders/order-secret'
import {
  checkRefundNote,
  checkReply,
  confirmPaymentAndDeliver,
  deliverManually,
  describeActors,
  getAdminOrder,
  markRefunded,
  orderActions,
  replaceFromStock,
  replyToReport,
  resendDeliveryMail,
  type ActionResult,
} from '~/data/order-admin.server'
import { listOrderReports } from '~/data/order-report.server'
import { listOrderEvents } from '~/data/order.server'
import { getSiteSettings } from '~/data/settings.server'
import { parseManualSecret, revealOrderSecret, type StockSecret } from '~/data/stock.server'
import type { AuthUser } from '~/lib/auth.server'
import { SecretDecryptionError } from '~/lib/crypto.server'
import { shopDateTime } from '~/lib/date-format'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { formatRupees } from '~/lib/money'
import { resolvePaytmSetup } from '~/lib/payments/config.server'
import { flashHeaders } from '../products/flash.server'
import { orderPath } from './filters'

/**
 * The order page's data (everything about one order, dates in the shop's time zone, actors by
 * name) and its action: the recovery actions, each confirmed first (a dialog with JavaScript,
 * a second step on the page without), and the admin's reveal of the delivered item.
 */
export const ACTION_INTENTS = [
  'confirm',
  'deliver',
  'replace',
  'refund',
  'resend',
  'reply',
] as const
export type ActionIntent = (typeof ACTION_INTENTS)[number]
const isIntent = (value: string): value is ActionIntent =>
  (ACTION_INTENTS as readonly string[]).includes(value)

/** What the form fields may carry; each intent reads its own. */
export interface ActionValues {
  secret?: string
  note?: string
  reply?: string
  reason?: string
}

export type OrderActionData =
  | { intent: ActionIntent; step: 'confirm'; values: ActionValues }
  | {
      intent: ActionIntent
      step: 'error'
      field: keyof ActionValues
      error: string
      values: ActionValues
    }
  | { intent: 'reveal'; step: 'revealed'; secret: RevealedSecret }
  | { intent: 'reveal'; step: 'error'; error: string }

const DELIVERY_MODES: Record<string, string> = {
  stock: 'From stock (one item per order)',
  shared: 'Shared account (the same details for every buyer)',
  manual: 'By hand (an admin enters the details)',
}

/** Everything the order page shows, or null for an order that does not exist. */
export async function orderPageData(db: DB, env: Env, orderId: string) {
  const detail = await getAdminOrder(db, orderId)
  if (!detail) return null
  const { order, product, items } = detail
  const [events, reports, settings, paytm] = await Promise.all([
    listOrderEvents(db, order.id),
    listOrderReports(db, order.id),
    getSiteSettings(db),
    resolvePaytmSetup(db, env),
  ])
  const actors = await describeActors(db, [
    ...events.map((event) => event.actor),
    ...reports.flatMap((report) => [report.reportedBy, report.resolvedBy ?? '']).filter(Boolean),
    ...items.map((item) => item.addedBy),
    ...(order.userId ? [`user:${order.userId}`] : []),
  ])
  const format = shopDateTime(settings.timezone, { seconds: true })
  const when = (iso: string | null) => (iso ? format.format(new Date(iso)) : null)
  const manualItems = new Set(
    events.flatMap((event) => {
      const item = (event.data as { manualItemId?: unknown } | null)?.manualItemId
      return typeof item === 'string' ? [item] : []
    }),
  )
  const actions = orderActions(detail)
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
      account: order.userId ? (actors[`user:${order.userId}`] ?? null) : null,
      productName: order.productName,
      gateway: order.gateway,
      testMode: order.testMode,
      gatewayTxnId: order.gatewayTxnId,
      bankTxnId: order.bankTxnId,
      paymentMode: order.paymentMode,
      gatewayAnswer: order.gatewayStatus
        ? [order.gatewayStatus, order.gatewayRespCode, order.gatewayRespMsg]
            .filter(Boolean)
            .join(' · ')
        : null,
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
      by: manualItems.has(item.id) ? (actors[item.addedBy] ?? item.addedBy) : null,
      deliveredAt: when(item.deliveredAt),
      revokedAt: when(item.revokedAt),
      revokedReason: item.revokedReason,
    })),
    timeline: events.map((event) => ({
      id: event.id,
      at: when(event.createdAt)!,
      atIso: event.createdAt,
      type: event.type,
      message: event.message,
      actor: actors[event.actor] ?? event.actor,
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
      reportedBy: actors[report.reportedBy] ?? report.reportedBy,
      resolvedBy: report.resolvedBy ? (actors[report.resolvedBy] ?? report.resolvedBy) : null,
      resolvedAt: when(report.resolvedAt),
    })),
    actions,
    gatewayName: paytm
      ? paytm.source === 'simulator'
        ? 'the built-in Paytm simulator'
        : 'Paytm'
      : null,
  }
}

function readValues(form: FormData): ActionValues {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : undefined
  }
  return {
    secret: text('secret'),
    note: text('note'),
    reply: text('reply'),
    reason: text('reason'),
  }
}

/** The input's own problem, checked before asking for confirmation. */
function inputProblem(
  intent: ActionIntent,
  values: ActionValues,
): { field: keyof ActionValues; error: string } | null {
  if (intent === 'deliver') {
    const parsed = parseManualSecret(values.secret ?? '')
    return parsed.ok ? null : { field: 'secret', error: parsed.error }
  }
  if (intent === 'refund') {
    const error = checkRefundNote(values.note ?? '')
    return error ? { field: 'note', error } : null
  }
  if (intent === 'reply') {
    const error = checkReply(values.reply ?? '')
    return error ? { field: 'reply', error } : null
  }
  if (intent === 'replace' && (values.reason ?? '').trim().length > 500) {
    return { field: 'reason', error: 'Please keep the reason under 500 characters.' }
  }
  return null
}

async function run(
  db: DB,
  env: Env,
  intent: ActionIntent,
  orderId: string,
  actor: string,
  values: ActionValues,
): Promise<ActionResult> {
  switch (intent) {
    case 'confirm': {
      const setup = await resolvePaytmSetup(db, env)
      return confirmPaymentAndDeliver(db, { orderId, actor, gateway: setup?.config ?? null })
    }
    case 'deliver':
      return deliverManually(db, env.APP_SECRET, { orderId, secret: values.secret ?? '', actor })
    case 'replace':
      return replaceFromStock(db, { orderId, actor, reason: values.reason })
    case 'refund':
      return markRefunded(db, { orderId, note: values.note ?? '', actor })
    case 'resend':
      return resendDeliveryMail(db, { orderId, actor })
    case 'reply':
      return replyToReport(db, { orderId, reply: values.reply ?? '', actor })
  }
}

/**
 * One POST to the order page. Input problems come back with 400 and the typed text; an
 * unconfirmed action comes back as a confirmation step; a done (or refused) action redirects
 * to the page with a one-time message, so a reload never repeats it.
 */
export async function handleOrderAction(
  db: DB,
  env: Env,
  input: { orderId: string; user: AuthUser; form: FormData; ip: string },
) {
  const { orderId, user, form } = input
  const intent = String(form.get('intent') ?? '')
  const actor = `user:${user.id}`
  if (intent === 'reveal') {
    let secret: StockSecret | null
    try {
      secret = await revealOrderSecret(db, env.APP_SECRET, orderId, {
        actor,
        ip: input.ip,
        via: 'admin',
      })
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error
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
  if (!isIntent(intent)) throw data('Unknown action', { status: 400 })
  const values = readValues(form)
  const problem = inputProblem(intent, values)
  if (problem)
    return data<OrderActionData>({ intent, step: 'error', ...problem, values }, { status: 400 })
  if (form.get('confirmed') !== 'yes')
    return data<OrderActionData>({ intent, step: 'confirm', values })

  let result: ActionResult
  try {
    result = await run(db, env, intent, orderId, actor, values)
  } catch (error) {
    console.error(`[admin] order action ${intent} on ${orderId} failed:`, error)
    result = { ok: false, message: 'Something went wrong; nothing was changed. Please try again.' }
  }
  if (!result.ok && result.field) {
    return data<OrderActionData>(
      { intent, step: 'error', field: result.field, error: result.message, values },
      { status: 400 },
    )
  }
  throw redirect(orderPath(orderId), {
    headers: await flashHeaders(result.ok ? 'success' : 'error', result.message),
  })
}
