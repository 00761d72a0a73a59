import {
  getReviewByOrder,
  getReviewForAdmin,
  insertReview,
  setReviewHidden,
  updateOwnReview,
  type OwnReview,
  type ReviewScope,
} from '~/data/review.server'
import { getOrder } from '~/data/order.server'
import { services } from '~/lib/app-context.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { REVIEW_EDIT_DAYS } from '~/lib/validation/review'
import { recordAdminChange, type AuditActor } from './audit.server'
import { isOwnOrder } from './order-access.server'
import { liveGatewayActive } from './payment/offered-gateways.server'

/**
 * Reviews from verified buyers: who may write one, and the back office's moderation.
 *
 * A review belongs to one delivered order and is written by that order's owner, signed in (an
 * order placed while signed in, or as a guest with the account's verified address; the rule of
 * isOwnOrder). Someone who only holds the order's secret link, or an admin looking at the order,
 * cannot review it. The owner may change the review for REVIEW_EDIT_DAYS days after writing it.
 * A test-mode order (paid through a simulator or a gateway's test environment) is reviewed only
 * while the shop has no live gateway, and its review shown only then (docs/reviews.md). The
 * demo seed writes its fictional reviews through saveReview as well.
 */
export const REVIEW_ERRORS = {
  notFound: 'Order not found.',
  notDelivered: 'You can review the product once this order has been delivered.',
  noProduct: 'This product is no longer sold, so it cannot be reviewed.',
  editClosed: `Reviews can be changed for ${REVIEW_EDIT_DAYS} days after they are written.`,
  testOrder:
    'This was a test order, and the shop now takes real payments: test orders can no longer be reviewed.',
} as const

/**
 * Which reviews the storefront shows now (its lists, counts, averages, JSON-LD and "Write a
 * review" offers): those of test-mode orders only while no live gateway is active, so a fresh
 * install's demo keeps its ratings and a live shop shows only what real buyers paid for.
 */
export async function storefrontReviewScope(db: DB, env: Env): Promise<ReviewScope> {
  return { testOrders: !(await liveGatewayActive(db, env)) }
}

export type SaveReviewResult =
  | { ok: true; review: OwnReview; created: boolean }
  | { ok: false; status: 404 | 409; error: string }

export interface Reviewer {
  id: string
  email: string
  emailVerified: boolean
}

const DAY_MS = 24 * 60 * 60 * 1000

/** The last moment a review written at `createdAt` may still be changed. */
export function editableUntil(createdAt: string): Date {
  return new Date(new Date(createdAt).getTime() + REVIEW_EDIT_DAYS * DAY_MS)
}

/**
 * Writes the order's review, or changes the one the user wrote within the edit window. Every
 * refusal changes nothing; someone else's order answers like a missing one. `liveGateway` is
 * asked only for a test-mode order, which is refused while it answers true (liveGatewayActive
 * with the shop's own settings when omitted).
 */
export async function saveReview(
  db: DB,
  user: Reviewer,
  orderId: string,
  input: { rating: number; title: string; body: string },
  now: Date = new Date(),
  liveGateway: () => Promise<boolean> = () => liveGatewayActive(db, services().env),
): Promise<SaveReviewResult> {
  const order = await getOrder(db, orderId)
  if (!order || !isOwnOrder(order, user))
    return { ok: false, status: 404, error: REVIEW_ERRORS.notFound }
  if (order.status !== 'delivered')
    return { ok: false, status: 409, error: REVIEW_ERRORS.notDelivered }
  if (!order.productId) return { ok: false, status: 409, error: REVIEW_ERRORS.noProduct }
  if (order.testMode && (await liveGateway()))
    return { ok: false, status: 409, error: REVIEW_ERRORS.testOrder }
  const fields = { rating: input.rating, title: input.title.trim(), body: input.body.trim() }

  const existing = await getReviewByOrder(db, order.id)
  if (!existing) {
    const created = await insertReview(
      db,
      { orderId: order.id, productId: order.productId, userId: user.id, ...fields },
      now,
    )
    if (created) return { ok: true, review: created, created: true }
  }
  // The order has a review (perhaps written a moment ago by another tab): change it if it is ours.
  const review = existing ?? (await getReviewByOrder(db, order.id))
  if (!review || review.userId !== user.id)
    return { ok: false, status: 404, error: REVIEW_ERRORS.notFound }
  if (now > editableUntil(review.createdAt))
    return { ok: false, status: 409, error: REVIEW_ERRORS.editClosed }
  const since = new Date(now.getTime() - REVIEW_EDIT_DAYS * DAY_MS)
  if (!(await updateOwnReview(db, review.id, user.id, fields, since, now)))
    return { ok: false, status: 409, error: REVIEW_ERRORS.editClosed }
  return {
    ok: true,
    review: { ...review, ...fields, updatedAt: now.toISOString() },
    created: false,
  }
}

export type ModerationResult = { ok: true; summary: string } | { ok: false; error: string }

/**
 * Hides a review from the shop with the admin's reason (`reason` given), or shows it again
 * (`reason` null); audit logged as review.hide / review.unhide in the same transaction.
 */
export async function moderateReview(
  db: DB,
  input: { actor: AuditActor; ip: string | null; reviewId: string; reason: string | null },
  now: Date = new Date(),
): Promise<ModerationResult> {
  return db.transaction().execute(async (trx) => {
    const review = await getReviewForAdmin(trx, input.reviewId)
    if (!review) return { ok: false as const, error: 'That review no longer exists.' }
    const hide = input.reason !== null
    if (review.hidden === hide) {
      return {
        ok: false as const,
        error: hide ? 'That review is already hidden.' : 'That review is already shown.',
      }
    }
    await setReviewHidden(trx, review.id, hide ? { reason: input.reason! } : null, now)
    const summary = hide
      ? `Hid a review of ${review.productTitle}`
      : `Showed a review of ${review.productTitle} again`
    await recordAdminChange(
      trx,
      {
        actor: input.actor,
        ip: input.ip,
        action: hide ? 'review.hide' : 'review.unhide',
        target: { type: 'review', id: review.id },
        summary,
        before: { hidden: review.hidden, hiddenReason: review.hiddenReason },
        after: { hidden: hide, hiddenReason: hide ? input.reason : null },
      },
      now,
    )
    return { ok: true as const, summary }
  })
}
