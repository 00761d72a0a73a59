import crypto from 'node:crypto'
import { randomBytes } from '../random.server'

/**
 * Paytm's checksum ("signature"), written from the documented algorithm and proven byte for
 * byte against vectors made with the official paytmchecksum@1.5.1 package
 * (tests/fixtures/payment-vectors.json). We do not depend on that package: it logs decryption
 * failures to the console, deletes CHECKSUMHASH from the caller's object and compares with `===`.
 *
 *   paramString = the exact JSON string, or the object's values sorted by key and joined by "|"
 *   plaintext   = hex(sha256(paramString + "|" + salt)) + salt         (68 characters)
 *   checksum    = base64(AES-128-CBC(key, IV "@@@@&&&&####$$$$", plaintext))  (108 characters)
 */

/** Parameters as posted to or by Paytm. null and undefined are signed as empty text. */
export type PaytmParams = Readonly<Record<string, string | null | undefined>>

/** The signing or verifying key is unusable (not 16 bytes); the caller cannot sign anything. */
export class PaytmChecksumError extends Error {
  override name = 'PaytmChecksumError'
}

const IV = Buffer.from('@@@@&&&&####$$$$', 'latin1')
const SALT_LENGTH = 4
/** The official library salts with base64 of 3 random bytes; we only insist on 4 printable ASCII characters. */
const SALT_PATTERN = /^[\x21-\x7e]{4}$/

function keyBytes(merchantKey: string): Buffer {
  const key = Buffer.from(merchantKey, 'utf8')
  if (key.length !== 16) {
    throw new PaytmChecksumError('The Paytm merchant key must be exactly 16 bytes (AES-128)')
  }
  return key
}

/**
 * The text that is signed for an object: values ordered by their keys in plain code-unit
 * order (uppercase before lowercase, as Array#sort does), null and undefined as "", joined by "|".
 * `omit` names keys that are left out, e.g. CHECKSUMHASH of a received callback.
 */
export function paytmParamString(params: PaytmParams, omit: readonly string[] = []): string {
  const keys = Object.keys(params)
    .filter((key) => !omit.includes(key))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return keys
    .map((key) => {
      const value: unknown = params[key]
      if (value === null || value === undefined) return ''
      // The official library crashes on numbers; we refuse them plainly so "1499" vs 1499 never silently differs.
      if (typeof value !== 'string') throw new TypeError(`Paytm parameter ${key} must be text`)
      return value
    })
    .join('|')
}

/** A fresh salt: base64 of 3 random bytes, always 4 characters. */
export function generatePaytmSalt(): string {
  return randomBytes(3).toString('base64')
}

/** hex(sha256(paramString + "|" + salt)) + salt: what the checksum encrypts. */
export function paytmChecksumPlaintext(paramString: string, salt: string): string {
  const digest = crypto.createHash('sha256').update(`${paramString}|${salt}`, 'utf8').digest('hex')
  return digest + salt
}

function toParamString(params: PaytmParams | string, omit: readonly string[]): string {
  return typeof params === 'string' ? params : paytmParamString(params, omit)
}

export interface GenerateChecksumOptions {
  /** A fixed salt, for reproducing published vectors in tests. Never set it in production code. */
  salt?: string
}

/**
 * Signs an object of parameters (legacy form posts, status requests) or an exact JSON string
 * (the `body` of v3 APIs). Throws PaytmChecksumError when the key is unusable, so that a caller
 * can never fall back to sending an unsigned or "mock" checksum.
 */
export function generatePaytmChecksum(
  params: PaytmParams | string,
  merchantKey: string,
  options: GenerateChecksumOptions = {},
): string {
  const key = keyBytes(merchantKey)
  const salt = options.salt ?? generatePaytmSalt()
  if (!SALT_PATTERN.test(salt)) {
    throw new PaytmChecksumError('A Paytm checksum salt is 4 printable ASCII characters')
  }
  const plaintext = paytmChecksumPlaintext(toParamString(params, []), salt)
  const cipher = crypto.createCipheriv('aes-128-cbc', key, IV)
  return Buffer.concat([cipher.update(plaintext, 'latin1'), cipher.final()]).toString('base64')
}

/**
 * Decrypts a checksum to its plaintext (hash + salt), or null when it is not one made with this
 * key (bad base64, wrong length, bad padding). Exposed so tests can check the documented steps.
 */
export function decryptPaytmChecksum(checksum: string, merchantKey: string): string | null {
  try {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(checksum)) return null
    const encrypted = Buffer.from(checksum, 'base64')
    if (encrypted.length === 0 || encrypted.length % 16 !== 0) return null
    const decipher = crypto.createDecipheriv('aes-128-cbc', keyBytes(merchantKey), IV)
    // latin1 keeps every decrypted byte as one character, as the official library's 'binary' does.
    return Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('latin1')
  } catch {
    return null
  }
}

/**
 * True only when `checksum` was made with this key over exactly these parameters.
 * Never throws: a wrong key, a garbage or missing checksum, or non-text values are all `false`.
 * For an object, CHECKSUMHASH itself is left out (a received callback carries it among its
 * fields); the caller's object is not modified.
 */
export function verifyPaytmChecksum(
  params: PaytmParams | string,
  merchantKey: string,
  checksum: string | null | undefined,
): boolean {
  try {
    if (typeof checksum !== 'string' || checksum === '') return false
    const decrypted = decryptPaytmChecksum(checksum, merchantKey)
    if (decrypted === null || decrypted.length <= SALT_LENGTH) return false
    const salt = decrypted.slice(-SALT_LENGTH)
    const expected = paytmChecksumPlaintext(toParamString(params, ['CHECKSUMHASH']), salt)
    const actualBytes = Buffer.from(decrypted, 'latin1')
    const expectedBytes = Buffer.from(expected, 'latin1')
    if (actualBytes.length !== expectedBytes.length) return false
    return crypto.timingSafeEqual(actualBytes, expectedBytes)
  } catch {
    return false
  }
}
