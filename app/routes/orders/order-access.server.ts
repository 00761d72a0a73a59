import { data, type HeadersFunction } from 'react-router'
import { getOrderWithAccessHash, orderTokenMatches, type Order } from '~/data/order.server'
import { services } from '~/lib/app-context.server'
import { getUser, type AuthUser } from '~/lib/auth.server'
import { orderAccessVia } from '~/lib/payments/order-access.server'
import {
  hitRateLimit,
  releaseRateLimit,
  tooManyAttemptsMessage,
  type RateLimitHit,
  type RateLimitRule,
} from '~/lib/rate-limit.server'

/**
 * Who may open an order page, its secret link and its invoice (issue 7): the signed-in owner
 * or an admin, or whoever holds one of the order's tokens (this browser's order cookie from
 * checkout or from a secret link, or ?token=). Everyone else gets exactly the 404 a missing
 * order gets. Order pages are never cached and never indexed.
 */
export const ORDER_PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
} as const

export const ORDER_RATE_LIMITS = {
  /**
   * Tokens tried from one address (a secret link or ?token=); a working token gives its
   * attempt back, so only failures add up. Tokens are 256-bit random: this stops noise, not luck.
   */
  tokenIp: { limit: 30, windowSeconds: 15 * 60 },
  /** Reveals from one address: a buyer reveals a few times, a scraper many. */
  revealIp: { limit: 30, windowSeconds: 15 * 60 },
  /** Problem reports from one address (each one e-mails the shop). */
  reportIp: { limit: 10, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>

/** Order ids are ORD_{timestamp}_{n}; anything longer is not worth a query. */
const MAX_ORDER_ID = 60

/** The one 404 of the order pages: no body that could differ between the cases. */
export function orderNotFound(): never {
  throw data(null, { status: 404, headers: ORDER_PAGE_HEADERS })
}

function tooManyAttempts(retryAfterSeconds: number): never {
  throw data(tooManyAttemptsMessage(retryAfterSeconds), {
    status: 429,
    headers: { ...ORDER_PAGE_HEADERS, 'Retry-After': String(retryAfterSeconds) },
  })
}

/** Counts one attempt of the rule for this address; null when allowed, else the blocking hit. */
export async function overLimit(key: string, rule: RateLimitRule): Promise<RateLimitHit | null> {
  const hit = await hitRateLimit(services().db, key, rule)
  return hit.allowed ? null : hit
}

/**
 * Whether `token` (from a secret link) opens the order. Every try counts against the address
 * until it works, and a blocked address is refused before the token is looked at.
 */
export async function presentedTokenOpens(
  ip: string,
  orderId: string,
  token: string,
): Promise<boolean> {
  const { db } = services()
  const hit = await hitRateLimit(db, `order-token:ip:${ip}`, ORDER_RATE_LIMITS.tokenIp)
  if (!hit.allowed) tooManyAttempts(hit.retryAfterSeconds)
  const opens = orderId.length <= MAX_ORDER_ID && (await orderTokenMatches(db, orderId, token))
  if (opens) await releaseRateLimit(db, hit)
  return opens
}

export interface OrderViewer {
  order: Order
  user: AuthUser | null
  /** Who is looking, for the order's timeline: user:{id}, or token for a link holder. */
  actor: string
  /** The ?token= of the address, when it opened the order (to move it into the cookie). */
  queryToken: string | null
}

export type OrderAccess =
  | { ok: true; viewer: OrderViewer }
  | { ok: false; status: 404 }
  | { ok: false; status: 429; retryAfterSeconds: number }

/** Whether this request may see the order (missing and forbidden are the same answer). */
export async function findViewableOrder(
  request: Request,
  ip: string,
  orderId: string,
): Promise<OrderAccess> {
  const { db } = services()
  const queryToken = new URL(request.url).searchParams.get('token')
  let hit: RateLimitHit | null = null
  if (queryToken !== null) {
    hit = await hitRateLimit(db, `order-token:ip:${ip}`, ORDER_RATE_LIMITS.tokenIp)
    if (!hit.allowed) return { ok: false, status: 429, retryAfterSeconds: hit.retryAfterSeconds }
  }
  const [found, user] = await Promise.all([
    orderId.length <= MAX_ORDER_ID ? getOrderWithAccessHash(db, orderId) : null,
    getUser(request),
  ])
  const via = found ? await orderAccessVia(db, request, found.order, found.accessTokenHash, user) : null
  if (!found || !via) return { ok: false, status: 404 }
  const tokenOpens = via === 'query'
  if (hit && tokenOpens) await releaseRateLimit(db, hit)
  return {
    ok: true,
    viewer: {
      order: found.order,
      user,
      actor: user ? `user:${user.id}` : 'token',
      queryToken: tokenOpens ? queryToken : null,
    },
  }
}

/** The order, when this request may see it; otherwise the order pages' 404 (thrown). */
export async function requireViewableOrder(
  request: Request,
  ip: string,
  orderId: string,
): Promise<OrderViewer> {
  const access = await findViewableOrder(request, ip, orderId)
  if (access.ok) return access.viewer
  if (access.status === 429) tooManyAttempts(access.retryAfterSeconds)
  orderNotFound()
}

/** Response headers of the order pages: never stored, never indexed, Retry-After kept. */
export const orderPageHeaders: HeadersFunction = ({ actionHeaders, errorHeaders }) => {
  const headers = new Headers(ORDER_PAGE_HEADERS)
  const retryAfter = actionHeaders.get('Retry-After') ?? errorHeaders?.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}
