import type { OrderStatus } from './order-status'

/**
 * A payment attempt's status as the Transactions page shows it, from its order's status:
 * money received (paid, delivered, awaiting stock) is a success, an open order is pending,
 * a declined or abandoned payment (failed, expired) failed, and a refund is a refund.
 * Browser safe.
 */
export const TRANSACTION_STATUSES = ['success', 'pending', 'failed', 'refunded'] as const
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number]

export const TRANSACTION_STATUS_LABELS: Record<TransactionStatus, string> = {
  success: 'Success',
  pending: 'Pending',
  failed: 'Failed',
  refunded: 'Refunded',
}

const BY_ORDER_STATUS: Record<OrderStatus, TransactionStatus> = {
  paid: 'success',
  delivered: 'success',
  awaiting_stock: 'success',
  pending: 'pending',
  failed: 'failed',
  expired: 'failed',
  refunded: 'refunded',
}

export function transactionStatusOf(status: OrderStatus): TransactionStatus {
  return BY_ORDER_STATUS[status]
}

export function isTransactionStatus(value: unknown): value is TransactionStatus {
  return typeof value === 'string' && (TRANSACTION_STATUSES as readonly string[]).includes(value)
}
