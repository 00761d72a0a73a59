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

export const PHONE_DIGITS = 10

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
  name: z.preprocess(
    text,
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
  // "+91 98765-43210" is 12 digits once the rest is removed: the spec wants exactly ten.
  phone: z.preprocess(
    text,
    z
      .string()
      .trim()
      .min(1, CHECKOUT_MESSAGES.phoneRequired)
      .transform((phone) => phone.replace(/\D/g, ''))
      .pipe(z.string().length(PHONE_DIGITS, CHECKOUT_MESSAGES.phoneInvalid)),
  ),
  ...paymentChoice,
})

export type CheckoutInput = z.output<typeof checkoutSchema>
