/**
 * Whether an address can never receive mail: one under `.invalid`, the top-level domain reserved
 * never to exist (RFC 6761). The address a deleted account's orders keep is one
 * (app/data/user.server.ts). Browser safe.
 */
export function isUndeliverable(address: string): boolean {
  return /\.invalid$/i.test(address.trim())
}

/**
 * An address shown so that its owner knows it and a stranger learns little from it: the first
 * letter of the name and of the domain, and the top-level domain (asha.verma@example.in is
 * a***@e***.in). The unsubscribe page (app/routes/shop/unsubscribe.tsx) shows it to whoever
 * holds the link.
 */
export function maskMailAddress(address: string): string {
  const at = address.lastIndexOf('@')
  if (at < 1) return '***'
  const domain = address.slice(at + 1)
  const dot = domain.lastIndexOf('.')
  const host = dot > 0 ? domain.slice(0, dot) : domain
  const topLevel = dot > 0 ? domain.slice(dot) : ''
  return `${address[0]}***@${host[0] ?? ''}***${topLevel}`
}
