import { signUpConfirmed } from '../helpers/mailbox'
import fs from 'node:fs'
import path from 'node:path'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import fc from 'fast-check'
import { sql } from 'kysely'
import { createDatabase, type DB } from '~/lib/db.server'
import routes from '../../app/routes'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, test } from '../helpers/fixtures'
import { multipartBody, rawRequest, type RawRequest, type RawResponse } from '../helpers/http'
import { makeProduct } from '../factories'
import { freshPostgresDatabase } from '../helpers/shop'

/**
 * Every URL in app/routes.ts (read from the route config itself, so a new route cannot be left
 * out) gets malformed and generated input: wrong types, huge and unicode strings, NUL bytes,
 * missing and repeated fields, bad JSON, wrong content types, oversized and chunked bodies,
 * by GET and POST, anonymously, as a customer and as an admin. No answer may be a 5xx, a 4xx
 * must say what went wrong in words, and no table the shop keeps may change.
 * On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 *
 * Bounded and repeatable: a fixed seed (FUZZ_SEED overrides it) and FUZZ_RUNS generated
 * requests per route. A failure prints the seed and the request that failed.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123)
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 12)
/** While working on one route: FUZZ_ONLY=/theme runs the routes whose path contains it. */
const ONLY = process.env.FUZZ_ONLY
const engines = process.env.TEST_DATABASE_URL
  ? (['sqlite', 'postgres'] as const)
  : (['sqlite'] as const)

/** Tables a malformed request must never change (sessions and rate-limit counters may). */
const GUARDED_TABLES = [
  'category',
  'product',
  'site_setting',
  'user',
  'account',
  'order',
  'order_event',
  'payment_link',
  'payment_gateway',
  'stock_item',
  'order_access_token',
  'order_report',
  'invoice',
  'credit_note',
  'job',
] as const

interface RoutePattern {
  /** e.g. /product/:slugOrId */
  path: string
  file: string
}

function flatten(entries: RouteConfigEntry[], parent = ''): RoutePattern[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? `${parent}/${entry.path}` : parent
    const here =
      entry.path !== undefined || entry.index ? [{ path: own || '/', file: entry.file }] : []
    return [...here, ...flatten(entry.children ?? [], own)]
  })
}

const ROUTES = flatten(routes)

type Identity = 'anonymous' | 'customer' | 'admin'
const IDENTITIES: Identity[] = ['anonymous', 'customer', 'admin']

interface Target {
  app: RunningApp
  db: DB
  cookies: Record<Identity, string>
  product: { id: string; slug: string }
  close(): Promise<void>
}

const OWNER = { name: 'Fuzz Owner', email: 'fuzz-owner@example.com', password: 'owner-pass-123' }
const CUSTOMER = {
  name: 'Fuzz Customer',
  email: 'fuzz-customer@example.com',
  password: 'customer-pass-123',
}

async function startTarget(engine: (typeof engines)[number]): Promise<Target> {
  const database = engine === 'postgres' ? await freshPostgresDatabase('kb_fuzz') : null
  const app = await startApp({
    env: {
      SEED_DEMO: '0',
      ADMIN_EMAILS: OWNER.email,
      APP_SECRET: 'fuzz-secret-0123456789abcdef0123456789abcdef',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
  })
  const db = database
    ? createDatabase({ databaseUrl: database.url, maxConnections: 2 })
    : createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
  const cookies = {
    anonymous: '',
    // Sign-up continues by the mailed link (docs/decisions/0008-sign-up-by-mailed-link.md).
    admin: await signUpConfirmed(app.url, app, OWNER),
    customer: await signUpConfirmed(app.url, app, CUSTOMER),
  }
  // One product, so that product, checkout and admin pages find something behind their ids.
  const product = await makeProduct(db)
  return {
    app,
    db,
    cookies,
    product,
    async close() {
      await app.dispose()
      await db.destroy()
      await database?.drop()
    },
  }
}

async function rowCounts(db: DB): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of GUARDED_TABLES) {
    const row = await sql<{
      n: number | string
    }>`select count(*) as n from ${sql.table(table)}`.execute(db)
    counts[table] = Number(row.rows[0]?.n)
  }
  return counts
}

// ---------------------------------------------------------------------------------------------
// Generated input

const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '\u202e\u0627\u0644',
  '𝕂𝔹 चाय 😀',
  '\ud800',
  '\\',
  '//evil.example',
  '/%09/evil.example',
]

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.constantFrom(300, 5_000, 40_000).map((n) => 'é'.repeat(n)) },
)

/** Field names the app's forms use, and generated ones. */
const FIELD_NAMES = [
  'email',
  'password',
  'confirmPassword',
  'currentPassword',
  'name',
  'intent',
  'id',
  'theme',
  'redirectTo',
  'content',
  'file',
  'status',
  'orderId',
  'ORDERID',
  'CHECKSUMHASH',
  'token',
  'phone',
  'price',
  'slug',
  'title',
  'confirmed',
  'returnTo',
  'transactionId',
  'search',
]
const fieldName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  { weight: 1, arbitrary: text },
)
/** Repeated names are likely: the same name drawn twice. */
const fields = fc.array(fc.tuple(fieldName, text), { maxLength: 8 })

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws): U+FFFD instead. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const wellFormed = (value: string) => value.replace(LONE_SURROGATE, '\uFFFD')

const RAW_PARAMS = ['%', '%zz', '%E0%A4%A', '%00', '..', '.', '%2F', '%252F', '%2e%2e', '%C0%AF']

function param(real: string | null) {
  const generated = text.map((value) => encodeURIComponent(wellFormed(value)))
  const options = [
    { weight: 3, arbitrary: generated },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_PARAMS) },
  ]
  return real
    ? fc.oneof({ weight: 2, arbitrary: fc.constant(encodeURIComponent(real)) }, ...options)
    : fc.oneof(...options)
}

type Body =
  | { kind: 'none' }
  | { kind: 'urlencoded' | 'multipart' | 'json-fields' | 'text'; fields: Array<[string, string]> }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; data: string }
  | { kind: 'oversized' }
  | { kind: 'chunked'; chunks: number }

const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constantFrom(
      'urlencoded' as const,
      'multipart' as const,
      'json-fields' as const,
      'text' as const,
    ),
    fields,
  }),
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({
    kind: fc.constant('raw' as const),
    contentType: fc.constantFrom(
      'application/json',
      'application/xml',
      'image/png',
      'multipart/form-data',
      'multipart/form-data; boundary=zz',
      'application/x-www-form-urlencoded; charset=utf-16',
      '',
      'text/html',
    ),
    data: fc.constantFrom(
      '{"email":',
      '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
      'a=%zz&b=%',
      '\u0000\u0001',
      '<x/>',
      '[1,2',
    ),
  }),
  fc.constant({ kind: 'oversized' as const }),
  fc.record({ kind: fc.constant('chunked' as const), chunks: fc.integer({ min: 1, max: 12 }) }),
)

interface Input {
  identity: Identity
  method: 'GET' | 'POST'
  params: string[]
  query: Array<[string, string]>
  body: Body
}

function inputFor(route: RoutePattern, target: Target): fc.Arbitrary<Input> {
  const names = [...route.path.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*')
  const real: Record<string, string> = {
    slugOrId: target.product.slug,
    slug: target.product.slug,
    id: target.product.id,
  }
  return fc.record({
    identity: fc.constantFrom(...IDENTITIES),
    method: fc.constantFrom('GET' as const, 'POST' as const),
    params: fc.tuple(...names.map((name) => param(real[name] ?? null))),
    query: fc.array(fc.tuple(fieldName, text), { maxLength: 4 }),
    body,
  })
}

/** The route's parameters filled with real values where there are any, 'x' otherwise. */
function realParams(route: RoutePattern, target: Target): string[] {
  const real: Record<string, string> = {
    slugOrId: target.product.slug,
    slug: target.product.slug,
    id: target.product.id,
  }
  return [...route.path.matchAll(/:(\w+)|\*/g)].map((match) => real[match[1] ?? ''] ?? 'x')
}

function urlFor(route: RoutePattern, input: Input): string {
  let index = 0
  const pathname = route.path.replace(/:(\w+)|\*/g, () => input.params[index++] ?? 'x')
  const query = new URLSearchParams(
    input.query.map(([key, value]) => [wellFormed(key), wellFormed(value)]),
  )
  return query.size ? `${pathname}?${query}` : pathname
}

function requestFor(input: Input, cookie: string): RawRequest {
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {}
  const b = input.body
  if (input.method === 'GET' || b.kind === 'none') return { method: input.method, headers }
  const pairs =
    'fields' in b
      ? b.fields.map(([key, value]) => [wellFormed(key), wellFormed(value)] as [string, string])
      : []
  switch (b.kind) {
    case 'urlencoded':
      return {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(pairs).toString(),
      }
    case 'multipart': {
      const { body: data, contentType } = multipartBody(
        Object.fromEntries(pairs.map(([k, v]) => [k.replace(/["\r\n]/g, ''), v])),
      )
      return { method: 'POST', headers: { ...headers, 'Content-Type': contentType }, body: data }
    }
    case 'json-fields':
      return {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(Object.fromEntries(pairs)),
      }
    case 'text':
      return {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'text/plain' },
        body: pairs.map((p) => p.join('=')).join('\n'),
      }
    case 'json':
      return {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(b.value) ?? 'null',
      }
    case 'raw':
      return {
        method: 'POST',
        headers: { ...headers, ...(b.contentType ? { 'Content-Type': b.contentType } : {}) },
        body: b.data,
      }
    case 'oversized':
      return {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `email=${'a'.repeat(9 * 1024 * 1024)}`,
      }
    case 'chunked':
      return {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Transfer-Encoding': 'chunked',
        },
        chunks: { size: 8 * 1024, count: b.chunks },
      }
  }
}

/** Words a person can read: the page or message without markup, scripts and styles. */
function readableText(response: RawResponse): string {
  return response.body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

function describeInput(route: RoutePattern, input: Input, url: string): string {
  const b = input.body
  const shownBody = b.kind === 'oversized' ? '(9 MB)' : JSON.stringify(b).slice(0, 300)
  return `${input.method} ${url.slice(0, 300)} as ${input.identity} [${route.file}] body ${shownBody}`
}

async function check(target: Target, route: RoutePattern, input: Input): Promise<void> {
  const url = urlFor(route, input)
  const response = await rawRequest(
    target.app.url,
    url,
    requestFor(input, target.cookies[input.identity]),
  )
  const what = describeInput(route, input, url)
  if (response.status >= 500) {
    throw new Error(
      `${response.status} for ${what}\n${readableText(response).slice(0, 500)}\nserver log tail:\n${target.app.output().slice(-2000)}`,
    )
  }
  if (response.status >= 400 && !/[A-Za-z]{3,}/.test(readableText(response))) {
    throw new Error(
      `${response.status} without a readable message for ${what}: ${JSON.stringify(response.body.slice(0, 200))}`,
    )
  }
}

/** Signing out would end the identity the rest of the run depends on. */
function identitiesFor(route: RoutePattern): Identity[] {
  return route.path === '/logout' ? ['anonymous'] : IDENTITIES
}

for (const engine of engines) {
  test.describe(`fuzzing every route on ${engine}`, () => {
    let target: Target

    test.beforeAll(async () => {
      test.setTimeout(120_000)
      target = await startTarget(engine)
    })
    test.afterAll(async () => {
      await target?.close()
    })

    test('finds every route of app/routes.ts', () => {
      const files = ROUTES.map((route) => route.file)
      for (const file of files) expect(fs.existsSync(path.join('app', file)), file).toBe(true)
      expect(ROUTES.map((route) => route.path)).toEqual(
        expect.arrayContaining([
          '/',
          '/product/:slugOrId',
          '/admin/products/edit/:id',
          '/api/auth/*',
        ]),
      )
    })

    test('no malformed request is answered 5xx, every 4xx says why, and nothing is half-written', async () => {
      test.setTimeout(300_000)
      // Some pages create what they show on first view (the admin's default gateway
      // record): one plain visit of every page first, then the counts.
      for (const route of ROUTES) {
        for (const identity of identitiesFor(route)) {
          await rawRequest(
            target.app.url,
            urlFor(route, {
              identity,
              method: 'GET',
              params: realParams(route, target),
              query: [],
              body: { kind: 'none' },
            }),
            {
              headers: target.cookies[identity] ? { Cookie: target.cookies[identity] } : {},
            },
          )
        }
      }
      const before = await rowCounts(target.db)
      // Every route is tried even after one fails, so one run lists every problem.
      const failures: string[] = []
      // Long generated strings are shown as their character and length.
      const record = (error: unknown) =>
        failures.push(
          (error instanceof Error ? error.message : String(error))
            .replace(/(.)\1{40,}/gsu, (run, char: string) => `${char}×${[...run].length}`)
            .slice(0, 3000),
        )
      for (const [index, route] of ROUTES.entries()) {
        if (ONLY && !route.path.includes(ONLY)) continue
        const identities = identitiesFor(route)
        // Every route gets each identity and each kind of broken body at least once...
        for (const identity of identities) {
          for (const b of [
            { kind: 'raw', contentType: 'application/json', data: '{"email":' },
            {
              kind: 'raw',
              contentType: 'multipart/form-data; boundary=zz',
              data: '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
            },
            { kind: 'text', fields: [['email', 'a@example.com']] },
            {
              kind: 'urlencoded',
              fields: [
                ['email', 'first'],
                ['email', 'second'],
                ['intent', ''],
              ],
            },
            {
              kind: 'multipart',
              fields: [
                ['name', 'a\u0000b'],
                ['email', 'a\u0000@example.com'],
              ],
            },
          ] satisfies Body[]) {
            await check(target, route, {
              identity,
              method: 'POST',
              params: realParams(route, target),
              query: [],
              body: b,
            }).catch(record)
          }
        }
        // ...then generated requests.
        const arbitrary = inputFor(route, target).filter((input) =>
          identities.includes(input.identity),
        )
        await fc
          .assert(
            fc.asyncProperty(arbitrary, (input) => check(target, route, input)),
            { seed: SEED + index, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
          )
          .catch((error: unknown) =>
            record(
              new Error(
                `${route.path}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : '') + '\n' + error.message.split('\n').slice(0, 3).join(' ').slice(0, 1500) : error}`,
              ),
            ),
          )
      }
      expect(failures, `fuzzing with FUZZ_SEED=${SEED}`).toEqual([])
      expect(await rowCounts(target.db)).toEqual(before)
    })
  })
}
