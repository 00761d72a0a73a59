import { z } from '~/lib/validation/zod'

/**
 * The review forms: a buyer's review of a delivered order (on the order page), and the back
 * office's hide form. Limits and messages are shared by the browser and the actions. Browser safe.
 */
export const REVIEW_TITLE_MAX = 80
export const REVIEW_BODY_MIN = 10
export const REVIEW_BODY_MAX = 2000
export const HIDE_REASON_MIN = 3
export const HIDE_REASON_MAX = 300
/** Days after writing it during which a buyer may still change their review. */
export const REVIEW_EDIT_DAYS = 30

export const REVIEW_MESSAGES = {
  ratingRequired: 'Choose a rating from 1 to 5 stars.',
  titleTooLong: `Please keep the title under ${REVIEW_TITLE_MAX} characters.`,
  bodyTooShort: `Write at least ${REVIEW_BODY_MIN} characters about the product.`,
  bodyTooLong: `Please keep the review under ${REVIEW_BODY_MAX.toLocaleString('en-IN')} characters.`,
  reasonTooShort: `Give a reason of at least ${HIDE_REASON_MIN} characters; the audit log keeps it.`,
  reasonTooLong: `Please keep the reason under ${HIDE_REASON_MAX} characters.`,
} as const

const text = (value: unknown) => (typeof value === 'string' ? value : '')

export const reviewSchema = z.object({
  intent: z.literal('review'),
  rating: z.preprocess(
    text,
    z
      .string()
      .regex(/^[1-5]$/, REVIEW_MESSAGES.ratingRequired)
      .transform((value) => Number(value)),
  ),
  title: z.preprocess(text, z.string().trim().max(REVIEW_TITLE_MAX, REVIEW_MESSAGES.titleTooLong)),
  body: z.preprocess(
    text,
    z
      .string()
      .trim()
      .min(REVIEW_BODY_MIN, REVIEW_MESSAGES.bodyTooShort)
      .max(REVIEW_BODY_MAX, REVIEW_MESSAGES.bodyTooLong),
  ),
})
export type ReviewSubmission = z.infer<typeof reviewSchema>

const reviewId = z.preprocess(text, z.string().min(1).max(64))

export const hideReviewSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('hide'),
    reviewId,
    reason: z.preprocess(
      text,
      z
        .string()
        .trim()
        .min(HIDE_REASON_MIN, REVIEW_MESSAGES.reasonTooShort)
        .max(HIDE_REASON_MAX, REVIEW_MESSAGES.reasonTooLong),
    ),
  }),
  z.object({ intent: z.literal('unhide'), reviewId }),
])
export type HideReviewSubmission = z.infer<typeof hideReviewSchema>
