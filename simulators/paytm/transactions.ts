import crypto from 'node:crypto'
import { paiseToDecimalText } from '../../app/lib/money'

/**
 * The simulator's memory of transactions, and the Paytm facts about each outcome
 * (RESPCODE/RESPMSG table, gateway and bank names, id formats) from PROTOCOLS.md §1.
 */

export type PaymentMode = 'UPI' | 'CC' | 'NB' | 'PPI'
export type FinalOrPending = 'TXN_SUCCESS' | 'TXN_FAILURE' | 'PENDING'
/** OPEN: the payment page was shown and the buyer has not chosen an outcome yet. */
export type SimState = 'OPEN' | FinalOrPending

export const PAYMENT_MODES: readonly { mode: PaymentMode; label: string }[] = [
  { mode: 'UPI', label: 'UPI' },
  { mode: 'CC', label: 'Card' },
  { mode: 'NB', label: 'Net Banking' },
  { mode: 'PPI', label: 'Wallet' },
]

export const RESPONSES = {
  success: { code: '01', message: 'Txn Success' },
  declined: {
    code: '227',
    message:
      'Your payment has been declined by your bank. Please try again or use a different method.',
  },
  pending: {
    code: '402',
    message:
      'Looks like the payment is not complete. Please wait while we confirm the status with your bank.',
  },
  notConfirmed: { code: '400', message: 'Transaction status not confirmed yet' },
  invalidChecksum: { code: '330', message: 'Invalid checksum' },
  invalidOrder: { code: '334', message: 'Invalid Order ID' },
  duplicateOrder: { code: '325', message: 'Duplicate Order Id' },
  systemError: { code: '501', message: 'System Error' },
  refundPending: {
    code: '601',
    message: 'Refund request was raised for this transaction. But it is pending state',
  },
  refundSuccess: { code: '10', message: 'Refund Successfull' },
  refundNotFound: { code: '631', message: 'Record not found' },
  orderNotFound: { code: '627', message: 'Order Details not found' },
  refundAmountInvalid: { code: '619', message: 'Invalid refund amount' },
  refundTxnNotSuccess: { code: '620', message: 'Refund is not allowed for this transaction' },
} as const

/** Who processed the payment, by mode: Paytm names the issuing bank for net banking and WALLET for its wallet. */
const GATEWAYS: Record<PaymentMode, { gatewayName: string; bankName: string }> = {
  UPI: { gatewayName: 'PPBL', bankName: '' },
  CC: { gatewayName: 'HDFC', bankName: 'HDFC Bank' },
  NB: { gatewayName: 'ICICI', bankName: 'ICICI Bank' },
  PPI: { gatewayName: 'WALLET', bankName: 'WALLET' },
}

export interface SimTransaction {
  mid: string
  orderId: string
  custId: string
  amountPaise: number
  callbackUrl: string
  website: string
  state: SimState
  txnId: string
  bankTxnId: string
  paymentMode: PaymentMode | ''
  respCode: string
  respMsg: string
  createdAt: number
  /** When it was left pending; it settles to success settlePendingAfterMs later (if `settles`). */
  pendingSince: number | null
  settles: boolean
  /**
   * Handed out only in the payment page that answers the merchant's signed request, and
   * required back by its buttons: only the browser the merchant sent here can answer it.
   */
  pageSecret: string
  /** Refunds asked for this payment, by the merchant's refId. */
  refunds: Map<string, SimRefund>
}

export interface SimRefund {
  refId: string
  refundId: string
  amountPaise: number
  /** PENDING until the refund settles (settleRefundAfterMs after it was asked). */
  state: 'PENDING' | 'TXN_SUCCESS'
  createdAt: number
}

/** Paise refunded (or being refunded) of a payment. */
export function refundedPaise(txn: SimTransaction): number {
  let sum = 0
  for (const refund of txn.refunds.values()) sum += refund.amountPaise
  return sum
}

/** Paytm refund ids are digits. */
export function newRefundId(): string {
  return digits(20)
}

export interface TransactionSnapshot {
  mid: string
  orderId: string
  status: SimState
  amount: string
  amountPaise: number
  txnId: string
  bankTxnId: string
  paymentMode: string
  respCode: string
  respMsg: string
  txnDate: string
}

function digits(count: number): string {
  let out = ''
  for (let i = 0; i < count; i++) out += String(crypto.randomInt(10))
  return out
}

/** India Standard Time parts of a moment, since Paytm reports times in IST. */
function istParts(at: number) {
  const d = new Date(at + 330 * 60_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
  }
}

/** yyyy-MM-dd HH:mm:ss.S in IST; Paytm's ".S" is in practice always ".0". */
export function paytmDate(at: number): string {
  const { date, time } = istParts(at)
  return `${date} ${time}.0`
}

/** Paytm transaction ids are the date followed by digits (35 characters). */
export function newTxnId(at: number): string {
  return istParts(at).date.replace(/-/g, '') + digits(27)
}

export function newBankTxnId(): string {
  return digits(12)
}

export function gatewayOf(txn: SimTransaction) {
  return txn.paymentMode ? GATEWAYS[txn.paymentMode] : { gatewayName: '', bankName: '' }
}

/** Moves a transaction to a final or pending state, with the codes Paytm would report. */
export function applyOutcome(
  txn: SimTransaction,
  outcome: FinalOrPending,
  at: number,
  mode?: PaymentMode,
): void {
  if (mode) txn.paymentMode = mode
  if (!txn.paymentMode) txn.paymentMode = 'UPI'
  txn.state = outcome
  txn.pendingSince = null
  if (outcome === 'TXN_SUCCESS') {
    txn.respCode = RESPONSES.success.code
    txn.respMsg = RESPONSES.success.message
    txn.bankTxnId ||= newBankTxnId()
  } else if (outcome === 'TXN_FAILURE') {
    txn.respCode = RESPONSES.declined.code
    txn.respMsg = RESPONSES.declined.message
    txn.bankTxnId = ''
  } else {
    txn.respCode = RESPONSES.pending.code
    txn.respMsg = RESPONSES.pending.message
    txn.bankTxnId = ''
    txn.pendingSince = at
  }
}

export function snapshot(txn: SimTransaction): TransactionSnapshot {
  return {
    mid: txn.mid,
    orderId: txn.orderId,
    status: txn.state,
    amount: paiseToDecimalText(txn.amountPaise),
    amountPaise: txn.amountPaise,
    txnId: txn.txnId,
    bankTxnId: txn.bankTxnId,
    paymentMode: txn.paymentMode,
    respCode: txn.respCode,
    respMsg: txn.respMsg,
    txnDate: paytmDate(txn.createdAt),
  }
}

/** Old entries are dropped beyond this, so a long benchmark cannot exhaust memory. */
const MAX_TRANSACTIONS = 100_000

export class TransactionStore {
  private readonly byKey = new Map<string, SimTransaction>()

  constructor(
    private readonly settlePendingAfterMs: number,
    private readonly now: () => number,
  ) {}

  private static key(mid: string, orderId: string): string {
    return `${mid}\u0000${orderId}`
  }

  get size(): number {
    return this.byKey.size
  }

  /** The transaction as it stands now: a pending one whose time has come is settled first. */
  get(mid: string, orderId: string): SimTransaction | undefined {
    const txn = this.byKey.get(TransactionStore.key(mid, orderId))
    if (txn) this.settleIfDue(txn)
    return txn
  }

  findByOrderId(orderId: string): SimTransaction[] {
    const found = [...this.byKey.values()].filter((txn) => txn.orderId === orderId)
    for (const txn of found) this.settleIfDue(txn)
    return found
  }

  add(txn: SimTransaction): void {
    const key = TransactionStore.key(txn.mid, txn.orderId)
    this.byKey.delete(key)
    this.byKey.set(key, txn)
    if (this.byKey.size > MAX_TRANSACTIONS) {
      const oldest = this.byKey.keys().next()
      if (!oldest.done) this.byKey.delete(oldest.value)
    }
  }

  private settleIfDue(txn: SimTransaction): void {
    if (
      txn.state === 'PENDING' &&
      txn.settles &&
      txn.pendingSince !== null &&
      this.now() - txn.pendingSince >= this.settlePendingAfterMs
    ) {
      applyOutcome(txn, 'TXN_SUCCESS', this.now())
    }
  }
}
