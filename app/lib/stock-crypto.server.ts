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
/** What makes two items the same, per product (notes excluded). */
export function stockFingerprint(
  appSecret: string,
  productId: string,
  secret: StockSecret,
): string {
  const identity =
    secret.kind === 'text'
      ? ['text', secret.text]
      : [
          'fields',
          ...secret.fields
            .filter((field) => !NOTE_COLUMNS.has(field.name))
            .map((field) => [field.name, field.value]),
        ]
  return keyedHash(appSecret, STOCK_FINGERPRINT_PURPOSE, JSON.stringify([productId, identity]))
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
