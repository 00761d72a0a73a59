import { z } from '~/lib/validation/zod'

/**
 * The wishlist's one form (the heart on product cards and pages, the buttons of
 * /dashboard/wishlist), posted to /wishlist: add, remove, or switch the back-in-stock mail of
 * one product. Browser safe.
 */
export const WISHLIST_MESSAGES = {
  badProduct: 'That product could not be found. Refresh the page and try again.',
  noProduct: 'This product is no longer in the shop.',
  badIntent: 'Choose whether to add or remove the product.',
} as const

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

const productId = z.preprocess(
  text,
  z.string().min(1, WISHLIST_MESSAGES.badProduct).max(64, WISHLIST_MESSAGES.badProduct),
)
/** Where to go back to without JavaScript; checked by safeRedirect on the server. */
const redirectTo = z.preprocess(text, z.string().max(2000)).optional()

export const wishlistSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('add'), productId, redirectTo }),
    z.object({ intent: z.literal('remove'), productId, redirectTo }),
    z.object({
      intent: z.literal('notify'),
      productId,
      redirectTo,
      on: z.enum(['yes', 'no']),
    }),
  ],
  { error: WISHLIST_MESSAGES.badIntent },
)
export type WishlistSubmission = z.infer<typeof wishlistSchema>
