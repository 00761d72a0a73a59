import { z } from '~/lib/validation/zod'
import { formatRupees, paiseToDecimalText, parseRupeesToPaise } from '../money'
import { checkoutSchema } from './checkout'
import { optionalBusinessFields, refineOptionalBusiness } from './account-settings'
import { MAX_PRICE_PAISE } from './product'

/**
 * The smallest amount a link may ask for: Razorpay and PhonePe take no payment under ₹1.00
 * ("needs an amount of at least ₹1.00" at pay time), so a smaller link could never be paid.
 */
export const PAYMENT_LINK_MIN_PAISE = 100

export const PAYMENT_LINK_AMOUNT_MESSAGES = {
  invalid: 'Enter an amount in rupees, e.g. 1499',
  tooLow: `Amount must be at least ₹${paiseToDecimalText(PAYMENT_LINK_MIN_PAISE)}`,
  // As the product form says it of prices: a link asks for no more than a product may cost.
  tooHigh: `Amount must be at most ${formatRupees(MAX_PRICE_PAISE)}`,
} as const

/**
 * A blank amount asks for the product's price, which may be under the least a link may ask for:
 * the create form says so on its amount field and makes nothing (docs/payments.md, "Payment
 * links").
 */
export function productPriceTooLowMessage(pricePaise: number): string {
  return `This product costs ${formatRupees(pricePaise)}; enter an amount of at least ₹${paiseToDecimalText(PAYMENT_LINK_MIN_PAISE)}`
}

/**
 * The create form's one-time key: made when the page is shown (newId in app/lib/id.server.ts)
 * and carried unseen by the form, it becomes the new link's id, so the same form sent twice (a
 * reload of the answer, a double tap) makes one link and sends one mail (docs/admin.md,
 * "Payment links"), as the order page's refund form does with its refund key.
 */
export const PAYMENT_LINK_KEY_PATTERN = /^[a-z2-7]{20}$/

/** A create form without a key the page made (a page from before keys, or a post by hand). */
export const PAYMENT_LINK_KEY_MESSAGE = 'This form has expired. Reload the page and try again.'

/**
 * The create form's key after a load of the page: the key it had, until the page shows the link
 * that key made (the key is the link's id), when the form empties and takes the key that load
 * brought. Every load brings a new key, and Cancel and Send by e-mail reload the page, so a form
 * filled in keeps its key, and so does one sent whose answer was lost to a Cancel pressed
 * meanwhile: sent again, it makes no second link and sends no second mail (docs/payments.md,
 * "Payment links"). A link made by another tab of the same browser leaves it as it is.
 */
export function linkFormKeyAfterLoad(
  key: string,
  loaded: { linkKey: string; createdId: string | null },
): string {
  return loaded.createdId === key ? loaded.linkKey : key
}

/**
 * The admin's new payment link: the buyer's details as the payment form asks for them, the
 * product, an optional amount in rupees (blank: the product's price; at least
 * PAYMENT_LINK_MIN_PAISE, ₹1.00, and at most MAX_PRICE_PAISE, the most a product may cost),
 * optionally the business its invoice is made out to (all three details, or none), and whether
 * to e-mail the link to the customer (a checkbox: "on" when ticked, absent when not; the form
 * ticks it to begin with). The form's one-time key is checked apart (PAYMENT_LINK_KEY_PATTERN).
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
          .refine((v) => parseRupeesToPaise(v) !== null, PAYMENT_LINK_AMOUNT_MESSAGES.invalid)
          .refine(
            (v) => (parseRupeesToPaise(v) ?? PAYMENT_LINK_MIN_PAISE) >= PAYMENT_LINK_MIN_PAISE,
            PAYMENT_LINK_AMOUNT_MESSAGES.tooLow,
          )
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
