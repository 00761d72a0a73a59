import { insertOrderReport, type CreateReportResult } from '~/data/order-report.server'
import type { DB } from '~/lib/db.server'
import { mailProblemReported } from './notifications/shop-mail.server'

/** The buyer reports a delivered order; the shop's contact address and admins are e-mailed. */
export function createOrderReport(
  db: DB,
  input: { orderId: string; reason: string; reportedBy: string },
  now = new Date(),
): Promise<CreateReportResult> {
  return insertOrderReport(db, input, now, mailProblemReported)
}
