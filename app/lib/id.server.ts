import { randomBytes } from './random.server'

/** A random, URL-safe identifier (20 lowercase base-32 characters, 100 bits). */
export function newId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  const bytes = randomBytes(20)
  let id = ''
  for (const byte of bytes) id += alphabet[byte & 31]
  return id
}

let made = 0

/**
 * A random identifier that also sorts (as text) after every one this process made before: the
 * time in milliseconds, a running count, then random characters (20 characters, like newId).
 * For rows listed newest first with the id breaking ties between equal times, such as the audit
 * log, whose entries of one request can share a millisecond.
 */
export function sortableId(now: Date = new Date()): string {
  made = (made + 1) % 36 ** 6
  return (
    now.getTime().toString(36).padStart(9, '0') +
    made.toString(36).padStart(6, '0') +
    newId().slice(0, 5)
  )
}
