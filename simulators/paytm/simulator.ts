import crypto from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'
import { paiseToDecimalText, parseDecimalTextToPaise } from '../../app/lib/money'
import {
  generatePaytmChecksum,
  verifyPaytmChecksum,
} from '../../app/lib/payments/paytm-checksum.server'
import {
  HttpError,
  mediaType,
  newNonce,
  parseForm,
  parseJson,
  rawJsonMember,
  readBody,
  sendHtml,
  sendJson,
  sendText,
} from './http'
import type { NodeHandler } from '../kit'
import { callbackPage, messagePage, paymentPage } from './pages'
import {
  RESPONSES,
  TransactionStore,
  applyOutcome,
  gatewayOf,
  newRefundId,
  newTxnId,
  refundedPaise,
  paytmDate,
  snapshot,
  type FinalOrPending,
  type PaymentMode,
  type SimTransaction,
} from './transactions'

/**
 * A local Paytm that speaks the legacy redirect flow and both status APIs (PROTOCOLS.md §1),
 * so the real integration code can be exercised without reaching Paytm. See README.md.
 */

/** The merchant the standalone simulator accepts unless told otherwise (the fixture's test values). */
export const PAYTM_SIMULATOR_DEFAULT_MID = 'SIMMID12345678901234'
export const PAYTM_SIMULATOR_DEFAULT_KEY = 'aB3#kL9@xY2&mN5!'

export interface PaytmSimulatorOptions {
  /** The merchant key for a MID, or undefined for a merchant this simulator does not know. */
  resolveMerchantKey(mid: string): string | undefined
  /**
   * The path the simulator is served under when it sees full request paths (http.createServer).
   * Under express `app.use(basePath, handler)` express strips it and this may be left out.
   */
  basePath?: string
  /** How long a transaction left pending waits before the status APIs report success (default 5000). */
  settlePendingAfterMs?: number
  /** How long a refund stays PENDING before its status says TXN_SUCCESS (default 0: at the first status request). */
  settleRefundAfterMs?: number
  /** Serve the /__control test endpoints (default true). */
  control?: boolean
  /** The clock, for tests. */
  now?: () => number
}

export type { NodeHandler }

const OUTCOMES: Record<string, FinalOrPending> = {
  success: 'TXN_SUCCESS',
  failure: 'TXN_FAILURE',
  pending: 'PENDING',
}

const MODES = ['UPI', 'CC', 'NB', 'PPI'] as const satisfies readonly PaymentMode[]

/** Paytm's own rules for posted values; its libraries turn "null" into "" and reserve "|" and REFUND. */
const acceptable = (value: string) =>
  value.toLowerCase() !== 'null' && !value.includes('|') && !/refund/i.test(value)
const field = (pattern: RegExp, max: number) =>
  z.string().max(max).regex(pattern).refine(acceptable)

const processTransactionSchema = z.object({
  MID: field(/^[A-Za-z0-9]+$/, 20),
  ORDER_ID: field(/^[A-Za-z0-9@._-]+$/, 50),
  CUST_ID: field(/^[A-Za-z0-9@!_$.]+$/, 64),
  TXN_AMOUNT: field(/^\d+(\.\d{1,2})?$/, 10),
  CHANNEL_ID: z.enum(['WEB', 'WAP']),
  WEBSITE: field(/^\S+$/, 30),
  INDUSTRY_TYPE_ID: field(/^\S+$/, 20),
  CALLBACK_URL: field(/^https?:\/\/\S+$/, 2048),
  EMAIL: field(/^[^\s@]+@[^\s@]+$/, 50).optional(),
  MOBILE_NO: field(/^\+?\d{1,15}$/, 15).optional(),
})

const controlTransactionSchema = z.object({
  status: z.enum(['TXN_SUCCESS', 'TXN_FAILURE', 'PENDING']),
  /** Paytm's text form, "1499.00". */
  amount: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/)
    .optional(),
  amountPaise: z.number().int().positive().optional(),
  mid: z.string().min(1).optional(),
  paymentMode: z.enum(MODES).optional(),
  /** For PENDING: whether it settles to success after settlePendingAfterMs (default true). */
  settle: z.boolean().optional(),
})

const outageSchema = z.object({
  enabled: z.boolean().optional(),
  v3: z.boolean().optional(),
  legacy: z.boolean().optional(),
})

/** Every member is text and signed (except CHECKSUMHASH), as in a processTransaction form. */
const legacyStatusRequestSchema = z
  .object({ MID: z.string().min(1), ORDERID: z.string().min(1), CHECKSUMHASH: z.string() })
  .catchall(z.string())

const v3StatusRequestSchema = z.object({
  body: z.looseObject({ mid: z.string().min(1), orderId: z.string().min(1) }),
  head: z.looseObject({ signature: z.string() }),
})

const refundApplyRequestSchema = z.object({
  body: z.looseObject({
    mid: z.string().min(1),
    txnType: z.literal('REFUND'),
    orderId: z.string().min(1),
    txnId: z.string().min(1),
    refId: z.string().min(1).max(50),
    refundAmount: z.string().min(1),
  }),
  head: z.looseObject({ signature: z.string() }),
})

const refundStatusRequestSchema = z.object({
  body: z.looseObject({
    mid: z.string().min(1),
    orderId: z.string().min(1),
    refId: z.string().min(1),
  }),
  head: z.looseObject({ signature: z.string() }),
})

/** A v3 answer's resultInfo. */
function resultInfo(status: string, response: { code: string; message: string }) {
  return {
    resultInfo: { resultStatus: status, resultCode: response.code, resultMsg: response.message },
  }
}

function normalizeBasePath(basePath: string | undefined): string {
  if (!basePath) return ''
  const trimmed = `/${basePath}`.replace(/\/{2,}/g, '/').replace(/\/+$/, '')
  return trimmed === '/' ? '' : trimmed
}

function validCallbackUrl(value: string | undefined): value is string {
  if (!value) return false
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** What a transaction's state looks like from outside; an unanswered page is "not confirmed yet". */
function reported(txn: SimTransaction) {
  if (txn.state === 'OPEN') {
    return {
      status: 'PENDING' as const,
      code: RESPONSES.notConfirmed.code,
      message: RESPONSES.notConfirmed.message,
    }
  }
  return { status: txn.state, code: txn.respCode, message: txn.respMsg }
}

function newPageSecret(): string {
  return crypto.randomBytes(32).toString('base64url')
}

/** A transaction whose payment page is open: no outcome chosen yet. */
function newTransaction(
  at: number,
  request: Pick<
    SimTransaction,
    'mid' | 'orderId' | 'custId' | 'amountPaise' | 'callbackUrl' | 'website'
  >,
): SimTransaction {
  return {
    ...request,
    state: 'OPEN',
    txnId: newTxnId(at),
    bankTxnId: '',
    paymentMode: '',
    respCode: '',
    respMsg: '',
    createdAt: at,
    pendingSince: null,
    settles: true,
    pageSecret: newPageSecret(),
    refunds: new Map(),
  }
}

function samePageSecret(expected: string, given: string | undefined): boolean {
  if (!given) return false
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}

export function createPaytmSimulator(options: PaytmSimulatorOptions): NodeHandler {
  const basePath = normalizeBasePath(options.basePath)
  const settleAfterMs = options.settlePendingAfterMs ?? 5000
  const settleRefundAfterMs = options.settleRefundAfterMs ?? 0
  const now = options.now ?? Date.now
  const controlEnabled = options.control ?? true
  const store = new TransactionStore(settleAfterMs, now)
  const outage = { v3: false, legacy: false }

  function keyOf(mid: string | undefined): string | undefined {
    if (!mid) return undefined
    try {
      return options.resolveMerchantKey(mid)
    } catch {
      return undefined
    }
  }

  /** The callback fields exactly as PROTOCOLS lists them, signed with the merchant's key when known. */
  function signedCallback(
    fields: Record<string, string>,
    key: string | undefined,
  ): Record<string, string> {
    // Without the merchant's key nothing can be signed; the merchant sees a callback without CHECKSUMHASH.
    return key ? { ...fields, CHECKSUMHASH: generatePaytmChecksum(fields, key) } : fields
  }

  function callbackFieldsOf(txn: SimTransaction): Record<string, string> {
    const { gatewayName, bankName } = gatewayOf(txn)
    const state = reported(txn)
    return {
      MID: txn.mid,
      ORDERID: txn.orderId,
      TXNID: txn.txnId,
      BANKTXNID: txn.bankTxnId,
      TXNAMOUNT: paiseToDecimalText(txn.amountPaise),
      CURRENCY: 'INR',
      STATUS: state.status,
      RESPCODE: state.code,
      RESPMSG: state.message,
      TXNDATE: paytmDate(txn.createdAt),
      GATEWAYNAME: gatewayName,
      BANKNAME: bankName,
      PAYMENTMODE: txn.paymentMode,
    }
  }

  /** A refusal sent back through the callback, as Paytm does: no transaction is created. */
  function refusalFields(
    posted: Record<string, string>,
    response: { code: string; message: string },
  ) {
    return {
      MID: posted.MID ?? '',
      ORDERID: posted.ORDER_ID ?? '',
      TXNID: '',
      BANKTXNID: '',
      TXNAMOUNT: posted.TXN_AMOUNT ?? '',
      CURRENCY: 'INR',
      STATUS: 'TXN_FAILURE',
      RESPCODE: response.code,
      RESPMSG: response.message,
      TXNDATE: '',
      GATEWAYNAME: '',
      BANKNAME: '',
      PAYMENTMODE: '',
    }
  }

  function sendCallback(
    res: ServerResponse,
    callbackUrl: string,
    fields: Record<string, string>,
  ): void {
    const nonce = newNonce()
    sendHtml(res, 200, callbackPage(callbackUrl, fields, nonce), nonce)
  }

  function sendMessage(res: ServerResponse, status: number, title: string, message: string): void {
    const nonce = newNonce()
    sendHtml(res, status, messagePage(title, message, nonce), nonce)
  }

  async function processTransaction(req: IncomingMessage, res: ServerResponse, prefix: string) {
    if (mediaType(req) !== 'application/x-www-form-urlencoded') {
      return sendMessage(
        res,
        415,
        'Unsupported request',
        'Post the payment form as application/x-www-form-urlencoded.',
      )
    }
    const posted = parseForm(await readBody(req))
    if (!posted) return sendMessage(res, 400, 'Invalid request', 'A field was sent more than once.')
    const callbackUrl = posted.CALLBACK_URL
    if (!validCallbackUrl(callbackUrl)) {
      return sendMessage(
        res,
        400,
        'Invalid request',
        'CALLBACK_URL is missing or is not an http(s) URL.',
      )
    }
    const key = keyOf(posted.MID)
    const { CHECKSUMHASH: checksum, ...signed } = posted
    if (!key || !verifyPaytmChecksum(signed, key, checksum)) {
      // Never signed: anyone can post here, and a signed failure for an order id they chose
      // would let them fail another buyer's order at the merchant.
      return sendCallback(res, callbackUrl, refusalFields(posted, RESPONSES.invalidChecksum))
    }
    const parsed = processTransactionSchema.safeParse(posted)
    const amountPaise = parsed.success ? parseDecimalTextToPaise(parsed.data.TXN_AMOUNT) : null
    if (!parsed.success || !amountPaise) {
      const names = parsed.success
        ? ['TXN_AMOUNT']
        : [...new Set(parsed.error.issues.map((i) => String(i.path[0])))]
      return sendMessage(
        res,
        400,
        'Invalid request',
        `These parameters are missing or not acceptable: ${names.join(', ')}.`,
      )
    }
    const request = parsed.data
    const existing = store.get(request.MID, request.ORDER_ID)
    if (existing && existing.state !== 'OPEN') {
      // Paytm refuses a second payment for an order id it has already seen through.
      return sendCallback(
        res,
        callbackUrl,
        signedCallback(refusalFields(posted, RESPONSES.duplicateOrder), key),
      )
    }
    const txn: SimTransaction =
      existing ??
      newTransaction(now(), {
        mid: request.MID,
        orderId: request.ORDER_ID,
        custId: request.CUST_ID,
        amountPaise,
        callbackUrl,
        website: request.WEBSITE,
      })
    // A buyer who comes back to an unanswered page (back button, retry) sees the latest request.
    Object.assign(txn, {
      custId: request.CUST_ID,
      amountPaise,
      callbackUrl,
      website: request.WEBSITE,
    })
    store.add(txn)
    const nonce = newNonce()
    sendHtml(
      res,
      200,
      paymentPage(txn, `${prefix}/theia/simulator/respond`, settleAfterMs, nonce),
      nonce,
    )
  }

  async function respond(req: IncomingMessage, res: ServerResponse) {
    const posted = parseForm(await readBody(req))
    const outcome = OUTCOMES[posted?.outcome ?? '']
    const mode = MODES.find((m) => m === posted?.PAYMENTMODE)
    if (!posted || !outcome || !posted.MID || !posted.ORDER_ID) {
      return sendMessage(
        res,
        400,
        'Invalid request',
        'Choose one of the buttons on the payment page.',
      )
    }
    const txn = store.get(posted.MID, posted.ORDER_ID)
    // Without the page's secret the answer is the same as for a transaction that does not exist.
    if (!txn || !samePageSecret(txn.pageSecret, posted.PAGE_SECRET))
      return sendMessage(res, 404, 'Unknown transaction', 'This simulator has no such transaction.')
    // The first answer is the answer: re-posting the page (back button) repeats it, never changes it.
    if (txn.state === 'OPEN') applyOutcome(txn, outcome, now(), mode ?? 'UPI')
    sendCallback(res, txn.callbackUrl, signedCallback(callbackFieldsOf(txn), keyOf(txn.mid)))
  }

  function legacyAnswer(txn: SimTransaction): Record<string, string> {
    const fields = callbackFieldsOf(txn)
    return {
      TXNID: fields.TXNID!,
      BANKTXNID: fields.BANKTXNID!,
      ORDERID: txn.orderId,
      TXNAMOUNT: fields.TXNAMOUNT!,
      STATUS: fields.STATUS!,
      TXNTYPE: 'SALE',
      GATEWAYNAME: fields.GATEWAYNAME!,
      RESPCODE: fields.RESPCODE!,
      RESPMSG: fields.RESPMSG!,
      BANKNAME: fields.BANKNAME!,
      MID: txn.mid,
      PAYMENTMODE: fields.PAYMENTMODE!,
      REFUNDAMT: paiseToDecimalText(refundedPaise(txn)),
      TXNDATE: fields.TXNDATE!,
    }
  }

  async function legacyStatus(req: IncomingMessage, res: ServerResponse) {
    if (outage.legacy) return sendText(res, 503, 'Service Unavailable', { 'Retry-After': '5' })
    const json = parseJson(await readBody(req))
    const parsed = legacyStatusRequestSchema.safeParse(json?.value)
    if (!parsed.success) {
      return sendJson(res, 400, {
        STATUS: 'TXN_FAILURE',
        RESPCODE: RESPONSES.systemError.code,
        RESPMSG: RESPONSES.systemError.message,
      })
    }
    const { CHECKSUMHASH: checksum, ...signed } = parsed.data
    const key = keyOf(signed.MID)
    const base = { ORDERID: signed.ORDERID, MID: signed.MID, TXNAMOUNT: '', STATUS: 'TXN_FAILURE' }
    if (!key || !verifyPaytmChecksum(signed, key, checksum)) {
      return sendJson(res, 200, {
        ...base,
        RESPCODE: RESPONSES.invalidChecksum.code,
        RESPMSG: RESPONSES.invalidChecksum.message,
      })
    }
    const txn = store.get(signed.MID, signed.ORDERID)
    if (!txn) {
      return sendJson(res, 200, {
        TXNID: '',
        BANKTXNID: '',
        ...base,
        TXNTYPE: '',
        GATEWAYNAME: '',
        RESPCODE: RESPONSES.invalidOrder.code,
        RESPMSG: RESPONSES.invalidOrder.message,
        BANKNAME: '',
        PAYMENTMODE: '',
        REFUNDAMT: '',
        TXNDATE: '',
      })
    }
    sendJson(res, 200, legacyAnswer(txn))
  }

  /** A v3 response: the body signed as the exact string that is sent. */
  function sendV3(
    res: ServerResponse,
    status: number,
    body: Record<string, unknown>,
    key: string | undefined,
  ) {
    const bodyText = JSON.stringify(body)
    const head: Record<string, string> = { responseTimestamp: String(now()), version: 'v1' }
    if (key) head.signature = generatePaytmChecksum(bodyText, key)
    sendJson(res, status, `{"head":${JSON.stringify(head)},"body":${bodyText}}`)
  }

  async function v3Status(req: IncomingMessage, res: ServerResponse) {
    if (outage.v3) return sendText(res, 503, 'Service Unavailable', { 'Retry-After': '5' })
    const request = await signedRequest(req, res, v3StatusRequestSchema, 'F')
    if (!request) return
    const { mid, orderId } = request.body
    const key = request.key
    const txn = store.get(mid, orderId)
    if (!txn) return sendV3(res, 200, resultInfo('TXN_FAILURE', RESPONSES.invalidOrder), key)
    const fields = callbackFieldsOf(txn)
    sendV3(
      res,
      200,
      {
        resultInfo: {
          resultStatus: fields.STATUS,
          resultCode: fields.RESPCODE,
          resultMsg: fields.RESPMSG,
        },
        txnId: fields.TXNID,
        bankTxnId: fields.BANKTXNID,
        orderId: txn.orderId,
        txnAmount: fields.TXNAMOUNT,
        txnType: 'SALE',
        gatewayName: fields.GATEWAYNAME,
        bankName: fields.BANKNAME,
        mid: txn.mid,
        paymentMode: fields.PAYMENTMODE,
        refundAmt: paiseToDecimalText(refundedPaise(txn)),
        txnDate: fields.TXNDATE,
      },
      key,
    )
  }

  /**
   * A signed `{body, head}` request as Paytm's v3 APIs take it: the parsed body when the
   * signature over its exact text verifies with the merchant's key, otherwise the answer sent.
   */
  async function signedRequest<T extends { body: { mid: string }; head: { signature: string } }>(
    req: IncomingMessage,
    res: ServerResponse,
    schema: z.ZodType<T>,
    /** How a malformed request is answered (the v3 status API: "F"). */
    malformedStatus = 'TXN_FAILURE',
  ): Promise<{ body: T['body']; key: string } | null> {
    const json = parseJson(await readBody(req))
    const parsed = schema.safeParse(json?.value)
    if (!json || !parsed.success) {
      sendV3(res, 400, resultInfo(malformedStatus, RESPONSES.systemError), undefined)
      return null
    }
    // The signature covers the body exactly as sent; re-serialising is only a fallback for a
    // body that middleware has already parsed.
    const key = keyOf(parsed.data.body.mid)
    const signedText =
      json.text === null
        ? JSON.stringify((json.value as { body: unknown }).body)
        : rawJsonMember(json.text, 'body')
    if (
      !key ||
      signedText === null ||
      !verifyPaytmChecksum(signedText, key, parsed.data.head.signature)
    ) {
      sendV3(res, 200, resultInfo('TXN_FAILURE', RESPONSES.invalidChecksum), key)
      return null
    }
    return { body: parsed.data.body, key }
  }

  function refundBody(
    txn: { mid: string; orderId: string; txnId: string },
    refund: { refId: string; refundId: string; amountPaise: number } | null,
    status: string,
    response: { code: string; message: string },
  ) {
    return {
      txnTimestamp: paytmDate(now()),
      orderId: txn.orderId,
      mid: txn.mid,
      ...(refund
        ? {
            refId: refund.refId,
            refundId: refund.refundId,
            txnId: txn.txnId,
            refundAmount: paiseToDecimalText(refund.amountPaise),
          }
        : {}),
      resultInfo: { resultStatus: status, resultCode: response.code, resultMsg: response.message },
    }
  }

  /** POST /refund/apply: one refund per refId; the same refId again answers with that refund. */
  async function refundApply(req: IncomingMessage, res: ServerResponse) {
    const request = await signedRequest(req, res, refundApplyRequestSchema)
    if (!request) return
    const { body, key } = request
    const txn = store.get(body.mid, body.orderId)
    const refusal = (response: { code: string; message: string }) =>
      sendV3(
        res,
        200,
        refundBody(
          { mid: body.mid, orderId: body.orderId, txnId: body.txnId },
          null,
          'TXN_FAILURE',
          response,
        ),
        key,
      )
    if (!txn || txn.txnId !== body.txnId) return refusal(RESPONSES.orderNotFound)
    const existing = txn.refunds.get(body.refId)
    if (existing) {
      const status = existing.state === 'TXN_SUCCESS' ? 'TXN_SUCCESS' : 'PENDING'
      const response =
        existing.state === 'TXN_SUCCESS' ? RESPONSES.refundSuccess : RESPONSES.refundPending
      return sendV3(res, 200, refundBody(txn, existing, status, response), key)
    }
    if (txn.state !== 'TXN_SUCCESS') return refusal(RESPONSES.refundTxnNotSuccess)
    const amountPaise = parseDecimalTextToPaise(body.refundAmount)
    if (!amountPaise || amountPaise <= 0 || amountPaise > txn.amountPaise - refundedPaise(txn))
      return refusal(RESPONSES.refundAmountInvalid)
    const refund = {
      refId: body.refId,
      refundId: newRefundId(),
      amountPaise,
      state: 'PENDING' as const,
      createdAt: now(),
    }
    txn.refunds.set(refund.refId, refund)
    sendV3(res, 200, refundBody(txn, refund, 'PENDING', RESPONSES.refundPending), key)
  }

  /** POST /v2/refund/status: PENDING until settleRefundAfterMs has passed, then TXN_SUCCESS. */
  async function refundStatus(req: IncomingMessage, res: ServerResponse) {
    const request = await signedRequest(req, res, refundStatusRequestSchema)
    if (!request) return
    const { body, key } = request
    const txn = store.get(body.mid, body.orderId)
    const refund = txn?.refunds.get(body.refId)
    if (!txn || !refund)
      return sendV3(
        res,
        200,
        refundBody(
          { mid: body.mid, orderId: body.orderId, txnId: '' },
          null,
          'TXN_FAILURE',
          RESPONSES.refundNotFound,
        ),
        key,
      )
    if (refund.state === 'PENDING' && now() - refund.createdAt >= settleRefundAfterMs)
      refund.state = 'TXN_SUCCESS'
    const done = refund.state === 'TXN_SUCCESS'
    sendV3(
      res,
      200,
      refundBody(
        txn,
        refund,
        done ? 'TXN_SUCCESS' : 'PENDING',
        done ? RESPONSES.refundSuccess : RESPONSES.refundPending,
      ),
      key,
    )
  }

  async function controlTransaction(req: IncomingMessage, res: ServerResponse, orderId: string) {
    if (req.method === 'GET') {
      const found = store.findByOrderId(orderId)
      if (found.length === 0)
        return sendJson(res, 404, { error: 'No transaction with this order id' })
      return sendJson(res, 200, { transactions: found.map(snapshot) })
    }
    const parsed = controlTransactionSchema.safeParse(parseJson(await readBody(req))?.value)
    if (!parsed.success) {
      return sendJson(res, 400, {
        error: 'Expected JSON {status, amount?, amountPaise?, mid?, paymentMode?, settle?}',
      })
    }
    const order = parsed.data
    const amountPaise =
      order.amountPaise ?? (order.amount ? parseDecimalTextToPaise(order.amount) : null)
    let targets = store.findByOrderId(orderId).filter((txn) => !order.mid || txn.mid === order.mid)
    if (targets.length === 0) {
      if (!order.mid || !amountPaise) {
        return sendJson(res, 404, {
          error: 'No transaction with this order id; pass mid and amount to create one',
        })
      }
      const created = newTransaction(now(), {
        mid: order.mid,
        orderId,
        custId: 'CONTROL',
        amountPaise,
        callbackUrl: '',
        website: 'WEBSTAGING',
      })
      store.add(created)
      targets = [created]
    }
    for (const txn of targets) {
      if (amountPaise) txn.amountPaise = amountPaise
      applyOutcome(txn, order.status, now(), order.paymentMode)
      txn.settles = order.settle ?? true
    }
    sendJson(res, 200, { transactions: targets.map(snapshot) })
  }

  async function controlOutage(req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'POST') {
      const parsed = outageSchema.safeParse(parseJson(await readBody(req))?.value)
      if (!parsed.success)
        return sendJson(res, 400, { error: 'Expected JSON {enabled?, v3?, legacy?}' })
      const { enabled, v3, legacy } = parsed.data
      outage.v3 = v3 ?? enabled ?? outage.v3
      outage.legacy = legacy ?? enabled ?? outage.legacy
    }
    sendJson(res, 200, { ...outage })
  }

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    prefix: string,
  ): Promise<boolean> {
    const method = req.method ?? 'GET'
    const only = (allowed: string) => {
      if (allowed.split(', ').includes(method)) return true
      res.setHeader('Allow', allowed)
      sendText(res, 405, 'Method Not Allowed')
      return false
    }
    switch (path) {
      case '/theia/processTransaction':
        if (only('POST')) await processTransaction(req, res, prefix)
        return true
      case '/theia/simulator/respond':
        if (only('POST')) await respond(req, res)
        return true
      case '/order/status':
        if (only('POST')) await legacyStatus(req, res)
        return true
      case '/v3/order/status':
        if (only('POST')) await v3Status(req, res)
        return true
      case '/refund/apply':
        if (only('POST')) await refundApply(req, res)
        return true
      case '/v2/refund/status':
        if (only('POST')) await refundStatus(req, res)
        return true
      case '/__control/health':
        if (only('GET, HEAD'))
          sendJson(res, 200, { ok: true, simulator: 'paytm', transactions: store.size })
        return true
    }
    if (!controlEnabled || !path.startsWith('/__control/')) return false
    if (path === '/__control/outage') {
      if (only('GET, POST')) await controlOutage(req, res)
      return true
    }
    const match = /^\/__control\/transactions\/([^/]+)$/.exec(path)
    if (!match) return false
    let orderId: string
    try {
      orderId = decodeURIComponent(match[1]!)
    } catch {
      return false
    }
    if (only('GET, POST')) await controlTransaction(req, res, orderId)
    return true
  }

  return (req, res, next) => {
    const notOurs = () => (next ? next() : sendText(res, 404, 'Not Found'))
    // Under express the mount path is already stripped from req.url and kept in req.baseUrl.
    const mountedAt = (req as IncomingMessage & { baseUrl?: unknown }).baseUrl
    let prefix = typeof mountedAt === 'string' ? mountedAt : ''
    let path: string
    try {
      path = new URL(req.url ?? '/', 'http://simulator.invalid').pathname
    } catch {
      return notOurs()
    }
    if (basePath && !prefix.endsWith(basePath)) {
      if (path !== basePath && !path.startsWith(`${basePath}/`)) return notOurs()
      path = path.slice(basePath.length) || '/'
      prefix += basePath
    }
    route(req, res, path, prefix).then(
      (handled) => {
        if (!handled) notOurs()
      },
      (error: unknown) => {
        if (res.headersSent) return res.destroy()
        if (error instanceof HttpError) return sendText(res, error.status, error.message)
        console.error('[paytm simulator]', error)
        sendText(res, 500, 'Internal Server Error')
      },
    )
  }
}
