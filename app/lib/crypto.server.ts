import crypto from 'node:crypto'
import { randomBytes } from './random.server'
import { cachedUpTo } from './bounded-cache'

/**
 * Cryptography the app applies to its own data, all keyed from APP_SECRET:
 *
 * - `encryptSecret` / `decryptSecret`: secrets stored in the database (payment gateway keys;
 *   later stock credentials) with AES-256-GCM. The key is derived with HKDF-SHA256 from
 *   APP_SECRET and a purpose, so one secret never serves two uses. Each value carries its
 *   own random 96-bit nonce and is bound to a context (e.g. `payment_gateway:paytm:merchantKey`)
 *   as associated data: a ciphertext copied into another row or field does not decrypt.
 * - `deriveKey`: HKDF for any other purpose (e.g. the built-in Paytm simulator's merchant key,
 *   which every app process sharing APP_SECRET must agree on).
 * - `randomToken`, `sha256Hex`, `safeEqual`: unguessable tokens that are stored only as hashes.
 *
 * Changing APP_SECRET makes stored secrets unreadable: `decryptSecret` then throws
 * SecretDecryptionError, and callers treat the value as not set.
 */

const VERSION = 'v1'
const STORED_SECRETS_PURPOSE = 'keybazaar:stored-secrets:v1'
/** HKDF purpose of the key that encrypts stock items and shared product secrets. */
export const STOCK_SECRETS_PURPOSE = 'keybazaar:stock-secrets:v1'
/** HKDF purpose of the HMAC key that fingerprints stock items for de-duplication. */
export const STOCK_FINGERPRINT_PURPOSE = 'keybazaar:stock-fingerprint:v1'
const NONCE_BYTES = 12
const TAG_BYTES = 16

export class SecretDecryptionError extends Error {
  override name = 'SecretDecryptionError'
}

// HKDF is cheap but not free; the same (secret, purpose) pair is asked for on every request.
const derived = new Map<string, Buffer>()

/** HKDF-SHA256 of APP_SECRET for one named purpose. */
export function deriveKey(appSecret: string, purpose: string, length = 32): Buffer {
  return cachedUpTo(derived, 64, `${length}\u0000${purpose}\u0000${appSecret}`, () =>
    Buffer.from(
      crypto.hkdfSync(
        'sha256',
        Buffer.from(appSecret, 'utf8'),
        Buffer.alloc(0),
        Buffer.from(purpose, 'utf8'),
        length,
      ),
    ),
  )
}

/**
 * Encrypts a secret for storage: `v1.<nonce>.<ciphertext>.<tag>` in base64url.
 * `context` names where the value lives; the same context must be given to decrypt it.
 * `purpose` selects the HKDF key (e.g. STOCK_SECRETS_PURPOSE for stock items), so a key
 * leaked or rotated for one kind of data says nothing about another.
 */
export function encryptSecret(
  plaintext: string,
  appSecret: string,
  context: string,
  purpose: string = STORED_SECRETS_PURPOSE,
): string {
  const nonce = randomBytes(NONCE_BYTES)
  const cipher = crypto.createCipheriv('aes-256-gcm', deriveKey(appSecret, purpose), nonce, {
    authTagLength: TAG_BYTES,
  })
  cipher.setAAD(Buffer.from(context, 'utf8'))
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return [
    VERSION,
    nonce.toString('base64url'),
    ciphertext.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.')
}

/** Decrypts a value made by encryptSecret with the same APP_SECRET and context. */
export function decryptSecret(
  stored: string,
  appSecret: string,
  context: string,
  purpose: string = STORED_SECRETS_PURPOSE,
): string {
  const parts = stored.split('.')
  if (parts.length !== 4 || parts[0] !== VERSION)
    throw new SecretDecryptionError('Not an encrypted secret')
  const [, nonceText, ciphertextText, tagText] = parts as [string, string, string, string]
  try {
    const nonce = Buffer.from(nonceText, 'base64url')
    const tag = Buffer.from(tagText, 'base64url')
    if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) throw new Error('bad lengths')
    const decipher = crypto.createDecipheriv('aes-256-gcm', deriveKey(appSecret, purpose), nonce, {
      authTagLength: TAG_BYTES,
    })
    decipher.setAAD(Buffer.from(context, 'utf8'))
    decipher.setAuthTag(tag)
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertextText, 'base64url')),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    // Wrong APP_SECRET, wrong context or a tampered value: all look the same from outside.
    throw new SecretDecryptionError(
      'The stored secret cannot be decrypted (was APP_SECRET changed?)',
    )
  }
}

/**
 * HMAC-SHA256 (hex) of `text` with a key derived from APP_SECRET for `purpose`: equal inputs
 * give equal fingerprints, so a unique index finds duplicates, yet the database alone cannot
 * be used to guess the inputs (unlike a plain hash of a short password).
 */
export function keyedHash(appSecret: string, purpose: string, text: string): string {
  return crypto
    .createHmac('sha256', deriveKey(appSecret, purpose))
    .update(text, 'utf8')
    .digest('hex')
}

/** An unguessable URL-safe token (256 bits by default). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** Lowercase hex SHA-256 of UTF-8 text: how tokens are stored. */
export function sha256Hex(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex')
}

/** Constant-time comparison of two texts (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  return left.length === right.length && crypto.timingSafeEqual(left, right)
}
