import {
  decryptSecret,
  encryptSecret,
  keyedHash,
  STOCK_FINGERPRINT_PURPOSE,
  STOCK_SECRETS_PURPOSE,
} from './crypto.server'
import { NOTE_COLUMNS, type StockSecret } from './stock-parse'

/**
 * How stock secrets are kept (docs/delivery.md): AES-256-GCM under a key derived from
 * APP_SECRET for stock only, each item bound to its row id (a product's shared secret to the
 * product), and an HMAC fingerprint that finds duplicates without decrypting.
 */
/**
 * What makes two items the same, per product (notes excluded): a CSV item's fields in name order,
 * so the same account imported from a file whose columns come in another order is found.
 */
export function stockFingerprint(
  appSecret: string,
  productId: string,
  secret: StockSecret,
): string {
  return fingerprintOf(appSecret, productId, identityOf(secret))
}

/**
 * The shop-wide fingerprint (`stock_item.shop_hash`, docs/delivery.md "One product per item"):
 * the same identity as stockFingerprint without the product, so the same key held by two
 * products is found. Its text starts with `shop:` where a product fingerprint's starts with `[`,
 * so the two can never be equal.
 */
export function shopStockFingerprint(appSecret: string, secret: StockSecret): string {
  return keyedHash(
    appSecret,
    STOCK_FINGERPRINT_PURPOSE,
    `shop:${JSON.stringify(identityOf(secret))}`,
  )
}

/** What makes two items the same (notes excluded; a CSV item's fields in name order). */
function identityOf(secret: StockSecret): unknown[] {
  if (secret.kind === 'text') return ['text', secret.text]
  const fields = identityFields(secret).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return ['fields', ...fields]
}

/** The most identity columns whose every order is tried against older items (4: 24 orders). */
const LEGACY_ORDER_MAX_FIELDS = 4

/**
 * The fingerprints a CSV item may carry from before they were taken in name order: its fields
 * in each other order (none for a text item). An item stored then is found by one of these.
 */
export function legacyStockFingerprints(
  appSecret: string,
  productId: string,
  secret: StockSecret,
): string[] {
  if (secret.kind === 'text') return []
  const fields = identityFields(secret)
  if (fields.length < 2 || fields.length > LEGACY_ORDER_MAX_FIELDS) return []
  const canonical = stockFingerprint(appSecret, productId, secret)
  return orders(fields)
    .map((order) => fingerprintOf(appSecret, productId, ['fields', ...order]))
    .filter((hash) => hash !== canonical)
}

function identityFields(secret: Extract<StockSecret, { kind: 'fields' }>): Array<[string, string]> {
  return secret.fields
    .filter((field) => !NOTE_COLUMNS.has(field.name))
    .map((field) => [field.name, field.value])
}

function fingerprintOf(appSecret: string, productId: string, identity: unknown[]): string {
  return keyedHash(appSecret, STOCK_FINGERPRINT_PURPOSE, JSON.stringify([productId, identity]))
}

/** Every order of `items` (permutations). */
function orders<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]]
  return items.flatMap((item, i) =>
    orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  )
}

const itemContext = (itemId: string) => `stock_item:${itemId}`
const sharedContext = (productId: string) => `product:${productId}:sharedSecret`

/** A product's shared secret (the `shared` delivery mode), encrypted for that product. */
export function encryptSharedSecret(appSecret: string, productId: string, text: string): string {
  return encryptSecret(text, appSecret, sharedContext(productId), STOCK_SECRETS_PURPOSE)
}

export function decryptSharedSecret(appSecret: string, productId: string, stored: string): string {
  return decryptSecret(stored, appSecret, sharedContext(productId), STOCK_SECRETS_PURPOSE)
}

/** A hand-delivered item's fingerprint: the order and the item, never the text (see insertManualOrderItem). */
export function manualItemFingerprint(appSecret: string, orderId: string, itemId: string): string {
  return keyedHash(
    appSecret,
    STOCK_FINGERPRINT_PURPOSE,
    JSON.stringify(['manual', orderId, itemId]),
  )
}

export function encryptStockItem(appSecret: string, itemId: string, secret: StockSecret): string {
  return encryptSecret(
    JSON.stringify(secret),
    appSecret,
    itemContext(itemId),
    STOCK_SECRETS_PURPOSE,
  )
}

export function decryptStockItem(appSecret: string, itemId: string, stored: string): StockSecret {
  return JSON.parse(
    decryptSecret(stored, appSecret, itemContext(itemId), STOCK_SECRETS_PURPOSE),
  ) as StockSecret
}
