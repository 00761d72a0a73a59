import { data, type HeadersFunction } from 'react-router'
import {
  getOrderWithAccessHash,
  orderTokenMatches,
  SETTLED_STATUSES,
  type Order,
} from '~/data/order.server'
import { revealOrderSecret } from '~/data/stock.server'
import type { StockSecret } from '~/lib/stock-parse'
import { services } from '~/lib/app-context.server'
import { SecretDecryptionError } from '~/lib/crypto.server'
import type { DB } from '~/lib/db.server'
import { getUser, type AuthUser } from '~/services/auth.server'
import {
  addressKey,
  hitPolicy,
  hitRateLimit,
  releaseRateLimit,
  tooManyAttemptsMessage,
  type RateLimitHit,
  type RateLimitRule,
} from '~/lib/rate-limit.server'

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

/** The signed-in user as order access needs it. */
export interface SignedInViewer {
  id: string
  isAdmin: boolean
  permissions: { canManageOrders: boolean }
  email: string
  emailVerified: boolean
}

/**
 * An admin who may see every order: one with Can Manage Orders, the permission every order
 * page of the back office asks for (docs/delivery.md). An admin without it sees only their own.
 */
export function managesOrders(user: SignedInViewer | null): boolean {
  return Boolean(user?.isAdmin && user.permissions.canManageOrders)
}

/**
 * How this request may see the order's details, or null: a token of the order in the query
 * (?token=, from an e-mail), its owner or an admin with Can Manage Orders signed in, or a token
 * in this browser's order cookie. The query comes first so that a page can move a working
 * ?token= into the cookie.
 */
export async function orderAccessVia(
  db: DB,
  request: Request,
  order: Pick<Order, 'id' | 'userId' | 'customerEmail' | 'status'>,
  accessTokenHash: string,
  user: SignedInViewer | null,
): Promise<'query' | 'account' | 'cookie' | null> {
  const fromQuery = new URL(request.url).searchParams.get('token')
  if (fromQuery && (await orderTokenMatches(db, order.id, fromQuery, accessTokenHash)))
    return 'query'
  if (user && (managesOrders(user) || isOwnOrder(order, user))) return 'account'
  const fromCookie = readOrderTokens(request).get(order.id)
  if (fromCookie && (await orderTokenMatches(db, order.id, fromCookie, accessTokenHash)))
    return 'cookie'
  return null
}

/**
 * An order of the signed-in user: placed while signed in, or paid as a guest with the
 * account's address once that address is verified (the same rule as My Orders, `ownedBy` in
 * app/data/customer-orders.server.ts: a guest order never paid proves nothing, since anyone may
 * type any address at checkout).
 */
export function isOwnOrder(
  order: Pick<Order, 'userId' | 'customerEmail' | 'status'>,
  user: { id: string; email: string; emailVerified: boolean },
): boolean {
  if (order.userId !== null) return order.userId === user.id
  return (
    (SETTLED_STATUSES as readonly string[]).includes(order.status) &&
    user.emailVerified &&
    order.customerEmail === user.email.toLowerCase()
  )
}

/**
 * Who may open an order page, its secret link and its invoice: the signed-in owner
 * or an admin with Can Manage Orders, or whoever holds one of the order's tokens (this browser's order cookie from
 * checkout or from a secret link, or ?token=). Everyone else gets exactly the 404 a missing
 * order gets. Order pages are never cached and never indexed: `private, no-store` as every
 * personal answer (docs/security.md, "No caching of personal pages"), said here because a guest
 * carries only the order cookie, not the session cookie that rule goes by; and `Vary: Cookie`,
 * since the same address shows an order to one browser and the 404 to another.
 */
export const ORDER_PAGE_HEADERS = {
  'Cache-Control': 'private, no-store',
  Vary: 'Cookie',
  'X-Robots-Tag': 'noindex',
} as const

// Tokens tried from one address are the shared policy `orderTokenIp` (rate-limit.server.ts); a
// working token gives its attempt back, so only failures add up. Tokens are 256-bit random:
// this stops noise, not luck.
export const ORDER_RATE_LIMITS = {
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

/**
 * How an order's file (invoice, credit note) is refused, in plain text: the same 404 for a
 * missing order, one that may not be seen and a file it does not have; 429 with Retry-After.
 */
function orderFileRefused(retryAfterSeconds: number | null): Response {
  const headers = { ...ORDER_PAGE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }
  if (retryAfterSeconds === null) return new Response('Not Found', { status: 404, headers })
  return new Response(tooManyAttemptsMessage(retryAfterSeconds), {
    status: 429,
    headers: { ...headers, 'Retry-After': String(retryAfterSeconds) },
  })
}

/**
 * An order's PDF (its invoice or a credit note) for whoever may see the order: `load` finds the
 * document of the order (null: it has none, answered as the same 404), `render` draws it.
 */
export async function orderPdf<T>(
  request: Request,
  ip: string,
  orderId: string,
  load: (order: Order) => Promise<T | null>,
  render: (document: T) => Promise<{ pdf: Buffer; filename: string }>,
): Promise<Response> {
  const access = await findViewableOrder(request, ip, orderId)
  if (!access.ok && access.status === 429) return orderFileRefused(access.retryAfterSeconds)
  const document = access.ok ? await load(access.viewer.order) : null
  if (!document) return orderFileRefused(null)
  const { pdf, filename } = await render(document)
  return new Response(new Uint8Array(pdf), {
    headers: {
      ...ORDER_PAGE_HEADERS,
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Content-Length': String(pdf.length),
    },
  })
}

function tooManyAttempts(retryAfterSeconds: number): never {
  throw data(tooManyAttemptsMessage(retryAfterSeconds), {
    status: 429,
    headers: { ...ORDER_PAGE_HEADERS, 'Retry-After': String(retryAfterSeconds) },
  })
}

/** The counter of each ORDER_RATE_LIMITS rule, before the address. */
const ORDER_LIMIT_KEYS = {
  revealIp: 'order-reveal:ip',
  reportIp: 'order-report:ip',
} as const satisfies Record<keyof typeof ORDER_RATE_LIMITS, string>

/**
 * Counts one attempt of an ORDER_RATE_LIMITS rule for this address (counted as `addressKey` gives
 * it: an IPv6 client by its /64); null when allowed, else the blocking hit.
 */
export async function overLimit(
  limit: keyof typeof ORDER_RATE_LIMITS,
  ip: string,
): Promise<RateLimitHit | null> {
  const key = `${ORDER_LIMIT_KEYS[limit]}:${addressKey(ip)}`
  const hit = await hitRateLimit(services().db, key, ORDER_RATE_LIMITS[limit])
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
  const hit = await hitPolicy(db, 'orderTokenIp', ip)
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
  /** What opened it: ?token=, the signed-in account, or this browser's order cookie. */
  via: 'query' | 'account' | 'cookie'
}

/**
 * Whether `user` may see a payment link's customer in full (name and e-mail address): an admin
 * with Can Manage Orders, or the customer signed in with the verified address the link was made
 * out to. Every part of a link's address can be guessed and anyone holding it may press Pay, so
 * nobody else does (docs/payments.md, "Payment links").
 */
export function seesLinkCustomer(user: SignedInViewer | null, customerEmail: string): boolean {
  return managesOrders(user) || isLinkCustomer(user, customerEmail)
}

/**
 * Whether `user` is the customer a payment link was made out to: signed in with that verified
 * address. Only then does an order paid through the link go to the account that pressed Pay;
 * anyone else's (an admin paying for the customer, a stranger who was sent the link) stays
 * without an account, and shows in the customer's own account once they sign up and verify the
 * address (`ownedBy`, app/data/customer-orders.server.ts).
 */
export function isLinkCustomer(user: SignedInViewer | null, customerEmail: string): boolean {
  return Boolean(user?.emailVerified && user.email.toLowerCase() === customerEmail.toLowerCase())
}

/**
 * Whether the viewer may read the customer's e-mail address in full on the result page. An
 * order placed through checkout: whoever may open it, since its buyer typed the address in. A
 * payment link's order is made out to the customer the admin named, but anyone holding the link
 * may press Pay, and gets the order's cookie: there the link page's rule decides
 * (`seesLinkCustomer`), whatever opened the order, and a token in the address (?token=, only in
 * the order's e-mails to the customer) shows it too (docs/payments.md, "Who sees an order on the
 * result page").
 */
export function seesCustomerEmail(viewer: Pick<OrderViewer, 'order' | 'via' | 'user'>): boolean {
  if (viewer.order.paymentLinkId === null) return true
  return viewer.via === 'query' || seesLinkCustomer(viewer.user, viewer.order.customerEmail)
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
    hit = await hitPolicy(db, 'orderTokenIp', ip)
    if (!hit.allowed) return { ok: false, status: 429, retryAfterSeconds: hit.retryAfterSeconds }
  }
  const [found, user] = await Promise.all([
    orderId.length <= MAX_ORDER_ID ? getOrderWithAccessHash(db, orderId) : null,
    getUser(request),
  ])
  const via = found
    ? await orderAccessVia(db, request, found.order, found.accessTokenHash, user)
    : null
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
      via,
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

/** What the buyer is told when the shop can no longer read the delivered item. */
export const SECRET_UNREADABLE =
  'These details cannot be shown right now. Please report a problem with this order and the shop will send them again.'

/**
 * revealOrderSecret for the buyer's pages. An item the shop can no longer decrypt (APP_SECRET
 * changed since it was stored) is `unreadable`, a clear message for the buyer and a line in the
 * log for the owner, instead of an error page.
 */
export async function revealForBuyer(
  ...args: Parameters<typeof revealOrderSecret>
): Promise<{ secret: StockSecret | null; unreadable: boolean }> {
  try {
    return { secret: await revealOrderSecret(...args), unreadable: false }
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) throw error
    console.error(
      `[orders] the item of order ${args[2]} cannot be decrypted (APP_SECRET changed since it was stored): deliver new details from the order page`,
    )
    return { secret: null, unreadable: true }
  }
}
