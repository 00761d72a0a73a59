/**
 * Whether an address can never receive mail: one under `.invalid`, the top-level domain reserved
 * never to exist (RFC 6761). The address a deleted account's orders keep is one
 * (app/data/user.server.ts). Browser safe.
 */
export function isUndeliverable(address: string): boolean {
  return /\.invalid$/i.test(address.trim())
}
