import { z } from 'zod'

/**
 * The payment form (spec section 5): name, e-mail and phone, with the spec's messages. The
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
})

export type CheckoutInput = z.output<typeof checkoutSchema>
export type CheckoutFieldErrors = Partial<Record<keyof CheckoutInput | 'form', string>>

/** Checks the payment form; the first message per field, as the form shows them. */
export function parseCheckoutForm(
  values: FormData | Record<string, unknown>,
): { data: CheckoutInput; errors: null } | { data: null; errors: CheckoutFieldErrors } {
  const raw = values instanceof FormData ? Object.fromEntries(values) : values
  const result = checkoutSchema.safeParse(raw)
  if (result.success) return { data: result.data, errors: null }
  const errors: CheckoutFieldErrors = {}
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? 'form') as keyof CheckoutFieldErrors
    errors[key] ??= issue.message
  }
  return { data: null, errors }
}
