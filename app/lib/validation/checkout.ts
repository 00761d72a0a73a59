import { displayNameText } from './auth'
import { z } from './zod'

/**
 * The payment form: name, e-mail and phone, with the spec's messages. The
 * browser checks it before submitting and the server checks it again in the action.
 * Nothing else is read from the form: the price comes from the database.
 */
export const CHECKOUT_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 100 characters',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  phoneRequired: 'Phone number is required',
  phoneInvalid: 'Please enter a valid 10-digit phone number',
} as const

/**
 * The form field telling which mode each way to pay was offered in when the page was rendered:
 * one `gatewayMode` value per gateway shown, `razorpay:test` or `razorpay:live` (test: "No
 * real money is charged"). A page loaded in test mode and sent after the shop went live (or the
 * other way round) is refused instead of charging what the buyer was not told
 * (docs/payments.md, "Choosing how to pay").
 */
export const GATEWAY_MODE_FIELD = 'gatewayMode'

export const PHONE_DIGITS = 10
/** A digit of another script than ASCII's (Devanagari, Bengali, Arabic-Indic...). */
const OTHER_SCRIPT_DIGIT = /(?![0-9])\p{Nd}/u

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** The way to pay, as checkout and a payment link's page send it. */
const paymentChoice = {
  // The gateway the buyer picked, when the shop offers a choice; used only if it is active.
  gateway: z.preprocess(
    (value) => (typeof value === 'string' && value ? value : undefined),
    z.string().max(20).optional(),
  ),
  // Gateways that could not start the payment in this attempt (the next one is offered).
  unavailable: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.string().max(20)).max(5),
  ),
}

/** A payment link's page: only the way to pay is chosen there (the link holds the rest). */
export const paymentChoiceSchema = z.object(paymentChoice)

export const checkoutSchema = z.object({
  // Sign-up's rule: invisible and direction-control characters do not count, so a name the
  // back office, the invoice and the mails show is never blank or reordered by them.
  name: z.preprocess(
    displayNameText,
    z
      .string()
      .trim()
      .min(1, CHECKOUT_MESSAGES.nameRequired)
      .max(100, CHECKOUT_MESSAGES.nameTooLong),
  ),
  email: z.preprocess(
    text,
    z
      .string()
      .trim()
      .min(1, CHECKOUT_MESSAGES.emailRequired)
      .max(254, CHECKOUT_MESSAGES.emailInvalid)
      .pipe(z.email(CHECKOUT_MESSAGES.emailInvalid))
      .transform((email) => email.toLowerCase()),
  ),
  // Ten digits after removing non-digits (docs/original-spec.md): "+91 98765-43210" is 12, and
  // so refused. A digit of another script is refused with the same message rather than dropped:
  // "98765०43210" (a Devanagari zero) would otherwise leave 9876543210, another number than the
  // buyer meant, the one WhatsApp delivery then goes to.
  phone: z.preprocess(
    text,
    z
      .string()
      .trim()
      .min(1, CHECKOUT_MESSAGES.phoneRequired)
      .refine((phone) => !OTHER_SCRIPT_DIGIT.test(phone), CHECKOUT_MESSAGES.phoneInvalid)
      .transform((phone) => phone.replace(/[^0-9]/g, ''))
      .pipe(z.string().length(PHONE_DIGITS, CHECKOUT_MESSAGES.phoneInvalid)),
  ),
  // The price (paise) shown next to Pay: an order is refused, not charged at another price, when
  // it changed since (NewOrder.shownPrice in app/data/order.server.ts). Absent or malformed:
  // not checked, as from a page that did not send it.
  shownPrice: z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : undefined),
    z.number().int().optional(),
  ),
  ...paymentChoice,
})

export type CheckoutInput = z.output<typeof checkoutSchema>
