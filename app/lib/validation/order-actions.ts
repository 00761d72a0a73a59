import { MANUAL_SECRET_MESSAGES, MAX_ITEM_LENGTH, parseManualSecret } from '~/lib/stock-parse'
import { z } from '~/lib/validation/zod'

/**
 * The admin order page's recovery actions (docs/admin.md), one form each, told apart by their
 * intent: the limits and messages of what the admin types, shared by the browser (checked
 * before the confirmation is asked) and the action (checked again). Browser safe.
 */

export const REFUND_NOTE_MAX = 500
export const REPLY_MAX = 2000
export const REPLACE_REASON_MAX = 500

export const ORDER_INPUT_MESSAGES = {
  refundNoteRequired: 'Enter a note, such as the refund reference from the Paytm dashboard.',
  refundNoteTooLong: `Please keep the note under ${REFUND_NOTE_MAX} characters.`,
  replyRequired: 'Write a reply to the buyer.',
  replyTooLong: `Please keep the reply under ${REPLY_MAX.toLocaleString('en-IN')} characters.`,
  reasonTooLong: `Please keep the reason under ${REPLACE_REASON_MAX} characters.`,
} as const

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** The refund's reference, trimmed: required, at most REFUND_NOTE_MAX. */
export const refundNoteText = z
  .string()
  .trim()
  .min(1, ORDER_INPUT_MESSAGES.refundNoteRequired)
  .max(REFUND_NOTE_MAX, ORDER_INPUT_MESSAGES.refundNoteTooLong)

/** A reply to the buyer's report, trimmed: required, at most REPLY_MAX. */
export const replyText = z
  .string()
  .trim()
  .min(1, ORDER_INPUT_MESSAGES.replyRequired)
  .max(REPLY_MAX, ORDER_INPUT_MESSAGES.replyTooLong)

/** Details typed for a delivery by hand, as `parseManualSecret` reads them. */
const manualSecretSchema = z
  .string()
  .min(1, MANUAL_SECRET_MESSAGES.empty)
  .max(MAX_ITEM_LENGTH, MANUAL_SECRET_MESSAGES.tooLong)
  .superRefine((value, context) => {
    // The length was already refused above; everything else is parseManualSecret's to say.
    if (value === '' || value.length > MAX_ITEM_LENGTH) return
    const parsed = parseManualSecret(value)
    if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.error })
  })

/** 'yes' once the admin has answered the confirmation (the dialog, or the page without JavaScript). */
const confirmed = z.preprocess(text, z.string())

export const confirmPaymentSchema = z.object({ intent: z.literal('confirm'), confirmed })
export const deliverSchema = z.object({
  intent: z.literal('deliver'),
  secret: z.preprocess(text, manualSecretSchema),
  confirmed,
})
export const replaceSchema = z.object({
  intent: z.literal('replace'),
  reason: z.preprocess(
    text,
    z.string().trim().max(REPLACE_REASON_MAX, ORDER_INPUT_MESSAGES.reasonTooLong),
  ),
  confirmed,
})
export const refundSchema = z.object({
  intent: z.literal('refund'),
  note: z.preprocess(text, refundNoteText),
  confirmed,
})
export const resendSchema = z.object({ intent: z.literal('resend'), confirmed })
export const replySchema = z.object({
  intent: z.literal('reply'),
  reply: z.preprocess(text, replyText),
  confirmed,
})

/** Every recovery action the order page posts, told apart by its intent. */
export const orderActionSchema = z.discriminatedUnion('intent', [
  confirmPaymentSchema,
  deliverSchema,
  replaceSchema,
  refundSchema,
  resendSchema,
  replySchema,
])

export type OrderActionInput = z.output<typeof orderActionSchema>
export type OrderActionIntent = OrderActionInput['intent']
/** The one field an action's form carries besides its intent, if any. */
export type OrderActionField = 'secret' | 'reason' | 'note' | 'reply'

/** Each intent's own schema, for its form in the browser. */
export const ORDER_ACTION_SCHEMAS = {
  confirm: confirmPaymentSchema,
  deliver: deliverSchema,
  replace: replaceSchema,
  refund: refundSchema,
  resend: resendSchema,
  reply: replySchema,
} as const satisfies Record<OrderActionIntent, z.ZodType>

export const ORDER_ACTION_INTENTS = Object.keys(ORDER_ACTION_SCHEMAS) as OrderActionIntent[]

/** The first message a value gets from a field schema, or null when it passes. */
export function firstProblem(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value)
  return result.success ? null : (result.error.issues[0]?.message ?? null)
}
