import crypto from 'node:crypto'

/** A random, URL-safe identifier (20 lowercase base-32 characters, 100 bits). */
export function newId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  const bytes = crypto.randomBytes(20)
  let id = ''
  for (const byte of bytes) id += alphabet[byte & 31]
  return id
}
