import { formatRupees, parseRupeesToPaise } from '~/lib/money'
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
/** Razorpay keeps notes of at most 256 characters; Paytm keeps none. */
export const REFUND_REASON_MAX = 250
/** The smallest refund the gateways take (Razorpay: ₹1.00). */
export const REFUND_MIN_PAISE = 100
/** Our refund id, made when the page is shown and carried by the form: one refund per form. */
export const REFUND_KEY_PATTERN = /^RFD_[a-z2-7]{20}$/

export const ORDER_INPUT_MESSAGES = {
  refundNoteRequired: "Enter a note, such as the refund reference from the gateway's dashboard.",
  refundNoteTooLong: `Please keep the note to at most ${REFUND_NOTE_MAX} characters.`,
  replyRequired: 'Write a reply to the buyer.',
  replyTooLong: `Please keep the reply to at most ${REPLY_MAX.toLocaleString('en-IN')} characters.`,
  reasonTooLong: `Please keep the reason to at most ${REPLACE_REASON_MAX} characters.`,
  refundAmountRequired: 'Enter the amount to refund.',
  refundAmountInvalid: 'Enter an amount in rupees, such as 1499 or 249.50.',
  refundAmountTooPrecise: 'Use at most two decimals (paise), such as 249.50.',
  refundAmountTooSmall: `Enter at least ${formatRupees(REFUND_MIN_PAISE)}.`,
  refundReasonTooLong: `Please keep the reason to at most ${REFUND_REASON_MAX} characters.`,
  refundKeyInvalid: 'This form has expired. Reload the page and try again.',
} as const

/**
 * What the action answers for an amount above what is left to refund (requestGatewayRefund in
 * app/services/payment/refunds.server.ts); the page's form says the same before it asks.
 */
export function refundAmountTooMuch(leftPaise: number): string {
  return leftPaise > 0
    ? `At most ${formatRupees(leftPaise)} is left to refund on this order.`
    : 'Everything paid for this order has been refunded or is being refunded already.'
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** A rupee amount with more than two decimals ("249.505"): paise are the smallest unit. */
const TOO_MANY_DECIMALS = /^[\d,]*\.\d{3,}$/

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

/** One action's form: its intent, the fields the admin types, and the confirmation. */
function actionForm<const Intent extends string, Fields extends z.core.$ZodLooseShape>(
  intent: Intent,
  fields: Fields,
) {
  return z.object({ intent: z.literal(intent), ...fields, confirmed })
}

export const confirmPaymentSchema = actionForm('confirm', {})
/**
 * What the forms that replace the item post as `currentItemId` when the page showed no live
 * item. Not empty: the confirmation step without JavaScript (ConfirmPanel) leaves empty fields
 * out, and a form without the field is taken for one that does not say.
 */
export const NO_LIVE_ITEM = 'none'

/**
 * The live item's id as the page showed it, posted by the forms that replace it: a replacement
 * made meanwhile (another admin, another tab, a second click) is then refused instead of replacing
 * that one too (docs/delivery.md, "The shop's side"). NO_LIVE_ITEM (or empty) when the page
 * showed none, read as null, so that a replacement made since is refused as well; only a form
 * without the field is undefined.
 */
const currentItemId = z.preprocess((value) => {
  if (typeof value !== 'string') return undefined
  const id = value.trim()
  return id === '' || id === NO_LIVE_ITEM ? null : id
}, z.string().max(64).nullable().optional())

export const deliverSchema = actionForm('deliver', {
  secret: z.preprocess(text, manualSecretSchema),
  currentItemId,
  /** The form the admin saw: 'no' delivers an order not yet delivered, 'yes' replaces details. */
  replacing: z.preprocess(
    (value) => (value === 'yes' || value === 'no' ? value : undefined),
    z.enum(['yes', 'no']).optional(),
  ),
})
export const replaceSchema = actionForm('replace', {
  currentItemId,
  reason: z.preprocess(
    text,
    z.string().trim().max(REPLACE_REASON_MAX, ORDER_INPUT_MESSAGES.reasonTooLong),
  ),
})
export const refundSchema = actionForm('refund', { note: z.preprocess(text, refundNoteText) })
/**
 * The refund's amount in rupees (with paise): at least REFUND_MIN_PAISE, and, where the form
 * knows what is left to refund (`leftPaise`), at most that. The action checks the amount left
 * itself, in the transaction that writes the refund.
 */
function refundAmount(leftPaise?: number) {
  return z.preprocess(
    text,
    z
      .string()
      .trim()
      .min(1, ORDER_INPUT_MESSAGES.refundAmountRequired)
      .superRefine((value, context) => {
        if (value === '') return
        const paise = parseRupeesToPaise(value)
        const message =
          paise !== null
            ? paise < REFUND_MIN_PAISE
              ? ORDER_INPUT_MESSAGES.refundAmountTooSmall
              : leftPaise !== undefined && paise > leftPaise
                ? refundAmountTooMuch(leftPaise)
                : null
            : TOO_MANY_DECIMALS.test(value)
              ? ORDER_INPUT_MESSAGES.refundAmountTooPrecise
              : ORDER_INPUT_MESSAGES.refundAmountInvalid
        if (message) context.addIssue({ code: 'custom', message })
      }),
  )
}

/** A refund through the gateway's API: an amount in rupees (with paise) and a reason. */
function gatewayRefundForm(leftPaise?: number) {
  return actionForm('gateway-refund', {
    refundKey: z.preprocess(
      text,
      z.string().regex(REFUND_KEY_PATTERN, ORDER_INPUT_MESSAGES.refundKeyInvalid),
    ),
    amount: refundAmount(leftPaise),
    reason: z.preprocess(
      text,
      z.string().trim().max(REFUND_REASON_MAX, ORDER_INPUT_MESSAGES.refundReasonTooLong),
    ),
  })
}
export const gatewayRefundSchema = gatewayRefundForm()
/** The order page's Refund form, which also refuses more than the `leftPaise` it shows. */
export const gatewayRefundSchemaUpTo = (leftPaise: number) => gatewayRefundForm(leftPaise)
export const resendSchema = actionForm('resend', {})
export const replySchema = actionForm('reply', { reply: z.preprocess(text, replyText) })
export const creditNoteSchema = actionForm('credit-note', {})

/** Every recovery action the order page posts, told apart by its intent. */
export const orderActionSchema = z.discriminatedUnion('intent', [
  confirmPaymentSchema,
  deliverSchema,
  replaceSchema,
  refundSchema,
  gatewayRefundSchema,
  resendSchema,
  replySchema,
  creditNoteSchema,
])

export type OrderActionInput = z.output<typeof orderActionSchema>
export type OrderActionIntent = OrderActionInput['intent']
/** The fields an action's form carries besides its intent. */
export type OrderActionField =
  'secret' | 'reason' | 'note' | 'reply' | 'amount' | 'refundKey' | 'replacing' | 'currentItemId'

/** Each intent's own schema, for its form in the browser. */
export const ORDER_ACTION_SCHEMAS = {
  confirm: confirmPaymentSchema,
  deliver: deliverSchema,
  replace: replaceSchema,
  refund: refundSchema,
  'gateway-refund': gatewayRefundSchema,
  resend: resendSchema,
  reply: replySchema,
  'credit-note': creditNoteSchema,
} as const satisfies Record<OrderActionIntent, z.ZodType>

export const ORDER_ACTION_INTENTS = Object.keys(ORDER_ACTION_SCHEMAS) as OrderActionIntent[]

/** The first message a value gets from a field schema, or null when it passes. */
export function firstProblem(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value)
  return result.success ? null : (result.error.issues[0]?.message ?? null)
}
