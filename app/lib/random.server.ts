import crypto from 'node:crypto'

/**
 * Random bytes for the values a request makes several of: the page's CSP nonce, order tokens,
 * row ids, encryption nonces, the Paytm checksum's salt.
 *
 * Each `crypto.randomBytes` call is a job through Node's C++ crypto layer; in the running
 * server a 16-byte one showed about 40 µs of CPU in profiles, and a checkout makes six to eight.
 * Here the cryptographically secure generator fills a 4 KB buffer at once and each call copies
 * its bytes out, as Node does itself for `crypto.randomUUID`. The bytes handed out are wiped
 * from the buffer, so the process never keeps a copy of a token it issued. Requests for more
 * than a quarter of the buffer go to `crypto.randomBytes` directly.
 */
const POOL_BYTES = 4096
const pool = Buffer.allocUnsafeSlow(POOL_BYTES)
let used = POOL_BYTES

export function randomBytes(size: number): Buffer {
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`invalid size ${size}`)
  if (size > POOL_BYTES / 4) return crypto.randomBytes(size)
  if (used + size > POOL_BYTES) {
    crypto.randomFillSync(pool)
    used = 0
  }
  const bytes = Buffer.alloc(size)
  pool.copy(bytes, 0, used, used + size)
  pool.fill(0, used, used + size)
  used += size
  return bytes
}
