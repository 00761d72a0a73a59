import { describe, expect, it } from 'vitest'
import {
  decryptSecret,
  deriveKey,
  encryptSecret,
  randomToken,
  safeEqual,
  SecretDecryptionError,
  sha256Hex,
} from './crypto.server'

const SECRET = 'a'.repeat(64)
const OTHER_SECRET = 'b'.repeat(64)

describe('stored secrets (AES-256-GCM keyed by HKDF from APP_SECRET)', () => {
  it('round-trips a secret and never stores the plaintext', () => {
    const stored = encryptSecret('aB3#kL9@xY2&mN5!', SECRET, 'payment_gateway:paytm:merchantKey')
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(stored).not.toContain('aB3#kL9@xY2&mN5!')
    expect(decryptSecret(stored, SECRET, 'payment_gateway:paytm:merchantKey')).toBe(
      'aB3#kL9@xY2&mN5!',
    )
  })

  it('uses a fresh nonce each time, so equal secrets do not look equal', () => {
    expect(encryptSecret('same', SECRET, 'ctx')).not.toBe(encryptSecret('same', SECRET, 'ctx'))
  })

  it('refuses another APP_SECRET, another context and a tampered value', () => {
    const stored = encryptSecret('key', SECRET, 'payment_gateway:paytm:merchantKey')
    expect(() => decryptSecret(stored, OTHER_SECRET, 'payment_gateway:paytm:merchantKey')).toThrow(
      SecretDecryptionError,
    )
    expect(() => decryptSecret(stored, SECRET, 'payment_gateway:razorpay:keySecret')).toThrow(
      SecretDecryptionError,
    )
    const parts = stored.split('.')
    const flipped = parts[2]!.startsWith('A') ? `B${parts[2]!.slice(1)}` : `A${parts[2]!.slice(1)}`
    expect(() =>
      decryptSecret(
        [parts[0], parts[1], flipped, parts[3]].join('.'),
        SECRET,
        'payment_gateway:paytm:merchantKey',
      ),
    ).toThrow(SecretDecryptionError)
    expect(() => decryptSecret('plain text', SECRET, 'ctx')).toThrow(SecretDecryptionError)
  })

  it('derives different keys per purpose and the same key for the same inputs', () => {
    expect(deriveKey(SECRET, 'one').equals(deriveKey(SECRET, 'one'))).toBe(true)
    expect(deriveKey(SECRET, 'one').equals(deriveKey(SECRET, 'two'))).toBe(false)
    expect(deriveKey(SECRET, 'one').equals(deriveKey(OTHER_SECRET, 'one'))).toBe(false)
    expect(deriveKey(SECRET, 'one', 16)).toHaveLength(16)
  })
})

describe('tokens', () => {
  it('makes unguessable URL-safe tokens and hashes them', () => {
    const token = randomToken()
    expect(token).toMatch(/^[\w-]{43}$/)
    expect(randomToken()).not.toBe(token)
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(safeEqual('abc', 'abc')).toBe(true)
    expect(safeEqual('abc', 'abd')).toBe(false)
    expect(safeEqual('abc', 'abcd')).toBe(false)
  })
})
