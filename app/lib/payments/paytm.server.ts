import crypto from 'node:crypto'
import { z } from 'zod'
import { gatewayFetch } from './http.server'
import { paiseToDecimalText, parseDecimalTextToPaise } from '../money'
import {
  GatewayRefusedError,
  GatewayUnreachableError,
  type GatewayOrder,
  type GatewayPaymentStatus,
  type GatewayRefund,
  type GatewayRefundQuery,
  type GatewayRefundRequest,
  type PaymentGateway,
} from './gateway.server'
import {
  PaytmChecksumError,
  generatePaytmChecksum,
  verifyPaytmChecksum,
} from './paytm-checksum.server'

/**
 * Paytm, the legacy redirect flow (PROTOCOLS.md §1): the signed form that sends the buyer to
 * Paytm, the callback Paytm sends back, and the server-to-server status check that decides.
 * No database here: callers store orders and decide what a result means for them.
 */

export interface PaytmConfig {
  /** Merchant id (at most 20 characters). */
  mid: string
  /** The 16-character merchant key; it signs everything and never leaves the server. */
  merchantKey: string
  /** WEBSTAGING on staging, DEFAULT (or as issued) in production. */
  website: string
  /** https://securegw-stage.paytm.in, https://securegw.paytm.in, or a simulator's base URL. */
  host: string
  /** Retail on staging. */
  industryType: string
  channel: 'WEB' | 'WAP'
}

/** The values Paytm's staging documentation asks for; production may issue others. */
export const PAYTM_STAGING_DEFAULTS = {
  website: 'WEBSTAGING',
  industryType: 'Retail',
  channel: 'WEB',
} as const satisfies Partial<PaytmConfig>

/** The only thing a buyer is told when a payment cannot be started. */
export const PAYTM_INITIATE_FAILED_MESSAGE = 'Failed to initiate payment. Please try again.'

/**
 * The payment cannot be started: a field breaks Paytm's rules or the key cannot sign.
 * `message` names the field for the log; show `userMessage` to the buyer.
 */
export class PaytmRequestError extends Error {
  override name = 'PaytmRequestError'
  readonly userMessage = PAYTM_INITIATE_FAILED_MESSAGE
  constructor(
    message: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** Neither status API answered usably; the caller keeps the order as it is and retries later. */
export class GatewayUnavailableError extends GatewayUnreachableError {
  override name = 'GatewayUnavailableError'
  constructor(readonly attempts: readonly StatusAttemptFailure[]) {
    super(
      `Paytm status APIs unavailable: ${attempts.map((a) => `${a.api} ${a.reason}`).join('; ')}`,
    )
  }
}

export interface StatusAttemptFailure {
  api: 'v3' | 'legacy'
  reason: string
}

function baseUrl(host: string): string {
  return host.replace(/\/+$/, '')
}

// ---------------------------------------------------------------------------------------------
// The form that sends the buyer to Paytm

export interface ProcessTransactionInput {
  orderId: string
  custId: string
  /** Integer paise, from our order record, never from a form. */
  amountPaise: number
  callbackUrl: string
  email?: string | null
  mobile?: string | null
}

// A type alias, not an interface, so the fields can be passed wherever a plain record of text is expected.
export type ProcessTransactionFields = {
  MID: string
  WEBSITE: string
  CHANNEL_ID: string
  INDUSTRY_TYPE_ID: string
  ORDER_ID: string
  CUST_ID: string
  TXN_AMOUNT: string
  CALLBACK_URL: string
  EMAIL?: string
  MOBILE_NO?: string
  CHECKSUMHASH: string
}

export interface ProcessTransactionForm {
  /** `${host}/theia/processTransaction`: the browser POSTs `fields` there. */
  action: string
  /** In the documented order; every one becomes a hidden input. */
  fields: ProcessTransactionFields
}

interface FieldRule {
  max: number
  pattern: RegExp
  describe: string
}

/** Limits and characters from PROTOCOLS.md; the patterns also keep out "|" and whitespace. */
const FIELD_RULES: Record<Exclude<keyof ProcessTransactionFields, 'CHECKSUMHASH'>, FieldRule> = {
  MID: { max: 20, pattern: /^[A-Za-z0-9]+$/, describe: 'letters and digits' },
  WEBSITE: { max: 30, pattern: /^[A-Za-z0-9_-]+$/, describe: 'letters, digits, _ and -' },
  CHANNEL_ID: { max: 3, pattern: /^(WEB|WAP)$/, describe: 'WEB or WAP' },
  INDUSTRY_TYPE_ID: { max: 20, pattern: /^[A-Za-z0-9_-]+$/, describe: 'letters, digits, _ and -' },
  ORDER_ID: { max: 50, pattern: /^[A-Za-z0-9@._-]+$/, describe: 'letters, digits and @ - _ .' },
  CUST_ID: { max: 64, pattern: /^[A-Za-z0-9@!_$.]+$/, describe: 'letters, digits and @ ! _ $ .' },
  TXN_AMOUNT: { max: 10, pattern: /^\d+\.\d{2}$/, describe: 'an amount like 1499.00' },
  CALLBACK_URL: { max: 255, pattern: /^https?:\/\/[^\s|"<>]+$/, describe: 'an http(s) URL' },
  EMAIL: { max: 50, pattern: /^[^\s@|]+@[^\s@|]+\.[^\s@|]+$/, describe: 'an e-mail address' },
  MOBILE_NO: { max: 15, pattern: /^\d{10,15}$/, describe: '10 to 15 digits' },
}

function checkField(name: keyof typeof FIELD_RULES, value: string): void {
  const rule = FIELD_RULES[name]
  // Paytm's own libraries turn "null" into "" (their checksum then differs from ours) and
  // reserve "|" as the separator and REFUND as a keyword; none of them may appear.
  if (value.toLowerCase() === 'null' || value.includes('|') || /refund/i.test(value)) {
    throw new PaytmRequestError(`Paytm ${name} contains text Paytm does not accept`, name)
  }
  if (value.length === 0 || value.length > rule.max || !rule.pattern.test(value)) {
    throw new PaytmRequestError(
      `Paytm ${name} must be ${rule.describe}, at most ${rule.max} characters`,
      name,
    )
  }
}

function presentText(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

/**
 * Builds the signed form for `{host}/theia/processTransaction`. Throws PaytmRequestError (and
 * signs nothing) when a value breaks Paytm's rules or the key cannot sign: there is no fallback.
 */
export function buildProcessTransactionForm(
  input: ProcessTransactionInput,
  config: PaytmConfig,
): ProcessTransactionForm {
  if (!Number.isSafeInteger(input.amountPaise) || input.amountPaise <= 0) {
    throw new PaytmRequestError(
      'Paytm TXN_AMOUNT must be a positive whole number of paise',
      'TXN_AMOUNT',
    )
  }
  const unsigned: Omit<ProcessTransactionFields, 'CHECKSUMHASH'> = {
    MID: config.mid,
    WEBSITE: config.website,
    CHANNEL_ID: config.channel,
    INDUSTRY_TYPE_ID: config.industryType,
    ORDER_ID: input.orderId,
    CUST_ID: input.custId,
    TXN_AMOUNT: paiseToDecimalText(input.amountPaise),
    CALLBACK_URL: input.callbackUrl,
  }
  const email = presentText(input.email)
  const mobile = presentText(input.mobile)
  if (email !== undefined) unsigned.EMAIL = email
  if (mobile !== undefined) unsigned.MOBILE_NO = mobile
  for (const [name, value] of Object.entries(unsigned)) {
    checkField(name as keyof typeof FIELD_RULES, value)
  }
  let checksum: string
  try {
    checksum = generatePaytmChecksum({ ...unsigned }, config.merchantKey)
  } catch (error) {
    const why = error instanceof PaytmChecksumError ? error.message : 'signing failed'
    throw new PaytmRequestError(`Cannot sign the Paytm request: ${why}`, 'CHECKSUMHASH', {
      cause: error,
    })
  }
  return {
    action: `${baseUrl(config.host)}/theia/processTransaction`,
    fields: { ...unsigned, CHECKSUMHASH: checksum },
  }
}

// ---------------------------------------------------------------------------------------------
// Amounts

/** Paytm's amount text ("1499.00") as integer paise, exactly; null when it is not such text. */
export function parsePaytmAmount(text: string): number | null {
  return parseDecimalTextToPaise(text)
}

// ---------------------------------------------------------------------------------------------
// The callback (browser POST from Paytm)

export type PaytmTxnStatus = 'TXN_SUCCESS' | 'TXN_FAILURE' | 'PENDING'

export interface PaytmCallback {
  mid: string
  orderId: string
  /** Paytm's transaction id; null when Paytm did not create one (e.g. a refused request). */
  txnId: string | null
  bankTxnId: string | null
  /** Exact paise of TXNAMOUNT; null when absent (it is always present on success). */
  amountPaise: number | null
  status: PaytmTxnStatus
  respCode: string
  respMsg: string
  txnDate: string | null
  gatewayName: string | null
  bankName: string | null
  paymentMode: string | null
  /** Everything received, CHECKSUMHASH included, for the order timeline. */
  fields: Readonly<Record<string, string>>
}

export type PaytmCallbackRejection =
  'missing-checksum' | 'invalid-checksum' | 'malformed' | 'wrong-merchant'

export type PaytmCallbackResult =
  | { ok: true; callback: PaytmCallback }
  /** `claimedOrderId` is unverified: only for logs, never for changing an order. */
  | { ok: false; reason: PaytmCallbackRejection; claimedOrderId: string | null }

export type CallbackFields = URLSearchParams | FormData | Readonly<Record<string, string>>

function emptyToNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value
}

const callbackSchema = z.object({
  MID: z.string().min(1),
  ORDERID: z.string().min(1),
  STATUS: z.enum(['TXN_SUCCESS', 'TXN_FAILURE', 'PENDING']),
  RESPCODE: z.string().min(1),
  RESPMSG: z.string().default(''),
  TXNID: z.string().optional(),
  BANKTXNID: z.string().optional(),
  TXNAMOUNT: z.string().optional(),
  CURRENCY: z.enum(['INR', '']).optional(),
  TXNDATE: z.string().optional(),
  GATEWAYNAME: z.string().optional(),
  BANKNAME: z.string().optional(),
  PAYMENTMODE: z.string().optional(),
})

/** One value per name, text only; null when a name repeats or a value is a file. */
function toRecord(fields: CallbackFields): Record<string, string> | null {
  const record: Record<string, string> = Object.create(null) as Record<string, string>
  const entries: Iterable<[string, unknown]> =
    fields instanceof URLSearchParams || fields instanceof FormData
      ? fields.entries()
      : Object.entries(fields)
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || Object.hasOwn(record, name)) return null
    record[name] = value
  }
  return record
}

/**
 * Checks a callback's CHECKSUMHASH over every other received field, then its shape. A verified
 * callback proves only what Paytm told the browser: confirm with fetchOrderStatus before
 * marking anything paid. Pass `expectedMid` to refuse callbacks for another merchant.
 */
export function verifyCallback(
  formFields: CallbackFields,
  merchantKey: string,
  options: { expectedMid?: string } = {},
): PaytmCallbackResult {
  const fields = toRecord(formFields)
  const claimedOrderId = fields?.ORDERID ?? null
  if (!fields) return { ok: false, reason: 'malformed', claimedOrderId }
  const checksum = fields.CHECKSUMHASH
  if (!checksum) return { ok: false, reason: 'missing-checksum', claimedOrderId }
  if (!verifyPaytmChecksum(fields, merchantKey, checksum)) {
    return { ok: false, reason: 'invalid-checksum', claimedOrderId }
  }
  const parsed = callbackSchema.safeParse(fields)
  if (!parsed.success) return { ok: false, reason: 'malformed', claimedOrderId }
  const data = parsed.data
  if (options.expectedMid !== undefined && data.MID !== options.expectedMid) {
    return { ok: false, reason: 'wrong-merchant', claimedOrderId }
  }
  const amountPaise = data.TXNAMOUNT ? parsePaytmAmount(data.TXNAMOUNT) : null
  if (
    (data.TXNAMOUNT && amountPaise === null) ||
    (data.STATUS === 'TXN_SUCCESS' && amountPaise === null)
  ) {
    return { ok: false, reason: 'malformed', claimedOrderId }
  }
  return {
    ok: true,
    callback: {
      mid: data.MID,
      orderId: data.ORDERID,
      txnId: emptyToNull(data.TXNID),
      bankTxnId: emptyToNull(data.BANKTXNID),
      amountPaise,
      status: data.STATUS,
      respCode: data.RESPCODE,
      respMsg: data.RESPMSG,
      txnDate: emptyToNull(data.TXNDATE),
      gatewayName: emptyToNull(data.GATEWAYNAME),
      bankName: emptyToNull(data.BANKNAME),
      paymentMode: emptyToNull(data.PAYMENTMODE),
      fields: { ...fields },
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Status APIs (server to server)

export interface PaytmOrderStatus {
  /**
   * UNKNOWN when Paytm's answer says nothing about a payment: an order it never saw (334),
   * a refused request (330, 335), a system error (501) or a status we do not recognise.
   * Only TXN_SUCCESS and TXN_FAILURE are final.
   */
  status: PaytmTxnStatus | 'UNKNOWN'
  orderId: string
  txnId: string | null
  bankTxnId: string | null
  /** Exact paise of the amount Paytm holds for the order; compare it with ours. */
  amountPaise: number | null
  respCode: string
  respMsg: string
  paymentMode: string | null
  /** Which API answered: v3 normally, legacy when v3 could not be used. */
  source: 'v3' | 'legacy'
  raw: unknown
}

export interface FetchOrderStatusOptions {
  fetch?: typeof globalThis.fetch
  /** Per API call; the legacy fallback gets its own budget. */
  timeoutMs?: number
}

const RESPONSE_CODES_WITHOUT_A_PAYMENT = new Set(['330', '334', '335', '501'])

const text = z.union([z.string(), z.number()]).transform(String)
const optionalTextField = text.optional()

const v3ResponseSchema = z.object({
  body: z.looseObject({
    resultInfo: z.looseObject({
      resultStatus: text,
      resultCode: text,
      resultMsg: text.default(''),
    }),
    txnId: optionalTextField,
    bankTxnId: optionalTextField,
    orderId: optionalTextField,
    txnAmount: optionalTextField,
    paymentMode: optionalTextField,
    mid: optionalTextField,
  }),
})

const legacyResponseSchema = z.looseObject({
  STATUS: text,
  RESPCODE: text,
  RESPMSG: text.default(''),
  TXNID: optionalTextField,
  BANKTXNID: optionalTextField,
  ORDERID: optionalTextField,
  TXNAMOUNT: optionalTextField,
  PAYMENTMODE: optionalTextField,
  MID: optionalTextField,
})

interface Answer {
  resultStatus: string
  code: string
  message: string
  txnId?: string
  bankTxnId?: string
  orderId?: string
  amount?: string
  paymentMode?: string
  mid?: string
}

class AttemptFailed extends Error {}

function normalize(
  answer: Answer,
  orderId: string,
  config: PaytmConfig,
  source: PaytmOrderStatus['source'],
  raw: unknown,
): PaytmOrderStatus {
  // An answer about another order or merchant is not an answer about ours.
  if (answer.orderId && answer.orderId !== orderId)
    throw new AttemptFailed('answered for another order')
  if (answer.mid && answer.mid !== config.mid)
    throw new AttemptFailed('answered for another merchant')
  const known =
    answer.resultStatus === 'TXN_SUCCESS' ||
    answer.resultStatus === 'TXN_FAILURE' ||
    answer.resultStatus === 'PENDING'
  const status: PaytmOrderStatus['status'] =
    known && !RESPONSE_CODES_WITHOUT_A_PAYMENT.has(answer.code)
      ? (answer.resultStatus as PaytmTxnStatus)
      : 'UNKNOWN'
  const amountPaise = answer.amount ? parsePaytmAmount(answer.amount) : null
  if (status === 'TXN_SUCCESS' && amountPaise === null)
    throw new AttemptFailed('success without a readable amount')
  return {
    status,
    orderId,
    txnId: emptyToNull(answer.txnId),
    bankTxnId: emptyToNull(answer.bankTxnId),
    amountPaise,
    respCode: answer.code,
    respMsg: answer.message,
    paymentMode: emptyToNull(answer.paymentMode),
    source,
    raw,
  }
}

async function postJson(
  url: string,
  body: string,
  fetchImpl: typeof globalThis.fetch,
  timeoutMs: number,
): Promise<unknown> {
  let response: Response
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body,
      signal,
    })
  } catch (error) {
    throw new AttemptFailed(
      signal.aborted ? `timed out after ${timeoutMs} ms` : `network error (${describe(error)})`,
    )
  }
  let responseText: string
  try {
    responseText = await response.text()
  } catch (error) {
    throw new AttemptFailed(
      signal.aborted ? `timed out after ${timeoutMs} ms` : `broken response (${describe(error)})`,
    )
  }
  if (!response.ok) throw new AttemptFailed(`HTTP ${response.status}`)
  try {
    return JSON.parse(responseText) as unknown
  } catch {
    throw new AttemptFailed('not JSON')
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return `${error.message}${cause}`
  }
  return String(error)
}

async function fetchV3(
  orderId: string,
  config: PaytmConfig,
  fetchImpl: typeof globalThis.fetch,
  timeoutMs: number,
): Promise<PaytmOrderStatus> {
  // The signature covers these exact bytes, so the request is assembled around them
  // rather than re-serialised.
  const body = JSON.stringify({ mid: config.mid, orderId })
  const signature = generatePaytmChecksum(body, config.merchantKey)
  const request = `{"body":${body},"head":${JSON.stringify({ signature })}}`
  const raw = await postJson(
    `${baseUrl(config.host)}/v3/order/status`,
    request,
    fetchImpl,
    timeoutMs,
  )
  const parsed = v3ResponseSchema.safeParse(raw)
  if (!parsed.success) throw new AttemptFailed('unexpected response shape')
  const answer = parsed.data.body
  return normalize(
    {
      resultStatus: answer.resultInfo.resultStatus,
      code: answer.resultInfo.resultCode,
      message: answer.resultInfo.resultMsg,
      txnId: answer.txnId,
      bankTxnId: answer.bankTxnId,
      orderId: answer.orderId,
      amount: answer.txnAmount,
      paymentMode: answer.paymentMode,
      mid: answer.mid,
    },
    orderId,
    config,
    'v3',
    raw,
  )
}

async function fetchLegacy(
  orderId: string,
  config: PaytmConfig,
  fetchImpl: typeof globalThis.fetch,
  timeoutMs: number,
): Promise<PaytmOrderStatus> {
  const params = { MID: config.mid, ORDERID: orderId }
  const request = JSON.stringify({
    ...params,
    CHECKSUMHASH: generatePaytmChecksum(params, config.merchantKey),
  })
  const raw = await postJson(`${baseUrl(config.host)}/order/status`, request, fetchImpl, timeoutMs)
  const parsed = legacyResponseSchema.safeParse(raw)
  if (!parsed.success) throw new AttemptFailed('unexpected response shape')
  const answer = parsed.data
  return normalize(
    {
      resultStatus: answer.STATUS,
      code: answer.RESPCODE,
      message: answer.RESPMSG,
      txnId: answer.TXNID,
      bankTxnId: answer.BANKTXNID,
      orderId: answer.ORDERID,
      amount: answer.TXNAMOUNT,
      paymentMode: answer.PAYMENTMODE,
      mid: answer.MID,
    },
    orderId,
    config,
    'legacy',
    raw,
  )
}

/**
 * Asks Paytm, server to server, what happened to an order: v3 `/v3/order/status` first, the
 * legacy `/order/status` when v3 cannot be used (unreachable, timeout, not JSON, 404 or another
 * HTTP error, an answer of the wrong shape). Throws GatewayUnavailableError when neither answers;
 * PaytmChecksumError when the key cannot sign. The caller still compares `amountPaise` with its
 * own record.
 */
export async function fetchOrderStatus(
  orderId: string,
  config: PaytmConfig,
  options: FetchOrderStatusOptions = {},
): Promise<PaytmOrderStatus> {
  const fetchImpl = options.fetch ?? gatewayFetch
  const timeoutMs = options.timeoutMs ?? 10_000
  const attempts: StatusAttemptFailure[] = []
  for (const [api, attempt] of [
    ['v3', fetchV3],
    ['legacy', fetchLegacy],
  ] as const) {
    try {
      return await attempt(orderId, config, fetchImpl, timeoutMs)
    } catch (error) {
      if (!(error instanceof AttemptFailed)) throw error
      attempts.push({ api, reason: error.message })
    }
  }
  throw new GatewayUnavailableError(attempts)
}

// ---------------------------------------------------------------------------------------------
// Refunds (server to server)

/** Paytm's REFUND keyword and "|" may not appear in a signed value; our refund ids never carry them. */
const REFUND_ID_PATTERN = /^[A-Za-z0-9_-]{1,50}$/

const refundResponseSchema = z.object({
  body: z.looseObject({
    resultInfo: z.looseObject({
      resultStatus: text,
      resultCode: text,
      resultMsg: text.default(''),
    }),
    orderId: optionalTextField,
    refId: optionalTextField,
    refundId: optionalTextField,
    refundAmount: optionalTextField,
    mid: optionalTextField,
  }),
})

export interface PaytmRefundAnswer {
  /** processed: money sent back; pending: accepted, not final; failed: refused or failed. */
  status: 'processed' | 'pending' | 'failed' | 'unknown'
  refundId: string | null
  amountPaise: number | null
  resultStatus: string
  resultCode: string
  resultMsg: string
}

/** Refund status codes that mean Paytm holds no refund under this refId (not yet received). */
const REFUND_NOT_FOUND_CODES = new Set(['631', '632'])

/** A signed `{body, head:{signature}}` request, as the v3 status API takes it. */
async function signedCall(
  path: string,
  body: Record<string, string>,
  config: PaytmConfig,
  options: FetchOrderStatusOptions,
): Promise<z.infer<typeof refundResponseSchema>['body']> {
  const bodyText = JSON.stringify(body)
  const signature = generatePaytmChecksum(bodyText, config.merchantKey)
  const request = `{"body":${bodyText},"head":${JSON.stringify({ signature })}}`
  let raw: unknown
  try {
    raw = await postJson(
      `${baseUrl(config.host)}${path}`,
      request,
      options.fetch ?? gatewayFetch,
      options.timeoutMs ?? 10_000,
    )
  } catch (error) {
    if (!(error instanceof AttemptFailed)) throw error
    throw new GatewayUnreachableError(`Paytm ${path}: ${error.message}`)
  }
  const parsed = refundResponseSchema.safeParse(raw)
  if (!parsed.success) throw new GatewayUnreachableError(`Paytm ${path}: unexpected answer`)
  const answer = parsed.data.body
  if (answer.orderId && answer.orderId !== body.orderId)
    throw new GatewayUnreachableError(`Paytm ${path}: answered for another order`)
  if (answer.mid && answer.mid !== config.mid)
    throw new GatewayUnreachableError(`Paytm ${path}: answered for another merchant`)
  return answer
}

function refundAnswer(
  answer: z.infer<typeof refundResponseSchema>['body'],
  status: PaytmRefundAnswer['status'],
): PaytmRefundAnswer {
  return {
    status,
    refundId: emptyToNull(answer.refundId),
    amountPaise: answer.refundAmount ? parsePaytmAmount(answer.refundAmount) : null,
    resultStatus: answer.resultInfo.resultStatus,
    resultCode: answer.resultInfo.resultCode,
    resultMsg: answer.resultInfo.resultMsg,
  }
}

/**
 * Paytm's refund API: POST `{host}/refund/apply` with `{body:{mid, txnType:"REFUND", orderId,
 * txnId, refId, refundAmount}, head:{signature}}`, the signature over the exact body text.
 * `refId` is ours and unique per refund: Paytm accepts one refund per refId, so asking again
 * with the same refId never refunds twice. PENDING (601) means accepted; anything else is a
 * refusal, thrown as GatewayRefusedError with Paytm's message.
 */
export async function applyPaytmRefund(
  request: { orderId: string; txnId: string; refId: string; amountPaise: number },
  config: PaytmConfig,
  options: FetchOrderStatusOptions = {},
): Promise<PaytmRefundAnswer> {
  if (!Number.isSafeInteger(request.amountPaise) || request.amountPaise <= 0)
    throw new GatewayRefusedError('Paytm refunds need a positive amount', 400)
  if (!REFUND_ID_PATTERN.test(request.refId) || /refund/i.test(request.refId))
    throw new GatewayRefusedError('Not a refund reference Paytm accepts', 400)
  const answer = await signedCall(
    '/refund/apply',
    {
      mid: config.mid,
      txnType: 'REFUND',
      orderId: request.orderId,
      txnId: request.txnId,
      refId: request.refId,
      refundAmount: paiseToDecimalText(request.amountPaise),
    },
    config,
    options,
  )
  const status = answer.resultInfo.resultStatus
  if (status === 'PENDING' || status === 'TXN_SUCCESS')
    return refundAnswer(answer, status === 'PENDING' ? 'pending' : 'processed')
  throw new GatewayRefusedError(
    `Paytm refused the refund: ${answer.resultInfo.resultMsg || answer.resultInfo.resultCode} (${answer.resultInfo.resultCode})`,
    400,
  )
}

/**
 * Paytm's refund status API: POST `{host}/v2/refund/status` with `{body:{mid, orderId, refId},
 * head:{signature}}`. TXN_SUCCESS: refunded; PENDING: not final; TXN_FAILURE: failed; an
 * unknown refId (631) is 'unknown'.
 */
export async function fetchPaytmRefundStatus(
  request: { orderId: string; refId: string },
  config: PaytmConfig,
  options: FetchOrderStatusOptions = {},
): Promise<PaytmRefundAnswer> {
  const answer = await signedCall(
    '/v2/refund/status',
    { mid: config.mid, orderId: request.orderId, refId: request.refId },
    config,
    options,
  )
  const { resultStatus, resultCode } = answer.resultInfo
  const status: PaytmRefundAnswer['status'] = REFUND_NOT_FOUND_CODES.has(resultCode)
    ? 'unknown'
    : resultStatus === 'TXN_SUCCESS'
      ? 'processed'
      : resultStatus === 'PENDING'
        ? 'pending'
        : resultStatus === 'TXN_FAILURE'
          ? 'failed'
          : 'unknown'
  return refundAnswer(answer, status)
}

// ---------------------------------------------------------------------------------------------
// The gateway

/**
 * Paytm's CUST_ID (letters, digits and @ ! _ $ . only): the account's id, or for a guest a keyed
 * hash of the e-mail address (under the merchant key), the same for each of their orders. Not a
 * plain hash: the form carrying it reaches the browser of whoever presses Pay, which for a
 * payment link may be someone shown the address only masked, who could test guesses of it
 * against a plain hash (docs/payments.md, "Payment links").
 */
export function paytmCustomerId(
  userId: string | null | undefined,
  email: string,
  merchantKey: string,
): string {
  if (userId && /^[A-Za-z0-9]{1,60}$/.test(userId)) return `USR_${userId}`
  const hash = crypto
    .createHmac('sha256', merchantKey)
    .update(`paytm customer id\0${email.toLowerCase()}`, 'utf8')
    .digest('hex')
  return `CUST_${hash.slice(0, 24)}`
}

/** EMAIL is optional for Paytm: an address its rules refuse (over 50 characters, say) is left out rather than failing the payment. */
export function paytmEmail(email: string): string | null {
  return email.length <= 50 && /^[^\s@|]+@[^\s@|]+\.[^\s@|]+$/.test(email) && !/refund/i.test(email)
    ? email
    : null
}

/** What a status API answer means in the terms every gateway shares. */
export function paymentStatusOf(status: PaytmOrderStatus): GatewayPaymentStatus {
  return {
    state:
      status.status === 'TXN_SUCCESS'
        ? 'paid'
        : status.status === 'TXN_FAILURE'
          ? 'failed'
          : status.status === 'PENDING'
            ? 'pending'
            : 'unknown',
    txnId: status.txnId,
    bankTxnId: status.bankTxnId,
    amountPaise: status.amountPaise,
    paymentMode: status.paymentMode,
    status: status.status,
    respCode: status.respCode,
    respMsg: status.respMsg,
  }
}

function gatewayRefundOf(answer: PaytmRefundAnswer, fallbackAmount: number): GatewayRefund {
  return {
    refundId: answer.refundId,
    status: answer.status === 'unknown' ? 'pending' : answer.status,
    amountPaise: answer.amountPaise ?? fallbackAmount,
    message: answer.resultMsg,
  }
}

/**
 * Paytm as a PaymentGateway (app/lib/payments/gateway.server.ts): the signed form, the verified
 * callback, the status APIs and the refund APIs. Paytm's legacy flow sends no webhooks here.
 */
export function paytmGateway(
  config: PaytmConfig,
  settings: { callbackUrl: string },
  options: FetchOrderStatusOptions = {},
): PaymentGateway<ProcessTransactionForm, PaytmCallback, never> {
  return {
    id: 'paytm',
    async startPayment(order: GatewayOrder) {
      return buildProcessTransactionForm(
        {
          orderId: order.id,
          custId: paytmCustomerId(order.userId, order.customerEmail, config.merchantKey),
          amountPaise: order.amountPaise,
          callbackUrl: settings.callbackUrl,
          email: paytmEmail(order.customerEmail),
          mobile: order.customerPhone,
        },
        config,
      )
    },
    verifyReturn(fields, order) {
      const verified = verifyCallback(fields, config.merchantKey, { expectedMid: config.mid })
      if (!verified.ok) return { ok: false, reason: verified.reason }
      if (verified.callback.orderId !== order.id) return { ok: false, reason: 'other-order' }
      return { ok: true, value: verified.callback }
    },
    verifyWebhook() {
      return { ok: false, reason: 'unsupported' }
    },
    async queryStatus(order) {
      return paymentStatusOf(await fetchOrderStatus(order.id, config, options))
    },
    async refund(request: GatewayRefundRequest) {
      const answer = await applyPaytmRefund(
        {
          orderId: request.order.id,
          txnId: request.paymentId,
          refId: request.refundId,
          amountPaise: request.amountPaise,
        },
        config,
        options,
      )
      return gatewayRefundOf(answer, request.amountPaise)
    },
    async refundStatus(query: GatewayRefundQuery) {
      const answer = await fetchPaytmRefundStatus(
        { orderId: query.order.id, refId: query.refundId },
        config,
        options,
      )
      return answer.status === 'unknown' ? null : gatewayRefundOf(answer, query.amountPaise)
    },
  }
}
