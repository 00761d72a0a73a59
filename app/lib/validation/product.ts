import { href } from 'react-router'
import { z } from './zod'
import { SEARCH_MAX } from '~/lib/list-search'
import { discountPercent, formatRupees, parseRupeesToPaise } from '~/lib/money'
import { slugify } from '~/lib/slug'

/**
 * The admin product form: every rule in one schema, checked by
 * the browser before it submits and again by the action on the server. Prices are typed in
 * rupees and come out in paise, exactly (no floating point). Browser-safe: no server imports.
 */

/** As long as one stock item may be (MAX_ITEM_LENGTH in app/lib/stock-parse.ts). */
export const SHARED_SECRET_MAX_LENGTH = 4_000

/**
 * The largest price the form takes, in paise: ₹99,99,999.99, the most Paytm's TXN_AMOUNT can say
 * in its 10 characters ("9999999.99", the rule in app/lib/payments/paytm.server.ts; ₹1 crore would be
 * "10000000.00", 11). It also fits the 32-bit integer columns amounts are stored in. Payment
 * links take the same limit (app/lib/validation/payment-link.ts).
 */
export const MAX_PRICE_PAISE = 999_999_999

export const PRODUCT_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: 'Title must be at most 200 characters',
  slugRequired: 'Slug is required: use letters or digits (a-z, 0-9)',
  slugTooLong: 'Slug must be at most 200 characters',
  slugTaken: 'This slug is already used by another product. Change the title or the slug.',
  descriptionRequired: 'Description is required',
  descriptionTooLong: 'Description must be at most 10,000 characters',
  shortDescriptionRequired: 'Short description is required',
  shortDescriptionTooLong: 'Short description must be at most 500 characters',
  imageRequired: 'Product image is required',
  buyNowLinkInvalid: 'Buy now link must be a valid URL starting with https:// or http://',
  categoryRequired: 'Category is required',
  categoryUnknown: 'Choose one of the listed categories',
  priceRequired: 'Price must be greater than 0',
  originalPriceRequired: 'Original price must be greater than 0',
  originalPriceBelowPrice:
    'Original price must be at least the price; enter the same amount when there is no discount',
  amountInvalid: 'Enter an amount in rupees, such as 499 or 499.50',
  amountTooHigh: `Amounts must be at most ${formatRupees(MAX_PRICE_PAISE)}`,
  tagsTooMany: 'Use at most 20 tags',
  tagTooLong: 'Each tag must be at most 50 characters',
  keywordsTooMany: 'Use at most 30 keywords',
  keywordTooLong: 'Each keyword must be at most 100 characters',
  featuresTooMany: 'Use at most 30 features',
  featureTooLong: 'Each feature must be at most 200 characters',
  metaTitleTooLong: 'Meta title must be at most 200 characters',
  metaDescriptionTooLong: 'Meta description must be at most 500 characters',
  validityTooLong: 'Validity must be at most 100 characters',
  deliveryTimeTooLong: 'Delivery time must be at most 100 characters',
  // Delivery.
  deliveryModeRequired: 'Choose how this product is delivered',
  sharedSecretRequired: 'Enter the shared secret: a shared product delivers it to every buyer',
  sharedSecretTooLong: `The shared secret must be at most ${SHARED_SECRET_MAX_LENGTH.toLocaleString('en-IN')} characters`,
  // Outcomes.
  created: 'Product created successfully!',
  createFailed: 'Failed to create product. Please try again.',
  updated: 'Product updated successfully!',
  // The spec's two edit failures: a save the database did not make, and a save that threw.
  updateFailed: 'Failed to update product. Please try again.',
  updateError: 'An error occurred while updating the product.',
  // An edit saved over another admin's change would undo it: refused (docs/admin.md).
  staleEdit:
    'This product was changed by someone else since you opened it, so nothing was saved. Reload the page to see the changes, then edit again.',
  // A form posted without the version of the product it showed (a page from an older release).
  editExpired: 'This form is out of date, so nothing was saved. Reload the page, then edit again.',
  loading: 'Loading product...',
  idMissing: 'Product ID not found',
  notFound: 'Product not found',
  notFoundTitle: 'Product Not Found',
  backToProducts: 'Back to Products',
  deleted: 'Product deleted successfully!',
  deleteFailed: 'Failed to delete product. Please try again.',
  // Trying again cannot help: the product is gone (the list's delete, docs/admin.md).
  deleteGone: 'This product no longer exists: it may have been deleted by another admin.',
  duplicateFailed: 'Failed to duplicate product. Please try again.',
  duplicateSourceMissing: 'Original product not found',
  noProducts: 'No Products Found',
} as const

/**
 * The delete question. A product's reviews, hidden ones included, are deleted with it (their
 * foreign key cascades), so the question names how many when there are any (docs/admin.md).
 */
export function deleteConfirmation(title: string, reviews = 0): string {
  const count = reviews.toLocaleString('en-IN')
  const withReviews =
    reviews === 1
      ? ' Its 1 review is deleted with it.'
      : reviews > 1
        ? ` Its ${count} reviews are deleted with it.`
        : ''
  return `Are you sure you want to delete "${title}"?${withReviews} This action cannot be undone.`
}

/**
 * Where a product's unpaid payment links are: the Payment Links page searched for the product's
 * name, active links only. Cut to the search box's length; a search finds the links by the name
 * they were made for or by the product's name now (app/data/payment-link.server.ts).
 */
function activePaymentLinksPath(title: string): string {
  const query = new URLSearchParams({ status: 'active', q: title.trim().slice(0, SEARCH_MAX) })
  return `${href('/admin/payment-links')}?${query.toString()}`
}

/**
 * Why a product buyers are still owed or about to pay is not deleted
 * (app/services/product-admin.server.ts), and what releases it: an open order once it is
 * delivered, refunded or expired, an unpaid payment link only once an admin cancels it. The
 * message is shown as plain text (a toast, or a line without JavaScript), so it names the
 * filtered list's address in words rather than as a link: the links to cancel may be far down
 * the unfiltered list.
 */
export function openSalesMessage(title: string, open: { orders: number; paymentLinks: number }) {
  const parts = [
    open.orders === 1 ? '1 order is still being paid or delivered' : '',
    open.orders > 1 ? `${open.orders} orders are still being paid or delivered` : '',
    open.paymentLinks === 1 ? '1 payment link is not paid yet' : '',
    open.paymentLinks > 1 ? `${open.paymentLinks} payment links are not paid yet` : '',
  ].filter(Boolean)
  const links = `(${activePaymentLinksPath(title)})`
  const advice = [
    open.paymentLinks === 1 ? `Cancel the link on the Payment Links page ${links}.` : '',
    open.paymentLinks > 1 ? `Cancel the links on the Payment Links page ${links}.` : '',
    open.orders === 1 ? 'Try again once the order is delivered, refunded or expired.' : '',
    open.orders > 1 ? 'Try again once the orders are delivered, refunded or expired.' : '',
  ].filter(Boolean)
  return `"${title}" was not deleted: ${parts.join(' and ')}. ${advice.join(' ')}`
}
export const duplicatedMessage = (title: string) => `"${title}" duplicated successfully!`

// ---------------------------------------------------------------------------------------
// Images

export const IMAGE_MESSAGES = {
  invalidType: 'Please select a valid image file (JPEG, PNG, WebP)',
  tooLarge: 'Image size should be less than 5MB',
  uploadFailed: 'Failed to upload image. Please try again.',
  invalidUrl: 'Invalid image URL',
} as const

/** 5 MB: a file of exactly this many bytes is accepted, one more byte is not. */
export const IMAGE_MAX_BYTES = 5_242_880
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'] as const
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'] as const
/** For <input type="file" accept>. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp'

export type ImageType = 'jpeg' | 'png' | 'webp'
export const IMAGE_TYPE_EXTENSION: Record<ImageType, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
}
export const IMAGE_TYPE_MIME: Record<ImageType, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
}

/** How many leading bytes detectImageType needs. */
export const IMAGE_SIGNATURE_BYTES = 12

/**
 * The image type from the file's first bytes (its "magic number"), never from its name:
 * JPEG starts FF D8 FF, PNG with its 8-byte signature, WebP is a RIFF container of type WEBP.
 */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const starts = (signature: readonly number[], offset = 0) =>
    bytes.length >= offset + signature.length &&
    signature.every((byte, index) => bytes[offset + index] === byte)
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg'
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  // "RIFF" <4-byte size> "WEBP"
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp'
  return null
}

/** What the browser can tell before uploading: the declared type or the name's extension. */
export function looksLikeAllowedImage(file: { name: string; type: string }): boolean {
  if (file.type) return (IMAGE_MIME_TYPES as readonly string[]).includes(file.type.toLowerCase())
  const extension = file.name.toLowerCase().split('.').pop() ?? ''
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extension)
}

/**
 * The checks both sides make on a chosen file, in the spec's order: type, then size.
 * `head` is the file's first IMAGE_SIGNATURE_BYTES bytes (or more).
 */
export function checkImageFile(
  file: { name: string; type: string; size: number },
  head: Uint8Array,
): string | null {
  if (!looksLikeAllowedImage(file) || !detectImageType(head)) return IMAGE_MESSAGES.invalidType
  if (file.size > IMAGE_MAX_BYTES) return IMAGE_MESSAGES.tooLarge
  return null
}

/**
 * Our stored product images are storage keys under products/ (products/{timestamp}_{random}.png,
 * and the demo catalogue's products/demo_*.webp). Absolute http(s) URLs of images hosted
 * elsewhere are accepted as they are, but never deleted.
 */
export const PRODUCT_IMAGE_KEY = /^products\/[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/
export const isProductImageKey = (value: string) =>
  PRODUCT_IMAGE_KEY.test(value) && !value.includes('..')
export const isAbsoluteHttpUrl = (value: string) => /^https?:\/\/[^\s]+$/i.test(value)

// ---------------------------------------------------------------------------------------
// Lists typed as comma text

/** "a, b,, c " -> ['a', 'b', 'c']: split on commas, trimmed, blanks and repeats dropped. */
export function parseCommaList(text: string): string[] {
  const seen = new Set<string>()
  const items: string[] = []
  for (const part of text.split(',')) {
    const item = part.trim()
    const key = item.toLowerCase()
    if (!item || seen.has(key)) continue
    seen.add(key)
    items.push(item)
  }
  return items
}

/** The features list as it is submitted: trimmed, blanks dropped. */
export function cleanFeatures(features: readonly string[]): string[] {
  return features.map((feature) => feature.trim()).filter(Boolean)
}

/** Adds a feature typed into the "add" box (trimmed; an empty one is ignored). */
export function addFeature(features: readonly string[], typed: string): string[] {
  const feature = typed.trim()
  return feature ? [...features, feature] : [...features]
}

// ---------------------------------------------------------------------------------------
// Prices

/** Paise from rupee text, or why not. Empty, zero and negative amounts are "not above 0". */
export function parsePriceInput(
  text: string,
): { paise: number } | { error: 'required' | 'invalid' | 'tooHigh' } {
  const trimmed = text.trim()
  if (!trimmed || /^-/.test(trimmed)) return { error: 'required' }
  const paise = parseRupeesToPaise(trimmed)
  if (paise === null) return { error: 'invalid' }
  if (paise <= 0) return { error: 'required' }
  if (paise > MAX_PRICE_PAISE) return { error: 'tooHigh' }
  return { paise }
}

/** Paise as the form shows them: "499" or "499.50". */
export function paiseToInput(paise: number): string {
  if (paise % 100 === 0) return String(paise / 100)
  return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`
}

/** The read-only Discount field: recomputed from what is typed (0 until both are valid). */
export function discountFromInputs(priceText: string, originalText: string): number {
  const price = parsePriceInput(priceText)
  const original = parsePriceInput(originalText)
  if (!('paise' in price) || !('paise' in original)) return 0
  return discountPercent(price.paise, original.paise)
}

// ---------------------------------------------------------------------------------------
// The schema

export const META_TITLE_ADVISED = 60
export const META_DESCRIPTION_ADVISED = 160
export const DEFAULT_CATEGORY = 'Streaming'
export const DEFAULT_VALIDITY = '12 months'
export const DEFAULT_DELIVERY_TIME = 'Instant delivery'

const text = (value: unknown) => (typeof value === 'string' ? value : '')
/** Whitespace-only counts as empty. */
const trimmed = (max: number, tooLong: string) =>
  z.preprocess(text, z.string().trim().max(max, tooLong))
const required = (message: string, max: number, tooLong: string) =>
  z.preprocess(text, z.string().trim().min(1, message).max(max, tooLong))

function price(requiredMessage: string) {
  return z.preprocess(text, z.string()).transform((value, ctx) => {
    const parsed = parsePriceInput(value)
    if ('paise' in parsed) return parsed.paise
    ctx.addIssue({
      code: 'custom',
      message:
        parsed.error === 'required'
          ? requiredMessage
          : parsed.error === 'invalid'
            ? PRODUCT_MESSAGES.amountInvalid
            : PRODUCT_MESSAGES.amountTooHigh,
    })
    return z.NEVER
  })
}

/**
 * A list's limits, reported on the list itself (the field the admin typed it in), not on an
 * item: too many items, or one item too long.
 */
const limitedList = (maxItems: number, tooMany: string, maxLength: number, tooLong: string) =>
  z
    .array(z.string())
    .max(maxItems, tooMany)
    .refine((items) => items.every((item) => item.length <= maxLength), tooLong)

function commaList(maxItems: number, tooMany: string, maxLength: number, tooLong: string) {
  return z
    .preprocess(text, z.string())
    .transform(parseCommaList)
    .pipe(limitedList(maxItems, tooMany, maxLength, tooLong))
}

const checkbox = z.preprocess(
  (value) => value === 'on' || value === 'true' || value === true,
  z.boolean(),
)

// ---------------------------------------------------------------------------------------
// Delivery (docs/delivery.md)

/** How a paid order gets what it paid for; new products are sold from stock. */
export const DELIVERY_MODES = ['stock', 'shared', 'manual'] as const
export type ProductDeliveryMode = (typeof DELIVERY_MODES)[number]
export const DEFAULT_DELIVERY_MODE: ProductDeliveryMode = 'stock'

const DELIVERY_FIELDS = new Set(['deliveryMode', 'sharedSecret', 'clearSharedSecret'])
/** The two prices, compared once each is a valid amount. */
const PRICE_FIELDS = new Set(['price', 'originalPrice'])

export interface ProductFormOptions {
  /** The product already has a shared secret (edit): an empty secret field keeps it. */
  hasSavedSharedSecret?: boolean
}

/**
 * What to save with setProductDelivery (app/data/stock.server.ts): the mode and, for the
 * shared secret, a new text, null to clear it, or undefined to keep what is saved.
 */
export function deliveryFromForm(output: {
  deliveryMode: ProductDeliveryMode
  sharedSecret: string
  clearSharedSecret: boolean
}): { mode: ProductDeliveryMode; sharedSecret?: string | null } {
  if (output.deliveryMode === 'shared' && output.sharedSecret) {
    return { mode: 'shared', sharedSecret: output.sharedSecret }
  }
  return output.clearSharedSecret
    ? { mode: output.deliveryMode, sharedSecret: null }
    : { mode: output.deliveryMode }
}

/**
 * Builds the schema for the given categories (the form's select and the server's list of
 * the category table agree; an unknown category is refused on both sides).
 */
export function productFormSchema(categories: readonly string[], options: ProductFormOptions = {}) {
  return z
    .object({
      title: required(PRODUCT_MESSAGES.titleRequired, 200, PRODUCT_MESSAGES.titleTooLong),
      slug: trimmed(400, PRODUCT_MESSAGES.slugTooLong),
      description: required(
        PRODUCT_MESSAGES.descriptionRequired,
        10_000,
        PRODUCT_MESSAGES.descriptionTooLong,
      ),
      shortDescription: required(
        PRODUCT_MESSAGES.shortDescriptionRequired,
        500,
        PRODUCT_MESSAGES.shortDescriptionTooLong,
      ),
      category: z.preprocess(
        text,
        z
          .string()
          .trim()
          .min(1, PRODUCT_MESSAGES.categoryRequired)
          .refine((value) => categories.includes(value), PRODUCT_MESSAGES.categoryUnknown),
      ),
      tags: commaList(20, PRODUCT_MESSAGES.tagsTooMany, 50, PRODUCT_MESSAGES.tagTooLong),
      price: price(PRODUCT_MESSAGES.priceRequired),
      originalPrice: price(PRODUCT_MESSAGES.originalPriceRequired),
      image: z.preprocess(
        text,
        z
          .string()
          .trim()
          .min(1, PRODUCT_MESSAGES.imageRequired)
          .refine(
            (value) => isProductImageKey(value) || isAbsoluteHttpUrl(value),
            IMAGE_MESSAGES.invalidUrl,
          ),
      ),
      // Optional: KeyBazaar's own checkout replaces external buy links (docs/decisions/0006).
      buyNowLink: z
        .preprocess(text, z.string().trim())
        .pipe(
          z.union(
            [
              z.literal(''),
              z
                .url({
                  protocol: /^https?$/,
                  hostname: z.regexes.domain,
                  error: PRODUCT_MESSAGES.buyNowLinkInvalid,
                })
                .max(2000),
            ],
            {
              error: PRODUCT_MESSAGES.buyNowLinkInvalid,
            },
          ),
        )
        .transform((value) => value || null),
      metaTitle: trimmed(200, PRODUCT_MESSAGES.metaTitleTooLong),
      metaDescription: trimmed(500, PRODUCT_MESSAGES.metaDescriptionTooLong),
      keywords: commaList(
        30,
        PRODUCT_MESSAGES.keywordsTooMany,
        100,
        PRODUCT_MESSAGES.keywordTooLong,
      ),
      inStock: checkbox,
      featured: checkbox,
      features: z
        .preprocess(
          (value) =>
            Array.isArray(value) ? value.map(text) : typeof value === 'string' ? [value] : [],
          z.array(z.string()),
        )
        .transform(cleanFeatures)
        .pipe(
          limitedList(30, PRODUCT_MESSAGES.featuresTooMany, 200, PRODUCT_MESSAGES.featureTooLong),
        ),
      validity: trimmed(100, PRODUCT_MESSAGES.validityTooLong),
      deliveryTime: trimmed(100, PRODUCT_MESSAGES.deliveryTimeTooLong),
      deliveryMode: z.preprocess(
        text,
        z.enum(DELIVERY_MODES, { error: PRODUCT_MESSAGES.deliveryModeRequired }),
      ),
      // Multi-line (e.g. an e-mail and a password); only its ends are trimmed.
      sharedSecret: z.preprocess(text, z.string().trim()),
      clearSharedSecret: checkbox,
    })
    .superRefine(
      (input, ctx) => {
        // Only a shared product uses the secret; a hidden field must not block the save.
        if (input.deliveryMode !== 'shared') return
        if (input.sharedSecret.length > SHARED_SECRET_MAX_LENGTH) {
          ctx.addIssue({
            code: 'custom',
            path: ['sharedSecret'],
            message: PRODUCT_MESSAGES.sharedSecretTooLong,
          })
        } else if (
          !input.sharedSecret &&
          (!options.hasSavedSharedSecret || input.clearSharedSecret)
        ) {
          ctx.addIssue({
            code: 'custom',
            path: ['sharedSecret'],
            message: PRODUCT_MESSAGES.sharedSecretRequired,
          })
        }
      },
      // Reported together with the other fields' errors, not one round later.
      {
        when: (payload) =>
          !payload.issues.some((issue) => DELIVERY_FIELDS.has(String(issue.path?.[0]))),
      },
    )
    .superRefine(
      (input, ctx) => {
        // The original price is what the discount is counted from: one below the price is a
        // typo the storefront would hide (it shows no struck-out price then), not a discount.
        if (input.originalPrice < input.price) {
          ctx.addIssue({
            code: 'custom',
            path: ['originalPrice'],
            message: PRODUCT_MESSAGES.originalPriceBelowPrice,
          })
        }
      },
      {
        when: (payload) =>
          !payload.issues.some((issue) => PRICE_FIELDS.has(String(issue.path?.[0]))),
      },
    )
    .transform((input, ctx) => {
      // The slug follows the title unless one is given; both go through the same rule.
      const slug = slugify(input.slug || input.title)
      if (!slug) {
        ctx.addIssue({ code: 'custom', path: ['slug'], message: PRODUCT_MESSAGES.slugRequired })
        return z.NEVER
      }
      if (slug.length > 200) {
        ctx.addIssue({ code: 'custom', path: ['slug'], message: PRODUCT_MESSAGES.slugTooLong })
        return z.NEVER
      }
      return { ...input, slug }
    })
}

export type ProductFormOutput = z.output<ReturnType<typeof productFormSchema>>
export type ProductField = keyof ProductFormOutput
