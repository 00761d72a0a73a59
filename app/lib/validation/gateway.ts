import { z } from './zod'

/**
 * The admin Gateways form: gateway types, statuses and the
 * settings of each type. Shared by the form (browser) and the action (server).
 */
export const GATEWAY_TYPES = ['paytm', 'razorpay', 'stripe', 'paypal', 'phonepe'] as const
export type GatewayType = (typeof GATEWAY_TYPES)[number]
export const GATEWAY_STATUSES = ['testing', 'active', 'inactive'] as const
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number]

export const GATEWAY_TYPE_LABELS: Record<GatewayType, string> = {
  paytm: 'Paytm',
  razorpay: 'Razorpay',
  stripe: 'Stripe',
  paypal: 'PayPal',
  phonepe: 'PhonePe',
}

/** A gateway's name as people read it ("razorpay" → "Razorpay"); an unknown id as stored. */
export function gatewayLabel(id: string): string {
  return Object.hasOwn(GATEWAY_TYPE_LABELS, id) ? GATEWAY_TYPE_LABELS[id as GatewayType] : id
}

/**
 * The gateway's last answer in its own words: its status, code and message, each once (Razorpay's
 * status and code are both `captured` for a payment that went through).
 */
export function gatewayAnswer(order: {
  gatewayStatus: string | null
  gatewayRespCode: string | null
  gatewayRespMsg: string | null
}): string | null {
  if (!order.gatewayStatus) return null
  const parts = [order.gatewayStatus, order.gatewayRespCode, order.gatewayRespMsg].filter(
    (part): part is string => Boolean(part),
  )
  return parts
    .filter((part, i) => parts.findIndex((p) => p.toLowerCase() === part.toLowerCase()) === i)
    .join(' · ')
}

/**
 * How the buyer paid, in words, from each gateway's own code: Paytm's PAYMENTMODE (PPI, CC, DC,
 * NB, UPI), Razorpay's payment `method` (upi, card, netbanking, wallet, emi, ...) and PhonePe's
 * `paymentMode` (UPI_INTENT, UPI_COLLECT, UPI_QR, CARD, NET_BANKING, ...). An unknown code is
 * shown as the gateway sent it.
 */
const PAYMENT_MODE_LABELS = new Map<string, string>([
  ['upi', 'UPI'],
  ['upi_intent', 'UPI'],
  ['upi_collect', 'UPI'],
  ['upi_qr', 'UPI QR'],
  ['cc', 'Credit card'],
  ['dc', 'Debit card'],
  ['card', 'Card'],
  ['token', 'Saved card'],
  ['nb', 'Netbanking'],
  ['netbanking', 'Netbanking'],
  ['net_banking', 'Netbanking'],
  ['ppi', 'Paytm wallet'],
  ['wallet', 'Wallet'],
  ['emi', 'EMI'],
  ['cardless_emi', 'Cardless EMI'],
  ['paylater', 'Pay later'],
  ['bank_transfer', 'Bank transfer'],
])

export function paymentModeLabel(mode: string): string {
  return PAYMENT_MODE_LABELS.get(mode.toLowerCase()) ?? mode
}

export const GATEWAY_STATUS_LABELS: Record<GatewayStatus, string> = {
  testing: 'Testing',
  active: 'Active',
  inactive: 'Inactive',
}

/** The spec's alert on a bad save. */
export const GATEWAY_SAVE_FAILED = 'Failed to save gateway configuration'

export const PAYTM_WEBSITES = ['WEBSTAGING', 'DEFAULT'] as const
export const PAYTM_ENVIRONMENTS = ['staging', 'production'] as const
export const PHONEPE_ENVIRONMENTS = ['sandbox', 'production'] as const

export interface GatewayField {
  name: string
  label: string
  /** Stored encrypted, never sent back to the browser; blank on edit keeps the stored value. */
  secret?: boolean
  options?: readonly string[]
  /** Needed before the gateway can be made active. */
  credential?: boolean
  placeholder?: string
  hint?: string
  type?: 'text' | 'url'
}

export const GATEWAY_FIELDS: Record<GatewayType, readonly GatewayField[]> = {
  paytm: [
    {
      name: 'merchantId',
      label: 'Merchant ID',
      credential: true,
      placeholder: 'e.g. YOURMID12345678901',
    },
    {
      name: 'merchantKey',
      label: 'Merchant Key',
      secret: true,
      credential: true,
      hint: 'The 16-character key from the Paytm dashboard.',
    },
    { name: 'website', label: 'Website', options: PAYTM_WEBSITES },
    { name: 'environment', label: 'Environment', options: PAYTM_ENVIRONMENTS },
    {
      name: 'callbackUrl',
      label: 'Callback URL',
      type: 'url',
      hint: 'Leave blank to use this shop’s own callback address (recommended).',
    },
  ],
  razorpay: [
    { name: 'keyId', label: 'Key ID', credential: true, placeholder: 'rzp_test_...' },
    { name: 'keySecret', label: 'Key Secret', secret: true, credential: true },
    {
      name: 'webhookSecret',
      label: 'Webhook Secret',
      secret: true,
      credential: true,
      hint: 'The secret you set for this shop’s webhook in the Razorpay dashboard.',
    },
  ],
  stripe: [
    { name: 'apiKey', label: 'Publishable Key', credential: true, placeholder: 'pk_test_...' },
    { name: 'secretKey', label: 'Secret Key', secret: true, credential: true },
  ],
  // The original shows no settings for this type.
  paypal: [],
  phonepe: [
    {
      name: 'clientId',
      label: 'Client ID',
      credential: true,
      placeholder: 'From the PhonePe dashboard',
    },
    { name: 'clientSecret', label: 'Client Secret', secret: true, credential: true },
    {
      name: 'clientVersion',
      label: 'Client Version',
      credential: true,
      placeholder: '1',
      hint: 'The client version shown beside the client id (1 for most merchants).',
    },
    { name: 'environment', label: 'Environment', options: PHONEPE_ENVIRONMENTS },
    {
      name: 'webhookUsername',
      label: 'Webhook Username',
      credential: true,
      hint: 'The username you set for this shop’s webhook in the PhonePe dashboard.',
    },
    { name: 'webhookPassword', label: 'Webhook Password', secret: true, credential: true },
  ],
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
/** Blank, or text that passes `valid`. */
const optional = (valid: (value: string) => boolean, message: string) =>
  z.preprocess(
    text,
    z.string().refine((value) => value === '' || valid(value), message),
  )
const matching = (pattern: RegExp) => (value: string) => pattern.test(value)

const fieldSchemas: Record<GatewayType, z.ZodObject> = {
  paytm: z.object({
    merchantId: optional(
      matching(/^[A-Za-z0-9]{1,20}$/),
      'Merchant ID is letters and digits, at most 20 characters',
    ),
    // Keys are not trimmed: every character of the 16 counts.
    merchantKey: z.preprocess(
      (value) => (typeof value === 'string' ? value : ''),
      z
        .string()
        .refine(
          (value) => value === '' || value.length === 16,
          'Merchant Key must be exactly 16 characters',
        ),
    ),
    website: z.preprocess(
      (value) => text(value) || 'WEBSTAGING',
      z.enum(PAYTM_WEBSITES, { error: 'Choose WEBSTAGING or DEFAULT' }),
    ),
    environment: z.preprocess(
      (value) => text(value) || 'staging',
      z.enum(PAYTM_ENVIRONMENTS, { error: 'Choose staging or production' }),
    ),
    callbackUrl: optional(matching(/^https?:\/\/[^\s|"<>]{1,240}$/), 'Enter an http(s) URL'),
  }),
  razorpay: z.object({
    keyId: optional(
      matching(/^rzp_(test|live)_[A-Za-z0-9]{4,40}$/),
      'Key ID looks like rzp_test_... or rzp_live_...',
    ),
    keySecret: optional((value) => value.length <= 100, 'Key Secret is at most 100 characters'),
    webhookSecret: optional(
      (value) => value.length <= 100,
      'Webhook Secret is at most 100 characters',
    ),
  }),
  stripe: z.object({
    apiKey: optional(
      matching(/^pk_(test|live)_[A-Za-z0-9]{4,200}$/),
      'Publishable Key looks like pk_test_... or pk_live_...',
    ),
    secretKey: optional(
      matching(/^(sk|rk)_(test|live)_[A-Za-z0-9]{4,200}$/),
      'Secret Key looks like sk_test_... or sk_live_...',
    ),
  }),
  paypal: z.object({}),
  phonepe: z.object({
    clientId: optional(
      matching(/^[A-Za-z0-9_.-]{1,100}$/),
      'Client ID is letters, digits, dots, dashes and underscores, at most 100 characters',
    ),
    clientSecret: optional(
      (value) => value.length <= 200,
      'Client Secret is at most 200 characters',
    ),
    clientVersion: z.preprocess(
      (value) => text(value) || '1',
      z.string().regex(/^[0-9]{1,10}$/, 'Client Version is a number such as 1'),
    ),
    environment: z.preprocess(
      (value) => text(value) || 'sandbox',
      z.enum(PHONEPE_ENVIRONMENTS, { error: 'Choose sandbox or production' }),
    ),
    webhookUsername: optional(
      (value) => value.length <= 100 && !value.includes(':'),
      'Webhook Username is at most 100 characters, without a colon',
    ),
    webhookPassword: optional(
      (value) => value.length <= 100,
      'Webhook Password is at most 100 characters',
    ),
  }),
}

export const gatewayBaseSchema = z.object({
  name: z.preprocess(
    text,
    z.string().min(1, 'Name is required').max(60, 'Name is at most 60 characters'),
  ),
  type: z.enum(GATEWAY_TYPES, { error: 'Choose a gateway type' }),
  status: z.enum(GATEWAY_STATUSES, { error: 'Choose a status' }),
})

export type GatewayFieldErrors = Partial<Record<string, string>>

export interface GatewayFormData {
  name: string
  type: GatewayType
  status: GatewayStatus
  /** Every field of the type; secrets as typed ('' = keep the stored value). */
  fields: Record<string, string>
}

/** One gateway type's form: the common fields, its own settings, add or edit. */
function gatewayForm<Type extends GatewayType>(type: Type) {
  return gatewayBaseSchema.extend({
    ...fieldSchemas[type].shape,
    type: z.literal(type),
    mode: z.preprocess((value) => (value === 'edit' ? 'edit' : 'add'), z.enum(['add', 'edit'])),
    id: z.preprocess(text, z.string()),
  })
}

/**
 * The add/edit gateway form, one branch per type (the type decides which settings are read).
 * A type that is not one of ours is a message on the type, not an error page.
 */
export const gatewaySchema = z.discriminatedUnion(
  'type',
  [
    gatewayForm('paytm'),
    gatewayForm('razorpay'),
    gatewayForm('stripe'),
    gatewayForm('paypal'),
    gatewayForm('phonepe'),
  ],
  { error: 'Choose a gateway type' },
)

/** The parsed form as the data layer takes it: the type's settings under `fields`. */
export function gatewayFormData(value: z.output<typeof gatewaySchema>): GatewayFormData {
  const { name, type, status, mode: _mode, id: _id, ...fields } = value
  return { name, type, status, fields: fields as Record<string, string> }
}
