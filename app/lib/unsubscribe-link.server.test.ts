import { describe, expect, it } from 'vitest'
import { encryptSecret } from './crypto.server'
import { maskMailAddress } from './mail-address'
import {
  readUnsubscribeToken,
  unsubscribeHeaders,
  unsubscribeToken,
  unsubscribeUrl,
  type MailKind,
} from './unsubscribe-link.server'

const SECRET = 'u'.repeat(64)

/** The token with one character of its sealed part changed. */
function flipOne(token: string, at: number): string {
  const char = token[at] === 'A' ? 'B' : 'A'
  return `${token.slice(0, at)}${char}${token.slice(at + 1)}`
}

describe('the unsubscribe token', () => {
  it('opens to the address and kind it was made for, the address as accounts keep it', () => {
    const token = unsubscribeToken(SECRET, '  Asha.Verma@Example.IN ', 'offers')
    expect(readUnsubscribeToken(SECRET, token)).toEqual({
      email: 'asha.verma@example.in',
      kind: 'offers',
    })
    // Two mails, two tokens, the same answer.
    const again = unsubscribeToken(SECRET, 'asha.verma@example.in', 'offers')
    expect(again).not.toBe(token)
    expect(readUnsubscribeToken(SECRET, again)).toEqual(readUnsubscribeToken(SECRET, token))
  })

  it('shows nothing of the address it is for', () => {
    const token = unsubscribeToken(SECRET, 'asha.verma@example.in', 'offers')
    expect(token).not.toMatch(/asha|verma|example/i)
    expect(Buffer.from(token.replace(/^offers\./, ''), 'base64url').toString('latin1')).not.toMatch(
      /asha|verma|example/i,
    )
    expect(token).toMatch(/^[A-Za-z0-9._-]+$/)
  })

  it('opens for no other kind, no other secret, and not after any change', () => {
    const token = unsubscribeToken(SECRET, 'asha@example.in', 'offers')
    expect(readUnsubscribeToken('v'.repeat(64), token)).toBeNull()
    // The kind is bound to the sealed address: relabelled, it does not open.
    const sealed = token.slice('offers.'.length)
    expect(readUnsubscribeToken(SECRET, `restock.${sealed}`)).toBeNull()
    expect(readUnsubscribeToken(SECRET, `reminders.${sealed}`)).toBeNull()
    // A token sealed under another kind's context, labelled offers, does not open either.
    const otherKind = unsubscribeToken(SECRET, 'asha@example.in', 'restock' as MailKind)
    expect(readUnsubscribeToken(SECRET, `offers.${otherKind.slice('restock.'.length)}`)).toBeNull()
    for (let at = 'offers.v1.'.length; at < token.length; at++) {
      // A segment's last character may carry only padding bits: changing it may change nothing.
      if (token[at] === '.' || token[at + 1] === '.' || at === token.length - 1) continue
      expect(readUnsubscribeToken(SECRET, flipOne(token, at)), `changed at ${at}`).toBeNull()
    }
    for (const bad of [
      null,
      undefined,
      '',
      'offers',
      'offers.',
      '.x',
      'offers.v1.a.b.c',
      'x'.repeat(2000),
    ])
      expect(readUnsubscribeToken(SECRET, bad)).toBeNull()
  })

  it("opens nothing else the shop seals with the same secret (another purpose's key)", () => {
    // A stored gateway secret with the same text and context is not a token.
    const stored = encryptSecret('asha@example.in', SECRET, 'unsubscribe:offers')
    expect(readUnsubscribeToken(SECRET, `offers.${stored}`)).toBeNull()
  })

  it('makes the link and the one-click headers of RFC 8058', () => {
    const url = unsubscribeUrl('https://shop.example.in/', SECRET, 'asha@example.in', 'offers')
    const link = new URL(url)
    expect(`${link.origin}${link.pathname}`).toBe('https://shop.example.in/unsubscribe')
    expect(readUnsubscribeToken(SECRET, link.searchParams.get('t'))).toEqual({
      email: 'asha@example.in',
      kind: 'offers',
    })
    expect(unsubscribeHeaders(url)).toEqual({
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    })
  })
})

describe('a masked address', () => {
  it('keeps the first letters and the top-level domain', () => {
    expect(maskMailAddress('asha.verma@example.in')).toBe('a***@e***.in')
    expect(maskMailAddress('r@mail.co.uk')).toBe('r***@m***.uk')
    expect(maskMailAddress('root@localhost')).toBe('r***@l***')
    expect(maskMailAddress('nonsense')).toBe('***')
  })
})
