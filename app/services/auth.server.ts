import { betterAuth } from 'better-auth'
import { APIError, isAPIError } from 'better-auth/api'
import { verifyJWT, verifyPassword } from 'better-auth/crypto'
import { genericOAuth } from 'better-auth/plugins/generic-oauth'
import { href, redirect } from 'react-router'
import {
  ALL_PERMISSIONS,
  NO_PERMISSIONS,
  dropProviderLinks,
  effectiveAccess,
  endUserSessions,
  findSignInAccount,
  forgetResetTokens,
  getUserProfile,
  isListedAdmin,
  LAST_ACTIVE_EVERY_MS,
  markEmailVerified,
  resetTokenUser,
  toIso,
  touchLastActive,
  type Role,
  type UserProfile,
  type UserStatus,
} from '~/data/user.server'
import {
  AUTH_MESSAGES,
  displayNameText,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  safeRedirect,
} from '~/lib/validation/auth'
import { services } from '~/lib/app-context.server'
import { SESSION_COOKIE_PREFIX, sessionCookies } from '~/lib/session-cookie'
import { readCache } from '~/lib/read-cache.server'
import { engineOf, renamingInPlugin, type DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { newId } from '~/lib/id.server'
import { wakeJobRunner } from '~/lib/jobs.server'
import { enqueueMailJob } from '~/lib/mail.server'
import { startCooldown } from '~/lib/rate-limit.server'

/** The mail with a link that confirms an address (and signs in); the job issues the link. */
export const VERIFY_EMAIL_JOB = 'account.verify-email'
/** The mail to an account's owner when someone signs up with its address. */
export const SIGNUP_ATTEMPT_JOB = 'account.signup-attempt'
/**
 * The mail telling an account's owner that its password was changed, set or reset by them (an
 * admin's change has its own): whoever did it without them learns nothing they can use, and the
 * owner learns to act (app/services/notifications/account-mail.server.ts).
 */
export const PASSWORD_CHANGED_JOB = 'account.password-changed'
export type PasswordChange = 'changed' | 'set' | 'reset'

/** Queues that mail; a failure to queue it is logged, the password is set either way. */
async function mailPasswordChange(db: DB, userId: string, how: PasswordChange): Promise<void> {
  try {
    await enqueueMailJob(db, PASSWORD_CHANGED_JOB, { userId, how })
    wakeJobRunner()
  } catch (error) {
    console.error('[auth] could not queue the password mail:', error)
  }
}

/** How long a confirmation link works. */
export const VERIFY_EMAIL_TTL_SECONDS = 24 * 60 * 60

/**
 * Accounts and sessions, on better-auth (e-mail + password, Google through OpenID Connect)
 * over our own database. Our routes call better-auth on the server (`auth.api.*`) from their
 * actions, so every form works without JavaScript and passes our validation and rate limits
 * first; only the OAuth callback reaches better-auth's HTTP handler (/api/auth/callback/*).
 *
 * Sessions live in the session table; the cookie (kb.session_token) is httpOnly,
 * SameSite=Lax and Secure when PUBLIC_URL is https.
 */
export const SUSPENDED_MESSAGE = AUTH_MESSAGES.accountSuspended
export const GOOGLE_PROVIDER_ID = 'google'
export const GOOGLE_ISSUER_DEFAULT = 'https://accounts.google.com'
export const SESSION_DAYS = 30
/** The error code of a Google sign-in whose address Google has not verified. */
export const GOOGLE_EMAIL_UNVERIFIED = 'GOOGLE_EMAIL_UNVERIFIED'

/** better-auth's answer to a wrong e-mail or password (the spec shows the provider's message). */
export const INVALID_LOGIN_MESSAGE = 'Invalid email or password'

/**
 * What a page may know about the signed-in user: their profile without the bookkeeping times,
 * and whether they are an admin.
 */
export interface AuthUser extends Omit<UserProfile, 'updatedAt' | 'lastActiveAt'> {
  /** Stored role admin, or listed in ADMIN_EMAILS. */
  isAdmin: boolean
}

/**
 * Queues the mail that confirms `userId`'s address, unless one was queued for the account in the
 * last 10 minutes (`confirmMailUser`): sign-up asks for one, and so does every sign-in with the
 * right password before the address is confirmed, so whoever signed up with someone else's
 * address could otherwise have the shop mail that person on every login (docs/auth.md,
 * "Sign-up"). A refused one queues nothing and changes no answer: the sign-in still says
 * "Invalid email or password". The cooldown starts only if the job is written with it.
 * Returns whether a mail was queued.
 */
export async function queueConfirmationMail(
  db: DB,
  userId: string,
  redirectTo = '',
): Promise<boolean> {
  const queued = await db.transaction().execute(async (trx) => {
    const cooldown = await startCooldown(trx, 'confirmMailUser', userId)
    if (!cooldown.allowed) return false
    await enqueueMailJob(trx, VERIFY_EMAIL_JOB, {
      userId,
      ...(redirectTo ? { redirectTo } : {}),
    })
    return true
  })
  if (queued) wakeJobRunner()
  return queued
}

/**
 * Queues the mail telling `userId`'s owner that someone tried to sign up with their address,
 * unless one was queued for the account in the last 10 minutes (`signUpNoticeUser`, the same
 * kind of cooldown as `confirmMailUser`): otherwise anyone could have the shop mail an address
 * with an account as often as `signUpEmail` lets sign-ups through, some 480 a day (docs/auth.md,
 * "Sign-up"). A refused one queues nothing and changes no answer: sign-up answers a taken
 * address as a new one either way (docs/decisions/0008-sign-up-by-mailed-link.md). The cooldown
 * starts only if the job is written with it. Returns whether a mail was queued.
 */
async function queueSignUpNotice(db: DB, userId: string): Promise<boolean> {
  const queued = await db.transaction().execute(async (trx) => {
    const cooldown = await startCooldown(trx, 'signUpNoticeUser', userId)
    if (!cooldown.allowed) return false
    await enqueueMailJob(trx, SIGNUP_ATTEMPT_JOB, { userId })
    return true
  })
  if (queued) wakeJobRunner()
  return queued
}

/** A better-auth instance over `db` (tests build their own over a test database). */
export function createAuth(
  db: DB,
  env: Pick<
    Env,
    | 'PUBLIC_URL'
    | 'APP_SECRET'
    | 'ADMIN_EMAILS'
    | 'GOOGLE_CLIENT_ID'
    | 'GOOGLE_CLIENT_SECRET'
    | 'GOOGLE_ISSUER'
  >,
) {
  const engine = engineOf(db)
  const adminGrant = { role: 'admin', ...ALL_PERMISSIONS }
  const google =
    env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? genericOAuth({
          config: [
            {
              providerId: GOOGLE_PROVIDER_ID,
              name: 'Google',
              clientId: env.GOOGLE_CLIENT_ID,
              clientSecret: env.GOOGLE_CLIENT_SECRET,
              discoveryUrl: `${env.GOOGLE_ISSUER ?? GOOGLE_ISSUER_DEFAULT}/.well-known/openid-configuration`,
              scopes: ['openid', 'email', 'profile'],
              // The original's account chooser.
              prompt: 'select_account',
              pkce: true,
              // New accounts only when the sign-in form asks for it (registration may be closed).
              disableImplicitSignUp: true,
            },
          ],
        })
      : null

  return betterAuth({
    appName: 'KeyBazaar',
    baseURL: env.PUBLIC_URL,
    basePath: '/api/auth',
    secret: env.APP_SECRET,
    trustedOrigins: [new URL(env.PUBLIC_URL).origin],
    // Our database handle: it maps better-auth's camelCase field names to our snake_case
    // columns, and it shares the one connection (SQLite) or pool (PostgreSQL).
    database: { db: renamingInPlugin(db), type: engine, transaction: true },
    telemetry: { enabled: false },
    // Rate limits are ours, in the database, applied in our actions (rate-limit.server.ts).
    rateLimit: { enabled: false },
    // A taken address must not show through sign-up (docs/decisions/0008-sign-up-by-mailed-link.md):
    // every sign-up answers the same and continues by mail, and an account signs in only
    // once its address is confirmed. better-auth then answers a taken address with the same
    // response as a new one and calls onExistingUserSignUp instead.
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      requireEmailVerification: true,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      // Reset tokens and their mails are issued by the mail job (account-mail.server.ts);
      // better-auth only consumes them.
      sendResetPassword: async () => {},
      // At most one such notice per account in 10 minutes (queueSignUpNotice).
      onExistingUserSignUp: async ({ user }) => {
        await queueSignUpNotice(db, user.id)
      },
    },
    emailVerification: {
      // Also for a Google sign-up without a verified e-mail (better-auth's OAuth flow).
      sendOnSignUp: true,
      // A sign-in with the right password before the address is confirmed mails a new link
      // (at most one per account in 10 minutes, counting the sign-up's: queueConfirmationMail).
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFY_EMAIL_TTL_SECONDS,
      // The link better-auth offers is ignored: the job issues its own when it runs, so no
      // usable link sits in the job table. Only the page to return to is kept from it.
      sendVerificationEmail: async ({ user, url }) => {
        const redirectTo = safeRedirect(new URL(url).searchParams.get('callbackURL'), '')
        await queueConfirmationMail(db, user.id, redirectTo)
      },
    },
    // Only SHA-256 of reset tokens and OAuth states is stored: a copy of the database is no key.
    verification: { storeIdentifier: 'hashed' },
    user: {
      fields: { image: 'photo' },
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'user', input: false },
        status: { type: 'string', required: false, defaultValue: 'active', input: false },
        canCreateProducts: { type: 'boolean', required: false, defaultValue: false, input: false },
        canManageOrders: { type: 'boolean', required: false, defaultValue: false, input: false },
        canManageUsers: { type: 'boolean', required: false, defaultValue: false, input: false },
        lastActiveAt: { type: 'date', required: false, input: false },
      },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
    },
    account: {
      // No provider is trusted blindly: a Google identity joins an existing account only when
      // Google has verified its address (better-auth checks `email_verified`).
      accountLinking: { enabled: true, trustedProviders: [] },
    },
    onAPIError: { errorURL: `${env.PUBLIC_URL}${href('/login')}?provider=google` },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: env.PUBLIC_URL.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      database: { generateId: () => newId() },
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    databaseHooks: {
      user: {
        create: {
          // ADMIN_EMAILS are admins with every permission, once the address
          // is proved: Google's verified e-mail here; after a mailed link, the session that
          // link opens (session.create below).
          before: async (user, ctx) => {
            // An account from a Google identity whose address Google has not verified would
            // be confirmed by a click of the address's owner and then be the identity's:
            // refused (docs/auth.md).
            const path = ctx?.path ?? ''
            const fromProvider =
              path.startsWith('/oauth2/callback/') || path.startsWith('/callback/')
            if (!user.emailVerified && fromProvider) {
              throw new APIError('FORBIDDEN', {
                message: AUTH_MESSAGES.googleEmailUnverified,
                code: GOOGLE_EMAIL_UNVERIFIED,
              })
            }
            // A Google profile's name is cleaned as a typed one is (no invisible or
            // direction-control characters: `displayNameText`), the address when nothing is left.
            const named = fromProvider
              ? { ...user, name: displayNameText(user.name).trim().slice(0, 100) || user.email }
              : user
            return {
              data:
                named.emailVerified && isListedAdmin(named.email, env.ADMIN_EMAILS)
                  ? { ...named, ...adminGrant }
                  : named,
            }
          },
        },
      },
      session: {
        create: {
          // Every sign-in (password, Google, a confirmation link) creates a session: refuse
          // suspended users and re-apply verified ADMIN_EMAILS. Runs inside better-auth's
          // transaction, so it must use the adapter from the context, not `db` (which would
          // wait for that transaction).
          before: async (session, ctx) => {
            if (!ctx) throw new Error('session.create outside an auth endpoint')
            const internal = ctx.context.internalAdapter
            const user = (await internal.findUserById(session.userId)) as {
              email: string
              emailVerified?: boolean | number | null
              status?: string
            } | null
            if (!user) return false
            if (user.status === 'suspended') {
              throw new APIError('FORBIDDEN', {
                message: SUSPENDED_MESSAGE,
                code: 'ACCOUNT_SUSPENDED',
              })
            }
            const listed =
              Boolean(user.emailVerified) && isListedAdmin(user.email, env.ADMIN_EMAILS)
            await internal.updateUser(session.userId, {
              lastActiveAt: new Date(),
              ...(listed ? adminGrant : {}),
            })
            return { data: session }
          },
        },
      },
    },
    plugins: google ? [google] : [],
  })
}

export type Auth = ReturnType<typeof createAuth>

const holder = globalThis as typeof globalThis & { __keybazaarAuth?: { db: DB; auth: Auth } }

/** The better-auth instance over the process's database (built on first use). */
export function getAuth(): Auth {
  const { db, env } = services()
  if (holder.__keybazaarAuth?.db !== db) holder.__keybazaarAuth = { db, auth: createAuth(db, env) }
  return holder.__keybazaarAuth.auth
}

export function googleEnabled(env: Env = services().env): boolean {
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET)
}

// ---------------------------------------------------------------------------------------
// Sessions and the signed-in user

interface SessionUser {
  id: string
  name: string
  email: string
  emailVerified?: boolean | number | null
  image?: string | null
  role?: string | null
  status?: string | null
  canCreateProducts?: boolean | number | null
  canManageOrders?: boolean | number | null
  canManageUsers?: boolean | number | null
  createdAt: Date | string
}

function toAuthUser(user: SessionUser, adminEmails: readonly string[]): AuthUser {
  const role: Role = user.role === 'admin' ? 'admin' : 'user'
  const status: UserStatus =
    user.status === 'suspended' || user.status === 'inactive' ? user.status : 'active'
  const access = effectiveAccess(
    {
      email: user.email,
      emailVerified: Boolean(user.emailVerified),
      role,
      permissions: {
        canCreateProducts: Boolean(user.canCreateProducts),
        canManageOrders: Boolean(user.canManageOrders),
        canManageUsers: Boolean(user.canManageUsers),
      },
    },
    adminEmails,
  )
  // An inactive account may still sign in and buy, but its admin role rests: no back office
  // until it is active again (docs/auth.md). The shop's alerts and the last-admin rules count
  // only active admins too.
  const active = status === 'active'
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: Boolean(user.emailVerified),
    photo: user.image ?? null,
    role,
    status,
    isAdmin: active && access.isAdmin,
    permissions: active ? access.permissions : { ...NO_PERMISSIONS },
    createdAt: toIso(user.createdAt),
  }
}

export interface SessionState {
  user: AuthUser | null
  /** Set-Cookie headers to pass on (a refreshed or cleared session cookie). */
  headers: Headers
}

function setCookieHeaders(source: Headers | undefined | null): Headers {
  const headers = new Headers()
  for (const cookie of source?.getSetCookie() ?? []) headers.append('Set-Cookie', cookie)
  return headers
}

// One session lookup per request, however many loaders ask.
const sessionCache = new WeakMap<Request, Promise<SessionState>>()

/**
 * And one per session per second or so: a signed-in visitor's pages reuse the session and user
 * read for up to READ_CACHE_TTL_MS (app/lib/read-cache.server.ts). Any write in this process to
 * the session or user tables (sign-out, a password change or reset, suspension, a role or
 * permission change, an edited profile) drops every copy at once; in another process such a
 * change shows within that second (docs/security.md). An answer that refreshes the cookie is
 * not kept, so its Set-Cookie is sent once.
 */
const recentSessions = readCache<string, SessionState>(['session', 'user'])

async function loadSession(request: Request): Promise<SessionState> {
  const { db, env } = services()
  const { headers, response } = await getAuth().api.getSession({
    headers: request.headers,
    returnHeaders: true,
  })
  const cookies = setCookieHeaders(headers)
  if (!response) return { user: null, headers: cookies }
  const user = toAuthUser(response.user as SessionUser, env.ADMIN_EMAILS)
  if (user.status === 'suspended') {
    // Suspension ends sessions when it happens; this covers a row changed by hand.
    await endUserSessions(db, user.id)
    return { user: null, headers: cookies }
  }
  // Not awaited: a slow write must not delay the page. Only when the stored time is old enough
  // for touchLastActive to change it, so a busy session's reads are not dropped by its writes.
  const lastActive = (response.user as { lastActiveAt?: Date | string | null }).lastActiveAt
  if (!lastActive || Date.now() - new Date(lastActive).getTime() >= LAST_ACTIVE_EVERY_MS)
    touchLastActive(db, user.id, new Date(), LAST_ACTIVE_EVERY_MS).catch((error: unknown) =>
      console.error(
        '[auth] could not record activity:',
        error instanceof Error ? error.message : error,
      ),
    )
  return { user, headers: cookies }
}

/** The signed-in user and any Set-Cookie headers the root loader should pass on. */
export function getSessionState(request: Request): Promise<SessionState> {
  let state = sessionCache.get(request)
  if (!state) {
    const key = sessionCookies(request.headers.get('cookie'))
    state = key
      ? recentSessions.get(
          services().db,
          key,
          () => loadSession(request),
          (loaded) => !loaded.headers.has('Set-Cookie'),
        )
      : // Without a session cookie better-auth finds no session and sets no cookie, so such a
        // request (every buyer who has not signed in, each checkout step) does not ask it.
        Promise.resolve({ user: null, headers: new Headers() })
    sessionCache.set(request, state)
  }
  return state
}

/** The signed-in user, or null. */
export async function getUser(request: Request): Promise<AuthUser | null> {
  return (await getSessionState(request)).user
}

/** The path and query of a request, for "come back here after signing in". */
export function currentPath(request: Request): string {
  const url = new URL(request.url)
  return `${url.pathname}${url.search}`
}

/** The signed-in user; anyone else is sent to the login page and brought back after. */
export async function requireUser(request: Request): Promise<AuthUser> {
  const user = await getUser(request)
  if (!user)
    throw redirect(`${href('/login')}?redirectTo=${encodeURIComponent(currentPath(request))}`)
  return user
}

/** Where the header's "Dashboard" goes. */
export function dashboardPath(user: Pick<AuthUser, 'isAdmin'>): string {
  return user.isAdmin ? href('/admin/dashboard') : href('/dashboard')
}

/** What the public header shows (the `user` prop of the header). */
export interface HeaderUser {
  name: string
  email: string
  isAdmin: boolean
}

export function toHeaderUser(user: AuthUser | null): HeaderUser | null {
  return user ? { name: user.name, email: user.email, isAdmin: user.isAdmin } : null
}

// ---------------------------------------------------------------------------------------
// Actions on better-auth, with errors turned into plain words

export type AuthResult =
  { ok: true; headers: Headers } | { ok: false; status: number; message: string; code?: string }

/**
 * The request's headers as better-auth may see them when it opens a session: better-auth reads
 * the client address from X-Forwarded-For (`ipAddressHeaders` above) and stores it with the
 * session, so the visitor's own header is never passed on, only the address the server trusts
 * (`context.clientIp`, `clientIp` in app/lib/rate-limit.server.ts; docs/security.md "Trusted
 * proxies"). Without one ('unknown') none is sent. Cookies and the rest are kept.
 */
export function withClientIp(source: Headers, ip: string): Headers {
  const headers = new Headers(source)
  headers.delete('x-forwarded-for')
  if (ip !== 'unknown') headers.set('x-forwarded-for', ip)
  return headers
}

/** Headers better-auth may use: the browser, the client address; never the caller's cookies. */
function providerHeaders(request: Request, ip: string): Headers {
  const headers = new Headers()
  const userAgent = request.headers.get('user-agent')
  if (userAgent) headers.set('user-agent', userAgent)
  return withClientIp(headers, ip)
}

/** The provider's message in plain words; the spec's fallback when it has none. */
export function describeAuthError(
  error: unknown,
  fallback: string,
): { status: number; message: string; code?: string } {
  if (isAPIError(error)) {
    const code = typeof error.body?.code === 'string' ? error.body.code : undefined
    const status = typeof error.statusCode === 'number' ? error.statusCode : 400
    if (code === 'PASSWORD_TOO_SHORT')
      return { status, message: AUTH_MESSAGES.passwordTooShort, code }
    if (code === 'PASSWORD_TOO_LONG')
      return { status, message: AUTH_MESSAGES.passwordTooLong, code }
    if (code === 'INVALID_EMAIL') return { status, message: AUTH_MESSAGES.emailInvalid, code }
    const message =
      typeof error.body?.message === 'string' && error.body.message ? error.body.message : fallback
    return {
      status: status >= 500 ? 500 : status,
      message: status >= 500 ? fallback : message,
      code,
    }
  }
  console.error('[auth] unexpected error:', error)
  return { status: 500, message: fallback }
}

export async function signInWithPassword(
  request: Request,
  ip: string,
  input: { email: string; password: string },
): Promise<AuthResult> {
  try {
    const { headers } = await getAuth().api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: providerHeaders(request, ip),
      returnHeaders: true,
    })
    return { ok: true, headers: setCookieHeaders(headers) }
  } catch (error) {
    const described = describeAuthError(error, AUTH_MESSAGES.loginFailed)
    // The right password for an address not confirmed yet: better-auth has mailed a new
    // link. Answered like a wrong password, or signing in with the password one chose at
    // sign-up would tell whether that sign-up created the account
    // (docs/decisions/0008-sign-up-by-mailed-link.md).
    if (described.code === 'EMAIL_NOT_VERIFIED') {
      return {
        ok: false,
        status: 401,
        message: INVALID_LOGIN_MESSAGE,
        code: 'INVALID_EMAIL_OR_PASSWORD',
      }
    }
    return { ok: false, ...described }
  }
}

export async function signUpWithPassword(
  request: Request,
  ip: string,
  input: { name: string; email: string; password: string; redirectTo?: string },
): Promise<AuthResult> {
  try {
    // A new address gets an unconfirmed account and a confirmation mail; a taken one gets
    // the same answer and its owner a notice (onExistingUserSignUp). Nobody is signed in.
    await getAuth().api.signUpEmail({
      body: {
        name: input.name,
        email: input.email,
        password: input.password,
        // Where the confirmation link returns to (kept in the job, see sendVerificationEmail).
        ...(input.redirectTo ? { callbackURL: input.redirectTo } : {}),
      },
      headers: providerHeaders(request, ip),
    })
    return { ok: true, headers: new Headers() }
  } catch (error) {
    return { ok: false, ...describeAuthError(error, AUTH_MESSAGES.signupFailed) }
  }
}

/**
 * A confirmation link as its page shows it, read without changing anything: not a valid link
 * (bad signature, expired, no such account), for another account than the one signed in here,
 * for a suspended account, for an address already confirmed, or open: waiting for its owner.
 */
export type ConfirmationLink =
  | { state: 'invalid' }
  | { state: 'other-account'; signedInAs: string }
  | { state: 'suspended' }
  | { state: 'confirmed' }
  | { state: 'needs-password' }
  | { state: 'open'; email: string }

/**
 * What a confirmation link's token stands for: its signature and expiry checked as
 * better-auth checks them when the link is used, nothing used up.
 */
export async function readConfirmationLink(
  request: Request,
  token: string,
): Promise<ConfirmationLink> {
  return (await inspectConfirmationLink(request, token)).link
}

/** The link's state, with its account's password hash for the form that confirms it. */
async function inspectConfirmationLink(
  request: Request,
  token: string,
): Promise<{ link: ConfirmationLink; passwordHash: string | null }> {
  const account = await confirmationAccount(token)
  const link = account ? await linkState(request, account) : ({ state: 'invalid' } as const)
  return { link, passwordHash: account?.passwordHash ?? null }
}

async function linkState(
  request: Request,
  account: NonNullable<Awaited<ReturnType<typeof findSignInAccount>>>,
): Promise<ConfirmationLink> {
  // Confirming signs the link's account in, replacing any session this browser has. A link
  // for another account than the one signed in here is refused, untouched: otherwise anyone
  // could send a signed-in buyer their own unconfirmed link and have the buyer's next purchase
  // made on their account (docs/auth.md).
  const current = await getUser(request)
  if (current && current.email.toLowerCase() !== account.email.toLowerCase())
    return { state: 'other-account', signedInAs: current.email }
  if (account.status === 'suspended') return { state: 'suspended' }
  if (account.emailVerified) return { state: 'confirmed' }
  // An account without a password could only come from a Google identity Google had not
  // verified (refused since): whoever clicks cannot show they made it, so only a password set
  // through a mailed reset link confirms it (docs/decisions/0021).
  if (account.passwordHash === null) return { state: 'needs-password' }
  return { state: 'open', email: account.email }
}

/** The account a confirmation token is for, with its password's hash; null for a bad token. */
async function confirmationAccount(token: string) {
  const { db, env } = services()
  const payload = await verifyJWT<{ email?: unknown; userId?: unknown }>(token, env.APP_SECRET)
  if (typeof payload?.email !== 'string') return null
  const account = await findSignInAccount(db, payload.email)
  // A link names its account too: one for an account deleted since, whose address signed up
  // again, is not this account's.
  if (!account || (typeof payload.userId === 'string' && payload.userId !== account.id)) return null
  return account
}

export type ConfirmEmailResult =
  | { ok: true; signedIn: boolean; headers: Headers }
  | { ok: false; link: ConfirmationLink }
  | { ok: false; wrongPassword: true }

/**
 * Confirms an address with the token of a mailed link and, for an account with a password, the
 * password chosen at sign-up. The mailbox proves the address; the password proves that whoever
 * chose it is the one confirming. Without it, someone who signed up first with another's
 * address would have their password confirmed by the owner's click, and could then sign in as
 * the owner (an admin, for an address in ADMIN_EMAILS; docs/decisions/0021). The first use signs
 * the account in (`signedIn`, with the cookie); a confirmed address's link only says so.
 */
export async function confirmEmailWithToken(
  request: Request,
  ip: string,
  token: string,
  password: string,
): Promise<ConfirmEmailResult> {
  const { link, passwordHash: hash } = await inspectConfirmationLink(request, token)
  if (link.state === 'confirmed') return { ok: true, signedIn: false, headers: new Headers() }
  if (link.state !== 'open') return { ok: false, link }
  if (!hash || !password || !(await verifyPassword({ hash, password })))
    return { ok: false, wrongPassword: true }
  try {
    // The session it opens stores the trusted client address, not the visitor's header.
    const { headers } = await getAuth().api.verifyEmail({
      query: { token },
      headers: withClientIp(request.headers, ip),
      returnHeaders: true,
    })
    const cookies = setCookieHeaders(headers)
    return { ok: true, signedIn: cookies.has('set-cookie'), headers: cookies }
  } catch (error) {
    if (!isAPIError(error)) console.error('[auth] e-mail confirmation failed:', error)
    return { ok: false, link: { state: 'invalid' } }
  }
}

/** Ends the current session; returns the headers that clear the cookie. */
export async function signOut(request: Request): Promise<Headers> {
  try {
    const { headers } = await getAuth().api.signOut({
      headers: request.headers,
      returnHeaders: true,
    })
    return setCookieHeaders(headers)
  } catch (error) {
    // Logout failures are only logged; the cookie is cleared regardless.
    console.error('[auth] sign-out failed:', error instanceof Error ? error.message : error)
    const headers = new Headers()
    const secure = services().env.PUBLIC_URL.startsWith('https://')
    const name = `${secure ? '__Secure-' : ''}${SESSION_COOKIE_PREFIX}.session_token`
    headers.append(
      'Set-Cookie',
      `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
    )
    return headers
  }
}

/** Starts Google sign-in; returns the provider's URL and the state cookie. */
export async function startGoogleSignIn(input: {
  callbackURL: string
  errorCallbackURL: string
  allowSignUp: boolean
}): Promise<{ ok: true; url: string; headers: Headers } | { ok: false; message: string }> {
  try {
    const { headers, response } = await getAuth().api.signInSocial({
      body: {
        provider: GOOGLE_PROVIDER_ID,
        callbackURL: input.callbackURL,
        errorCallbackURL: input.errorCallbackURL,
        requestSignUp: input.allowSignUp,
        disableRedirect: true,
      },
      returnHeaders: true,
    })
    if (!response.url) return { ok: false, message: 'Google sign-in is not available right now.' }
    return { ok: true, url: response.url, headers: setCookieHeaders(headers) }
  } catch (error) {
    return { ok: false, message: describeAuthError(error, AUTH_MESSAGES.googleLoginFailed).message }
  }
}

/** Sets a new password with a reset token (single use; ends every session of the user). */
export async function resetPasswordWithToken(token: string, password: string): Promise<AuthResult> {
  try {
    const { db } = services()
    const userId = await resetTokenUser(db, token)
    const unconfirmed = userId ? (await getUserProfile(db, userId))?.emailVerified === false : false
    await getAuth().api.resetPassword({ body: { token, newPassword: password } })
    // Any other reset link of the account stops working now that a password is set (docs/auth.md).
    if (userId) await forgetResetTokens(db, userId)
    if (userId && unconfirmed) {
      // The address's owner takes over an account someone else made with it: whatever else
      // signed in to it (a Google identity Google had not verified) goes (docs/decisions/0021).
      await dropProviderLinks(db, userId)
    }
    // The link came by mail to the account's address: that proves the address too (and lets
    // an account made by admin:create, or one whose confirmation mail was lost, sign in).
    if (userId) await markEmailVerified(db, userId)
    if (userId) await mailPasswordChange(db, userId, 'reset')
    return { ok: true, headers: new Headers() }
  } catch (error) {
    const described = describeAuthError(error, 'Failed to reset password. Please try again.')
    if (described.code === 'INVALID_TOKEN') {
      return {
        ...described,
        ok: false,
        message: 'This link has expired or was already used. Request a new one.',
      }
    }
    return { ok: false, ...described }
  }
}

/**
 * Changes the signed-in user's password; other sessions end, this one gets a new cookie. The new
 * session stores `ip`, the trusted client address (`context.clientIp`); without it, none.
 */
export async function changePassword(
  request: Request,
  input: { currentPassword: string; newPassword: string },
  ip = 'unknown',
): Promise<AuthResult> {
  try {
    const { headers, response } = await getAuth().api.changePassword({
      body: {
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        revokeOtherSessions: true,
      },
      headers: withClientIp(request.headers, ip),
      returnHeaders: true,
    })
    // A reset link mailed before the change must not set the password back (docs/auth.md).
    await forgetResetTokens(services().db, response.user.id)
    await mailPasswordChange(services().db, response.user.id, 'changed')
    return { ok: true, headers: setCookieHeaders(headers) }
  } catch (error) {
    const described = describeAuthError(error, 'Failed to change password. Please try again.')
    if (described.code === 'INVALID_PASSWORD')
      return { ...described, ok: false, message: 'Current password is incorrect' }
    return { ok: false, ...described }
  }
}

/** Gives a password to an account that has none (signed up with Google). */
export async function setFirstPassword(request: Request, newPassword: string): Promise<AuthResult> {
  try {
    const { db } = services()
    await getAuth().api.setPassword({ body: { newPassword }, headers: request.headers })
    // Like a changed password, a first one ends every other session of the account
    // (docs/security.md, "Changing the password"): better-auth's setPassword keeps them all.
    const current = await getAuth()
      .api.getSession({
        headers: request.headers,
        query: { disableCookieCache: true, disableRefresh: true },
      })
      .catch(() => null)
    if (current) {
      await db
        .deleteFrom('session')
        .where('userId', '=', current.user.id)
        .where('id', '!=', current.session.id)
        .execute()
    }
    // A reset link mailed before must not replace the password just chosen (docs/auth.md).
    const user = await getUser(request)
    if (user) await forgetResetTokens(db, user.id)
    if (user) await mailPasswordChange(db, user.id, 'set')
    return { ok: true, headers: new Headers() }
  } catch (error) {
    return { ok: false, ...describeAuthError(error, 'Failed to set password. Please try again.') }
  }
}

/** Does the user have an e-mail + password login (or only Google)? */
export async function hasPassword(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('account')
    .select('id')
    .where('userId', '=', userId)
    .where('providerId', '=', 'credential')
    .where('password', 'is not', null)
    .executeTakeFirst()
  return Boolean(row)
}
