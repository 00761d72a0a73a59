import type { RequestHandler } from 'express'
import { GOOGLE_ISSUER_DEFAULT, googleEnabled } from '~/services/auth.server'
import {
  CROSS_SITE_MESSAGE,
  isCrossSite,
  isCrossSiteExempt,
  isStateChanging,
} from '~/lib/cross-site.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { randomBytes } from '~/lib/random.server'
import { hasSessionCookie } from '~/lib/session-cookie'
import { PAYTM_HOSTS, paytmFormOrigin } from '~/services/payment/config.server'
import { razorpayCheckoutOrigins } from '~/services/payment/razorpay-config.server'

/** The origins Razorpay's real Checkout loads frames and calls from. */
const RAZORPAY_CHECKOUT_ORIGINS = [
  'https://api.razorpay.com',
  'https://checkout.razorpay.com',
  'https://lumberjack.razorpay.com',
]

/*
 * The response headers that protect the browser side of the shop. docs/security.md lists each
 * header and why; keep the two in step.
 */

/** The per-response CSP nonce; entry.server.tsx writes it into the page's script tags. */
export interface SecurityLocals {
  cspNonce: string
}

/** 16 random bytes, base64: a nonce a visitor cannot guess from any other response. */
export function createNonce(): string {
  return randomBytes(16).toString('base64')
}

export interface PolicySources {
  /** Origins besides 'self' that our forms may post (or be redirected) to. */
  formAction: string[]
  /** Origins besides 'self' that images load from (the public S3 host). */
  img: string[]
  /** A gateway's embedded checkout (Razorpay's frames and API calls), when in use. */
  checkout?: string[]
}

/**
 * The Content-Security-Policy for a response with this nonce. Scripts run only when they carry
 * the nonce or were loaded by one that does ('strict-dynamic'); 'unsafe-inline' and https: are
 * fallbacks that browsers which understand nonces ignore. Styles allow inline: Radix's scroll
 * lock and sonner insert <style> elements at run time without a nonce (docs/security.md).
 */
export function contentSecurityPolicy(nonce: string, sources: PolicySources): string {
  const list = (values: string[]) => [...new Set(values)].join(' ')
  const checkout = sources.checkout ?? []
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self' https: 'unsafe-inline'`,
    "style-src 'self' 'unsafe-inline'",
    // https: because a product's image may be an address elsewhere (app/lib/validation/product.ts);
    // an image runs nothing.
    `img-src ${list(["'self'", 'data:', 'blob:', 'https:', ...sources.img])}`,
    "font-src 'self'",
    `connect-src ${list(["'self'", ...checkout])}`,
    ...(checkout.length ? [`frame-src ${list(["'self'", ...checkout])}`] : []),
    `form-action ${list(["'self'", ...sources.formAction])}`,
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ')
}

const originOf = (url: string) => new URL(url).origin

/**
 * Where the shop's own forms lead outside this origin, from the configuration alone: the public
 * URL (when visitors reach us under another name), Google's sign-in (Chrome applies form-action
 * to the redirect after "Continue with Google" posts), and S3's public host for images.
 */
export function staticPolicySources(env: Env): PolicySources {
  const formAction = [originOf(env.PUBLIC_URL)]
  if (googleEnabled(env)) {
    formAction.push(originOf(env.GOOGLE_ISSUER ?? GOOGLE_ISSUER_DEFAULT))
  }
  return { formAction, img: env.storageS3?.publicUrl ? [originOf(env.storageS3.publicUrl)] : [] }
}

const ONE_YEAR_SECONDS = 31_536_000

/**
 * Headers for every response. The policy here names the configured Paytm host when the
 * environment sets it; pages get the full one from pagePolicy, which also knows the admin's
 * gateway record.
 */
export function securityHeaders(env: Env): RequestHandler {
  const sources = staticPolicySources(env)
  const envPaytm = env.PAYTM_MID ? [originOf(env.PAYTM_HOST ?? PAYTM_HOSTS.staging)] : []
  // Behind a TLS proxy the socket is plain HTTP, so the public URL decides, not req.secure.
  const https = env.PUBLIC_URL.startsWith('https:')
  return (req, res, next) => {
    const nonce = createNonce()
    ;(res.locals as SecurityLocals).cspNonce = nonce
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
    res.setHeader(
      'Content-Security-Policy',
      contentSecurityPolicy(nonce, {
        ...sources,
        formAction: [...sources.formAction, ...envPaytm],
      }),
    )
    // Nobody may frame the shop (clickjacking); X-Frame-Options for older browsers.
    res.setHeader('X-Frame-Options', 'SAMEORIGIN')
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
    res.setHeader(
      'Permissions-Policy',
      'camera=(), microphone=(), geolocation=(), interest-cohort=()',
    )
    if (https || req.secure) {
      res.setHeader('Strict-Transport-Security', `max-age=${ONE_YEAR_SECONDS}; includeSubDomains`)
    }
    next()
  }
}

/**
 * For requests the app answers (pages, data, resource routes): the policy with the Paytm host
 * that checkout posts to right now (environment, the admin's gateway record, or the simulator).
 */
export function pagePolicy(db: DB, env: Env): RequestHandler {
  const sources = staticPolicySources(env)
  return (_req, res, next) => {
    Promise.all([paytmFormOrigin(db, env), razorpayCheckoutOrigins(db, env)]).then(
      ([paytm, razorpay]) => {
        const nonce = (res.locals as SecurityLocals).cspNonce
        const formAction = [...sources.formAction, ...(paytm ? [paytm] : []), ...razorpay]
        // Razorpay's Checkout frames its own pages and calls its API from them.
        const checkout = razorpay.length ? [...razorpay, RAZORPAY_CHECKOUT_ORIGINS].flat() : []
        res.setHeader(
          'Content-Security-Policy',
          contentSecurityPolicy(nonce, { ...sources, formAction, checkout }),
        )
        next()
      },
      next,
    )
  }
}

/** Refuses cross-site posts to everything the app answers, except CROSS_SITE_EXEMPT. */
export function sameOriginPosts(env: Env): RequestHandler {
  const publicOrigin = originOf(env.PUBLIC_URL)
  return (req, res, next) => {
    if (!isStateChanging(req.method) || isCrossSiteExempt(req.path)) return next()
    const allowed = new Set([publicOrigin, `${req.protocol}://${req.get('host') ?? ''}`])
    if (!isCrossSite({ origin: req.get('origin'), fetchSite: req.get('sec-fetch-site') }, allowed))
      return next()
    res.status(403).set('Cache-Control', 'no-store').type('text/plain').send(CROSS_SITE_MESSAGE)
  }
}

/**
 * Pages and data for a signed-in visitor, and everything under /dashboard and /admin, hold
 * personal data: no shared or browser cache may keep them. A response that declares itself
 * public (a product image, the sitemap) holds nothing personal and keeps its caching.
 */
export const noStoreForPersonal: RequestHandler = (req, res, next) => {
  const area = /^\/(dashboard|admin)(\/|$)/.test(req.path)
  if (!area && !hasSessionCookie(req.get('cookie'))) return next()
  const writeHead = res.writeHead
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    const current = String(res.getHeader('Cache-Control') ?? '')
    if (area || !/\bpublic\b/.test(current)) res.setHeader('Cache-Control', 'private, no-store')
    return writeHead.apply(this, args)
  } as typeof writeHead
  next()
}
