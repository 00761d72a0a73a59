import { z } from '~/lib/validation/zod'
import { parseRupeesToPaise } from '../money'
import { checkoutSchema } from './checkout'
import { optionalBusinessFields, refineOptionalBusiness } from './account-settings'

/**
 * The admin's new payment link: the buyer's details as the payment form asks for them, the
 * product, an optional amount in rupees (blank: the product's price), and optionally the
 * business its invoice is made out to (all three details, or none).
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
          .refine((v) => (parseRupeesToPaise(v) ?? 0) > 0, 'Enter an amount in rupees, e.g. 1499'),
      ]),
    ),
  })
  .superRefine(refineOptionalBusiness)
