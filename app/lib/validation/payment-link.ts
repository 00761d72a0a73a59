import { z } from '~/lib/validation/zod'
import { formatRupees, parseRupeesToPaise } from '../money'
import { checkoutSchema } from './checkout'
import { optionalBusinessFields, refineOptionalBusiness } from './account-settings'
import { MAX_PRICE_PAISE } from './product'

export const PAYMENT_LINK_AMOUNT_MESSAGES = {
  invalid: 'Enter an amount in rupees, e.g. 1499',
  // As the product form says it of prices: a link asks for no more than a product may cost.
  tooHigh: `Amount must be at most ${formatRupees(MAX_PRICE_PAISE)}`,
} as const

/**
 * The admin's new payment link: the buyer's details as the payment form asks for them, the
 * product, an optional amount in rupees (blank: the product's price; at most MAX_PRICE_PAISE,
 * the most a product may cost), optionally the business its invoice is made out to (all
 * three details, or none), and whether to e-mail the link to the customer (a checkbox: "on"
 * when ticked, absent when not; the form ticks it to begin with).
 */
export const paymentLinkSchema = checkoutSchema
  .extend({
    ...optionalBusinessFields,
    productId: z.preprocess(
      (v) => (typeof v === 'string' ? v : ''),
      z.string().min(1, 'Choose a product'),
    ),
    amount: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : ''),
      z.union([
        z.literal(''),
        z
          .string()
          .refine((v) => (parseRupeesToPaise(v) ?? 0) > 0, PAYMENT_LINK_AMOUNT_MESSAGES.invalid)
          .refine(
            (v) => (parseRupeesToPaise(v) ?? 0) <= MAX_PRICE_PAISE,
            PAYMENT_LINK_AMOUNT_MESSAGES.tooHigh,
          ),
      ]),
    ),
    // Not required: unticked, the browser sends nothing.
    emailLink: z.preprocess((value) => value === 'on', z.boolean()).default(false),
  })
  .superRefine(refineOptionalBusiness)
