import { readGatewayToken, writeGatewayToken } from '~/data/gateway-token.server'
import { getOrder, type Order, type OrderStatus } from '~/data/order.server'
import { decryptSecret, encryptSecret, SecretDecryptionError } from '~/lib/crypto.server'
import { cachedUpTo } from '~/lib/bounded-cache'
import type { DB } from '~/lib/db.server'
import { GatewayUnreachableError } from '~/lib/payments/gateway.server'
import {
  MERCHANT_ID_PATTERN,
  phonePeGateway,
  phonePeTokenProvider,
  tokenCacheKey,
  verifyPhonePeWebhook,
  type PhonePeConfig,
  type PhonePeRequestOptions,
  type PhonePeTokenProvider,
  type PhonePeTokenStore,
  type PhonePeWebhookRejection,
} from '~/lib/payments/phonepe.server'
import {
  answeredFromRecord,
  applyGatewayStatus,
  applyReturnStatus,
  confirmReturn,
  gatewayOrderOf,
  isSettled,
  mayAskOnReturn,
  scheduleGatewayCheck,
  startGatewayCheckout,
  type ReconcilingGateway,
} from './gateway-flow.server'
import type { PaymentOutcome, StartCheckoutInput } from './paytm-flow.server'
import type { PhonePeSetup } from './phonepe-config.server'

/**
 * PhonePe Standard Checkout v2 on the shared payment workflow (docs/payments.md, "PhonePe"):
 *
 *   checkout   our order (price from the database) and its reconciliation job in one
 *              transaction, then checkout/v2/pay (amount in paise from the order row,
 *              merchantOrderId = our order id); the buyer is sent to PhonePe's redirectUrl. If
 *              PhonePe cannot be reached, our order is failed and the next gateway offered.
 *   return     PhonePe sends the buyer back to /api/payments/phonepe/return?order=...: nothing
 *              in it is signed, so it only makes us ask the status API, which alone decides.
 *   webhook    authorised by the Authorization header (SHA-256 of "username:password"), which
 *              proves the sender but not the body: every event is confirmed with the status API
 *              and applied through the same compare-and-set transitions, so duplicates and
 *              out-of-order events change an order once.
 */

export interface PhonePeFlowOptions extends PhonePeRequestOptions {
  now?: () => Date
  log?: (line: string) => void
  /** Where tokens are shared; the database (encrypted with APP_SECRET) unless given. */
  tokenStore?: PhonePeTokenStore
}

const defaultLog = (line: string) => console.log(line)

/** Tokens in the gateway_token table, encrypted under a key derived from APP_SECRET. */
export function databaseTokenStore(db: DB, appSecret: string): PhonePeTokenStore {
  const context = (key: string) => `gateway_token:${key}`
  return {
    async read(key) {
      const row = await readGatewayToken(db, key)
      if (!row) return null
      try {
        return {
          accessToken: decryptSecret(row.token, appSecret, context(key)),
          tokenType: row.tokenType,
          issuedAt: Math.floor(Date.parse(row.issuedAt) / 1000),
          expiresAt: Math.floor(Date.parse(row.expiresAt) / 1000),
        }
      } catch (error) {
        // Written under another APP_SECRET: fetch a new one.
        if (error instanceof SecretDecryptionError) return null
        throw error
      }
    },
    async write(key, token) {
      await writeGatewayToken(db, key, 'phonepe', {
        token: encryptSecret(token.accessToken, appSecret, context(key)),
        tokenType: token.tokenType,
        issuedAt: new Date(token.issuedAt * 1000).toISOString(),
        expiresAt: new Date(token.expiresAt * 1000).toISOString(),
      })
    },
  }
}

/** One provider per set of credentials in this process, so concurrent requests share a fetch. */
const providers = new Map<string, PhonePeTokenProvider>()

function tokensFor(
  db: DB,
  config: PhonePeConfig,
  appSecret: string,
  options: PhonePeFlowOptions,
): PhonePeTokenProvider {
  const requestOptions = { fetch: options.fetch, timeoutMs: options.timeoutMs, now: options.now }
  if (options.tokenStore || options.fetch)
    return phonePeTokenProvider(
      config,
      options.tokenStore ?? databaseTokenStore(db, appSecret),
      requestOptions,
    )
  return cachedUpTo(providers, 20, tokenCacheKey(config), () =>
    phonePeTokenProvider(config, databaseTokenStore(db, appSecret), requestOptions),
  )
}

export function phonePeClient(
  db: DB,
  setup: PhonePeSetup,
  appSecret: string,
  options: PhonePeFlowOptions = {},
) {
  return phonePeGateway(
    setup.config,
    {
      returnUrl: setup.returnUrl,
      tokens: tokensFor(db, setup.config, appSecret, options),
    },
    { fetch: options.fetch, timeoutMs: options.timeoutMs },
  )
}

/** The job's view of PhonePe: its order status API. */
export function phonePeReconciler(
  db: DB,
  setup: PhonePeSetup,
  appSecret: string,
  options: PhonePeFlowOptions = {},
): ReconcilingGateway {
  const client = phonePeClient(db, setup, appSecret, options)
  return { testMode: setup.testMode, queryStatus: (order) => client.queryStatus(order) }
}

export interface StartedPhonePeCheckout {
  order: Order
  accessToken: string
  /** PhonePe's payment page for this order. */
  redirectUrl: string
}

export async function startPhonePeCheckout(
  db: DB,
  setup: PhonePeSetup,
  appSecret: string,
  input: StartCheckoutInput,
  options: PhonePeFlowOptions = {},
): Promise<StartedPhonePeCheckout> {
  const client = phonePeClient(db, setup, appSecret, options)
  const { order, accessToken, started } = await startGatewayCheckout(
    db,
    { id: 'phonepe', testMode: setup.testMode },
    input,
    async (gatewayOrder) => {
      const payment = await client.startPayment(gatewayOrder)
      return { ...payment, gatewayOrderId: payment.phonePeOrderId }
    },
    options,
  )
  return { order, accessToken, redirectUrl: started.redirectUrl }
}

/** Our PhonePe order of this mode (the simulator decides only test orders, and vice versa). */
async function phonePeOrder(
  db: DB,
  setup: PhonePeSetup,
  merchantOrderId: string,
): Promise<Order | null> {
  if (!MERCHANT_ID_PATTERN.test(merchantOrderId)) return null
  const order = await getOrder(db, merchantOrderId)
  if (!order || order.gateway !== 'phonepe' || order.testMode !== setup.testMode) return null
  return order
}

export type PhonePeReturnResult =
  | { kind: 'unknown-order' }
  | { kind: 'handled'; orderId: string; outcome: PaymentOutcome; status: OrderStatus }

/**
 * The buyer's browser back from PhonePe. Nothing it carries is trusted: an unsettled order is
 * looked up with the status API (at most every few seconds), and the answer decides. Never
 * throws for anything in the request.
 */
export async function handlePhonePeReturn(
  db: DB,
  setup: PhonePeSetup,
  appSecret: string,
  merchantOrderId: string,
  options: PhonePeFlowOptions = {},
): Promise<PhonePeReturnResult> {
  const log = options.log ?? defaultLog
  const now = options.now?.() ?? new Date()
  const order = await phonePeOrder(db, setup, merchantOrderId)
  if (!order) return { kind: 'unknown-order' }
  const unchanged = { kind: 'handled', orderId: order.id, outcome: 'unchanged' } as const
  if (isSettled(order.status)) return { ...unchanged, status: order.status }
  // Every unsettled order (pending, and failed or expired ones a late payment may still pay):
  // the URL is unsigned, so reloading or replaying it must not call PhonePe each time.
  if (!(await mayAskOnReturn(db, order, now))) return answeredFromRecord(db, order)
  return confirmReturn(db, order, now, log, async () => {
    const client = phonePeClient(db, setup, appSecret, options)
    return applyReturnStatus(db, order, await client.queryStatus(gatewayOrderOf(order)), now)
  })
}

export type PhonePeWebhookResult =
  /** Refused: nothing written. */
  | { kind: 'rejected'; reason: PhonePeWebhookRejection }
  | { kind: 'unknown-order' }
  /** The status API could not be asked: answered 503 so PhonePe delivers again; a check is due. */
  | { kind: 'unconfirmed'; orderId: string }
  | { kind: 'handled'; orderId: string; outcome: PaymentOutcome }

/**
 * One webhook delivery. The header proves PhonePe sent it, but the body is not signed, so the
 * order's state comes from the status API; the event's own claim is only logged.
 */
export async function handlePhonePeWebhook(
  db: DB,
  setup: PhonePeSetup,
  appSecret: string,
  rawBody: string,
  headers: Headers,
  options: PhonePeFlowOptions = {},
): Promise<PhonePeWebhookResult> {
  const log = options.log ?? defaultLog
  const now = options.now?.() ?? new Date()
  const verified = verifyPhonePeWebhook(rawBody, headers, {
    username: setup.config.webhookUsername,
    password: setup.config.webhookPassword,
  })
  if (!verified.ok) {
    if (verified.reason !== 'ignored-event')
      log(`[payments] refused a PhonePe webhook (${verified.reason})`)
    return { kind: 'rejected', reason: verified.reason }
  }
  const event = verified.value
  const order = await phonePeOrder(db, setup, event.merchantOrderId)
  if (!order) {
    log(`[payments] PhonePe ${event.event} for an order we do not have: ${event.merchantOrderId}`)
    return { kind: 'unknown-order' }
  }
  if (isSettled(order.status)) return { kind: 'handled', orderId: order.id, outcome: 'unchanged' }
  try {
    const status = await phonePeClient(db, setup, appSecret, options).queryStatus(
      gatewayOrderOf(order),
    )
    // The latest state of the order: deliveries arrive in any order and concurrently.
    const current = (await getOrder(db, order.id)) ?? order
    const decision = await applyGatewayStatus(db, current, status, `webhook ${event.event}`, now)
    if (decision.status === 'pending') await scheduleGatewayCheck(db, order.id, now)
    return { kind: 'handled', orderId: order.id, outcome: decision.outcome }
  } catch (error) {
    if (!(error instanceof GatewayUnreachableError)) throw error
    log(`[payments] ${order.id}: PhonePe webhook not confirmed, ${error.message}`)
    await scheduleGatewayCheck(db, order.id, now)
    return { kind: 'unconfirmed', orderId: order.id }
  }
}
