import { beforeAll, describe, expect, it, vi } from 'vitest'
import type * as Auth from '~/services/auth.server'
import { fileTestDb } from '../../../tests/helpers/db'
import { serveTestDb } from '../../../tests/helpers/route-render'
import { makeCustomer, makeProduct } from '../../../tests/factories'
import { action, loader } from './wishlist-action'

/**
 * /wishlist's way back from signing in: `GET /wishlist?add=<id>` adds the product only when this
 * browser's heart asked for it before signing in (the signed cookie its post set), however the
 * visitor came back; a link from anywhere else adds nothing.
 */
const viewer = vi.hoisted(() => ({ user: null as Auth.AuthUser | null }))
vi.mock('~/services/auth.server', async (importOriginal) => {
  const actual = await importOriginal<typeof Auth>()
  return {
    ...actual,
    getUser: () => Promise.resolve(viewer.user),
    requireUser: () =>
      viewer.user
        ? Promise.resolve(viewer.user)
        : Promise.reject(new Response(null, { status: 302 })),
  }
})

const t = fileTestDb()
serveTestDb(t, { env: { PUBLIC_URL: 'http://shop.test', APP_SECRET: 'w'.repeat(64) } })

let productId: string
let otherId: string
beforeAll(async () => {
  productId = (await makeProduct(t.db)).id
  otherId = (await makeProduct(t.db)).id
})

/** The heart pressed while signed out: the action's redirect and the cookie it sets. */
async function heartSignedOut(id: string): Promise<string> {
  viewer.user = null
  try {
    await action({
      request: new Request('http://shop.test/wishlist', {
        method: 'POST',
        body: new URLSearchParams({ intent: 'add', productId: id, redirectTo: '/' }),
      }),
      params: {},
      context: {},
    } as never)
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown
    expect(thrown.status).toBe(303)
    expect(thrown.headers.get('Location')).toContain('login=1')
    return (thrown.headers.get('Set-Cookie') ?? '').split(';')[0]!
  }
  throw new Error('the action did not redirect')
}

/** Back from signing in: GET /wishlist?add=<id>, with the cookies given, for `userId`. */
async function comeBack(id: string, cookie: string, headers: Record<string, string> = {}) {
  try {
    await loader({
      request: new Request(`http://shop.test/wishlist?add=${id}&redirectTo=%2F`, {
        headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
      }),
      params: {},
      context: {},
    } as never)
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown
    return thrown
  }
  throw new Error('the loader did not redirect')
}

async function wished(userId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('wishlistItem')
    .select('productId')
    .where('userId', '=', userId)
    .execute()
  return rows.map((row) => row.productId)
}

describe(`/wishlist after signing in (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('adds the product the heart asked for, also when the way back comes from another site', async () => {
    const cookie = await heartSignedOut(productId)
    expect(cookie).toMatch(/^kb_wish=/)
    const customer = await makeCustomer(t.db)
    viewer.user = { ...customer, isAdmin: false } as Auth.AuthUser
    // Back from Google's page: a navigation another site started.
    const back = await comeBack(productId, cookie, { 'Sec-Fetch-Site': 'cross-site' })
    expect(back.headers.get('Location')).toBe('/')
    // The cookie is cleared: it adds once.
    expect(back.headers.get('Set-Cookie')).toMatch(/^kb_wish=;/)
    expect(await wished(customer.id)).toEqual([productId])
  })

  it('adds nothing for a link without that cookie, or for another product than it names', async () => {
    const customer = await makeCustomer(t.db)
    viewer.user = { ...customer, isAdmin: false } as Auth.AuthUser
    // A link on another site, even one whose browser sends no fetch metadata.
    await comeBack(productId, '')
    const cookie = await heartSignedOut(otherId)
    viewer.user = { ...customer, isAdmin: false } as Auth.AuthUser
    await comeBack(productId, cookie)
    expect(await wished(customer.id)).toEqual([])
  })
})
