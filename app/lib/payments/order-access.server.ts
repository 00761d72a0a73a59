import { orderTokenMatches, type Order } from '~/data/order.server'
import type { DB } from '~/lib/db.server'

/**
 * Who may see an order's details (result page now, the order page with delivered secrets
 * later): its signed-in owner, or whoever holds the order's access token. Checkout keeps the
 * token in an httpOnly SameSite=Lax cookie, which the browser sends on the top-level GET that
 * follows the gateway's callback; e-mails carry it as ?token=. Only its hash is stored.
 */
export const ORDER_ACCESS_COOKIE = 'kb.orders'
const MAX_ORDERS = 5
const MAX_AGE_SECONDS = 30 * 24 * 60 * 60
const ENTRY = /^([A-Za-z0-9@._-]{1,50})~([A-Za-z0-9_-]{20,100})$/

/** The order id -> token pairs this browser holds. */
export function readOrderTokens(request: Request): Map<string, string> {
  const tokens = new Map<string, string>()
  const header = request.headers.get('Cookie') ?? ''
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name !== ORDER_ACCESS_COOKIE) continue
    for (const entry of rest.join('=').split('.')) {
      const match = ENTRY.exec(entry)
      if (match) tokens.set(match[1]!, match[2]!)
    }
  }
  return tokens
}

/** A Set-Cookie value adding this order's token to the ones the browser holds (newest five kept). */
export function orderAccessCookie(
  request: Request,
  orderId: string,
  token: string,
  publicUrl: string,
): string {
  const tokens = readOrderTokens(request)
  tokens.delete(orderId)
  const entries = [...tokens.entries(), [orderId, token] as const].slice(-MAX_ORDERS)
  const value = entries.map(([id, t]) => `${id}~${t}`).join('.')
  const secure = publicUrl.startsWith('https://') ? '; Secure' : ''
  return `${ORDER_ACCESS_COOKIE}=${value}; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}`
}

/**
 * How this request may see the order's details, or null: a token of the order in the query
 * (?token=, from an e-mail), its owner or an admin signed in, or a token in this browser's order
 * cookie. The query comes first so that a page can move a working ?token= into the cookie.
 */
export async function orderAccessVia(
  db: DB,
  request: Request,
  order: Pick<Order, 'id' | 'userId'>,
  accessTokenHash: string,
  user: { id: string; isAdmin: boolean } | null,
): Promise<'query' | 'account' | 'cookie' | null> {
  const fromQuery = new URL(request.url).searchParams.get('token')
  if (fromQuery && (await orderTokenMatches(db, order.id, fromQuery, accessTokenHash))) return 'query'
  if (user && (user.isAdmin || (order.userId !== null && order.userId === user.id))) return 'account'
  const fromCookie = readOrderTokens(request).get(order.id)
  if (fromCookie && (await orderTokenMatches(db, order.id, fromCookie, accessTokenHash))) return 'cookie'
  return null
}

/** Whether this request may see the order's details (see orderAccessVia). */
export async function canViewOrder(
  ...args: Parameters<typeof orderAccessVia>
): Promise<boolean> {
  return (await orderAccessVia(...args)) !== null
}
