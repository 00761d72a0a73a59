import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  PaytmChecksumError,
  decryptPaytmChecksum,
  generatePaytmChecksum,
  paytmParamString,
  verifyPaytmChecksum,
} from './paytm-checksum.server'

// Vectors made with the official paytmchecksum@1.5.1; copied into the project so tests never read ../shared.
const fixtureSchema = z.object({
  paytm: z.object({
    key: z.string(),
    iv: z.string(),
    vectors: z.array(
      z.object({
        name: z.string(),
        params: z.record(z.string(), z.string()).optional(),
        body: z.string().optional(),
        signedString: z.string().optional(),
        checksum: z.string(),
        saltInChecksum: z.string(),
        verify: z.boolean(),
        tampered: z.record(z.string(), z.string()).optional(),
        tamperedBody: z.string().optional(),
        verifyTampered: z.boolean(),
        fixedSalt: z.object({
          salt: z.string(),
          plaintext: z.string(),
          checksum: z.string(),
          verify: z.boolean(),
        }),
      }),
    ),
    edgeCases: z.record(z.string(), z.unknown()),
  }),
})

const fixture = fixtureSchema.parse(
  JSON.parse(
    fs.readFileSync(
      path.resolve(import.meta.dirname, '../../../tests/fixtures/payment-vectors.json'),
      'utf8',
    ),
  ),
)
const { key, vectors, edgeCases } = fixture.paytm
const otherKey = 'Zz9@yY8#xX7&wW6!'

/** What a vector signs: its parameters object, or its exact JSON body string. */
function signedInput(vector: (typeof vectors)[number]) {
  if (vector.params) return vector.params
  if (vector.body !== undefined) return vector.body
  throw new Error(`vector ${vector.name} has neither params nor body`)
}

function tamperedInput(vector: (typeof vectors)[number]) {
  if (vector.params) return { ...vector.params, ...vector.tampered }
  if (vector.tamperedBody !== undefined) return vector.tamperedBody
  throw new Error(`vector ${vector.name} has no tampered form`)
}

/** The documented decryption, written independently of the module under test. */
function decryptByTheDocumentedSteps(checksum: string, merchantKey: string): string {
  const decipher = crypto.createDecipheriv(
    'aes-128-cbc',
    Buffer.from(merchantKey, 'utf8'),
    Buffer.from('@@@@&&&&####$$$$', 'latin1'),
  )
  return Buffer.concat([
    decipher.update(Buffer.from(checksum, 'base64')),
    decipher.final(),
  ]).toString('latin1')
}

function expectedPlaintext(paramString: string, salt: string): string {
  return crypto.createHash('sha256').update(`${paramString}|${salt}`).digest('hex') + salt
}

describe('Paytm checksum against the official vectors', () => {
  it('covers every Paytm vector in the fixture', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(5)
    expect(fixture.paytm.iv).toBe('@@@@&&&&####$$$$')
  })

  describe.each(vectors.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    it('accepts the checksum the official library produced', () => {
      expect(vector.verify).toBe(true)
      expect(verifyPaytmChecksum(signedInput(vector), key, vector.checksum)).toBe(true)
    })

    it('finds the salt the official library used at the end of the decrypted checksum', () => {
      const plaintext = decryptPaytmChecksum(vector.checksum, key)
      expect(plaintext).toHaveLength(68)
      expect(plaintext?.slice(-4)).toBe(vector.saltInChecksum)
    })

    it('rejects the official checksum once a signed value has been tampered with', () => {
      expect(vector.verifyTampered).toBe(false)
      expect(verifyPaytmChecksum(tamperedInput(vector), key, vector.checksum)).toBe(false)
    })

    it('rejects the official checksum under a different merchant key', () => {
      expect(verifyPaytmChecksum(signedInput(vector), otherKey, vector.checksum)).toBe(false)
    })

    if (vector.signedString !== undefined) {
      const signedString = vector.signedString
      it('signs the same text the official library signed (values in key order, joined by |)', () => {
        expect(paytmParamString(vector.params ?? {})).toBe(signedString)
      })
    }

    it('produces the identical plaintext and checksum when given the same salt', () => {
      const { salt, plaintext, checksum } = vector.fixedSalt
      const produced = generatePaytmChecksum(signedInput(vector), key, { salt })
      expect(produced).toBe(checksum)
      expect(decryptPaytmChecksum(produced, key)).toBe(plaintext)
      expect(verifyPaytmChecksum(signedInput(vector), key, checksum)).toBe(vector.fixedSalt.verify)
    })

    it('makes random-salt checksums that decrypt and verify by the documented steps', () => {
      const input = signedInput(vector)
      const paramString = typeof input === 'string' ? input : paytmParamString(input)
      const first = generatePaytmChecksum(signedInput(vector), key)
      const second = generatePaytmChecksum(signedInput(vector), key)
      expect(first).not.toBe(second)
      for (const checksum of [first, second]) {
        expect(checksum).toHaveLength(108)
        const plaintext = decryptByTheDocumentedSteps(checksum, key)
        const salt = plaintext.slice(-4)
        expect(salt).toMatch(/^[A-Za-z0-9+/]{4}$/)
        expect(plaintext).toBe(expectedPlaintext(paramString, salt))
        expect(verifyPaytmChecksum(signedInput(vector), key, checksum)).toBe(true)
        expect(verifyPaytmChecksum(tamperedInput(vector), key, checksum)).toBe(false)
      }
    })
  })
})

describe('Paytm checksum edge cases', () => {
  it('signs null and undefined values as empty text, as the official library does for null', () => {
    expect(edgeCases.nullValue).toBe('x||z')
    expect(paytmParamString({ a: 'x', b: null, c: 'z' })).toBe('x||z')
    expect(paytmParamString({ a: 'x', b: undefined, c: 'z' })).toBe('x||z')
  })

  it('signs the text "null" as it is, like version 1.5.1', () => {
    expect(edgeCases.nullString_v151).toBe('x|null|NULL')
    expect(paytmParamString({ a: 'x', b: 'null', c: 'NULL' })).toBe('x|null|NULL')
  })

  it('orders keys by code unit, so uppercase keys come before lowercase ones', () => {
    expect(paytmParamString({ b: '1', a: '2', B: '3', A: '4', _: '5' })).toBe('4|3|5|2|1')
  })

  it('refuses a number where text is expected instead of signing something ambiguous', () => {
    const params = { TXN_AMOUNT: 1499 } as unknown as Record<string, string>
    expect(() => generatePaytmChecksum(params, key)).toThrow(TypeError)
    expect(verifyPaytmChecksum(params, key, vectors[0]!.checksum)).toBe(false)
  })

  it('leaves CHECKSUMHASH out when verifying a received callback, without changing it', () => {
    const callback = vectors.find((vector) => vector.name.includes('callback'))!
    const received = { ...callback.params, CHECKSUMHASH: callback.checksum }
    const before = { ...received }
    expect(verifyPaytmChecksum(received, key, received.CHECKSUMHASH)).toBe(true)
    expect(received).toEqual(before)
  })

  it('rejects a callback whose amount was tampered with', () => {
    const callback = vectors.find((vector) => vector.name.includes('callback'))!
    const received = { ...callback.params, TXNAMOUNT: '1.00', CHECKSUMHASH: callback.checksum }
    expect(verifyPaytmChecksum(received, key, received.CHECKSUMHASH)).toBe(false)
  })

  it('answers false, never throws, for garbage, empty or missing checksums and unusable keys', () => {
    const params = vectors[0]!.params!
    const randomBase64 = crypto.randomBytes(80).toString('base64')
    for (const checksum of ['', 'not base64 at all!', 'AAAA', randomBase64, undefined, null]) {
      expect(verifyPaytmChecksum(params, key, checksum)).toBe(false)
    }
    expect(verifyPaytmChecksum(params, 'short', vectors[0]!.checksum)).toBe(false)
    expect(verifyPaytmChecksum(params, '', vectors[0]!.checksum)).toBe(false)
  })

  it('refuses to sign with a key that is not 16 bytes', () => {
    expect(() => generatePaytmChecksum({ MID: 'X' }, 'too-short')).toThrow(PaytmChecksumError)
    expect(() => generatePaytmChecksum({ MID: 'X' }, 'sixteen-chars-€€')).toThrow(
      PaytmChecksumError,
    )
  })

  it('refuses an injected salt that is not 4 printable characters', () => {
    expect(() => generatePaytmChecksum({ MID: 'X' }, key, { salt: 'abc' })).toThrow(
      PaytmChecksumError,
    )
  })
})
