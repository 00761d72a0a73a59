import { href } from 'react-router'
import { decryptSecret, encryptSecret, SecretDecryptionError } from './crypto.server'

/**
 * The unsubscribe link of the mails a reader may switch off (docs/notifications.md,
 * "Unsubscribing"): {PUBLIC_URL}/unsubscribe?t={token}, in the mail's List-Unsubscribe header
 * (one click in the mail app, RFC 8058) and as a plain line at the end of the mail.
 *
 * The token is `{kind}.{sealed address}`: the recipient's address (trimmed, lower-cased)
 * encrypted and authenticated with the shop's own `encryptSecret` (AES-256-GCM, app/lib/crypto.server.ts)
 * under a key derived from APP_SECRET for this purpose alone, with the kind bound to it as
 * associated data. So a token
 * - cannot be made or changed without APP_SECRET: a changed address, kind or any other
 *   character fails to open;
 * - says nothing about whom it is for: the address is inside, unreadable without the key,
 *   and two mails to one address get different tokens (a fresh random nonce each);
 * - opens nothing else: no other key of the shop (stored secrets, stock, renew links) is this
 *   one, and this key opens nothing but these tokens.
 * A plain HMAC over the address (the renew link's kind of signature) would have had to carry
 * the address in the clear beside it. The token has no expiry: mail apps call the link months
 * after the mail came, and it only ever switches mail off.
 */
const UNSUBSCRIBE_PURPOSE = 'keybazaar:unsubscribe-link:v1'
export const UNSUBSCRIBE_PARAM = 't'

/**
 * What a link switches off. One kind for now: `offers`, every mail the Settings switch
 * "E-mail me reminders and offers" covers (expiry reminders and back-in-stock mails). A reader
 * who asks for no more of one of them expects the other to stop too, and the account's switch
 * is one switch for both.
 */
export const MAIL_KINDS = ['offers'] as const
export type MailKind = (typeof MAIL_KINDS)[number]

/** No genuine token comes near this (an address is at most 254 characters). */
const MAX_TOKEN_LENGTH = 1000

/** An address as the opt-outs and the accounts keep it. */
export function normaliseMailAddress(email: string): string {
  return email.trim().toLowerCase()
}

const contextOf = (kind: string) => `unsubscribe:${kind}`

function isMailKind(value: string): value is MailKind {
  return (MAIL_KINDS as readonly string[]).includes(value)
}

export function unsubscribeToken(appSecret: string, email: string, kind: MailKind): string {
  const sealed = encryptSecret(
    normaliseMailAddress(email),
    appSecret,
    contextOf(kind),
    UNSUBSCRIBE_PURPOSE,
  )
  return `${kind}.${sealed}`
}

/** The address and kind a token was made for, or null when it is not a genuine one. */
export function readUnsubscribeToken(
  appSecret: string,
  token: string | null | undefined,
): { email: string; kind: MailKind } | null {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null
  const dot = token.indexOf('.')
  const kind = token.slice(0, dot)
  if (dot <= 0 || !isMailKind(kind)) return null
  try {
    const email = decryptSecret(
      token.slice(dot + 1),
      appSecret,
      contextOf(kind),
      UNSUBSCRIBE_PURPOSE,
    )
    return { email, kind }
  } catch (error) {
    if (error instanceof SecretDecryptionError) return null
    throw error
  }
}

/** The link with the shop's public address, as the mail carries it. */
export function unsubscribeUrl(
  publicUrl: string,
  appSecret: string,
  email: string,
  kind: MailKind,
): string {
  const token = encodeURIComponent(unsubscribeToken(appSecret, email, kind))
  return `${publicUrl.replace(/\/$/, '')}${href('/unsubscribe')}?${UNSUBSCRIBE_PARAM}=${token}`
}

/**
 * The headers that let mail apps show their own Unsubscribe button and switch the mail off with
 * one POST of `List-Unsubscribe=One-Click` to the link, without opening it (RFC 8058). Gmail and
 * Yahoo ask bulk senders for both; the mail server's DKIM signature should cover them.
 */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}
