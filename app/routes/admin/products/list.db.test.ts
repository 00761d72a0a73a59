import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import {
  pageText,
  postForRedirect,
  redirectCookie,
  renderPage,
  serveTestDb,
} from '../../../../tests/helpers/route-render'
import {
  makeAdmin,
  makeCustomer,
  makePaidOrder,
  makeProduct,
  makeStockedProduct,
} from '../../../../tests/factories'
import { getProductById, productStats } from '~/data/product.server'
import { setProductDelivery } from '~/data/stock.server'
import { importStock } from '~/services/fulfilment.server'
import { insertReview, setReviewHidden } from '~/data/review.server'
import { readFlash } from '~/lib/flash.server'
import { createLocalStorage } from '~/lib/storage.server'
import { PRODUCT_MESSAGES } from '~/lib/validation/product'
import { deleteProductAudited } from '~/services/product-admin.server'
import AdminProducts, { action, loader } from './list'

/**
 * /admin/products as the server answers it: the delete question names the reviews that go with
 * the product (the dialog's text comes with each row, the page without JavaScript asks with the
 * same words), and a delete of a product already gone says so instead of "try again". Signing in
 * is not what is tested here: the permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
const SECRET = 'x'.repeat(32)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-product-list-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
serveTestDb(t, {
  env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: SECRET, DATA_DIR: dataDir },
  storage: createLocalStorage(path.join(dataDir, 'uploads')),
})
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canCreateProducts: true } }
})

const ROUTE_ID = 'routes/admin/products/list'
const PATH = '/admin/products'

async function render(path: string) {
  return renderPage(
    { id: ROUTE_ID, path: PATH, Component: AdminProducts, loader, action },
    new Request(`https://shop.example.in${path}`),
  )
}

type LoaderData = Awaited<ReturnType<typeof loader>>['data']

/** A product sold from stock with `count` reviews from its buyers, the first one hidden. */
async function reviewedProduct(title: string, count: number) {
  const product = await makeStockedProduct(
    t.db,
    SECRET,
    Array.from({ length: count + 1 }, (_, i) => `${title}-${i}-${crypto.randomUUID()}`),
    { title },
  )
  for (let i = 0; i < count; i++) {
    const buyer = await makeCustomer(t.db)
    const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    const review = await insertReview(t.db, {
      orderId: order.id,
      productId: product.id,
      userId: buyer.id,
      rating: 4,
      title: '',
      body: 'Activated on the first try.',
    })
    if (i === 0) await setReviewHidden(t.db, review!.id, { reason: 'Off topic' })
  }
  return product
}

/** The action's answer to a posted form: the redirect it throws and the message it carries. */
async function post(form: Record<string, string>) {
  const response = await postForRedirect(action, `https://shop.example.in${PATH}`, form, {}, {})
  const { flash } = await readFlash(
    new Request('https://shop.example.in', { headers: { Cookie: redirectCookie(response) } }),
  )
  return { location: response.headers.get('Location'), flash }
}

describe(`the Products page's delete (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('names the reviews deleted with the product, hidden ones included, in both questions', async () => {
    const reviewed = await reviewedProduct('Reviewed Suite', 3)
    const quiet = await reviewedProduct('Quiet Suite', 0)

    // With JavaScript, the dialog asks with the words of the row's count.
    const listed = await render(`${PATH}?q=Suite`)
    const rows = (listed.context.loaderData[ROUTE_ID] as LoaderData).products
    expect(rows.map((row) => [row.title, row.reviews, row.allReviews]).sort()).toEqual([
      ['Quiet Suite', 0, 0],
      ['Reviewed Suite', 2, 3],
    ])

    // Without JavaScript, the page asks itself.
    const asked = await render(`${PATH}?confirmDelete=${reviewed.id}`)
    expect(pageText(asked.html)).toContain(
      'Are you sure you want to delete "Reviewed Suite"? Its 3 reviews are deleted with it. This action cannot be undone.',
    )
    const plain = await render(`${PATH}?confirmDelete=${quiet.id}`)
    expect(pageText(plain.html)).toContain(
      'Are you sure you want to delete "Quiet Suite"? This action cannot be undone.',
    )
    expect(pageText(plain.html)).not.toContain('deleted with it')
  })

  it('says a product already deleted by another admin no longer exists, not "try again"', async () => {
    const product = await reviewedProduct('Gone Suite', 0)
    await deleteProductAudited(t.db, SECRET, product.id, {
      actor: { id: 'other', name: 'Other Admin', email: 'other@example.test' },
      ip: null,
    })
    const answer = await post({ intent: 'delete', id: product.id, confirmed: 'yes', returnTo: '' })
    expect(answer.location).toBe(PATH)
    expect(answer.flash).toMatchObject({ type: 'error', message: PRODUCT_MESSAGES.deleteGone })
    expect(PRODUCT_MESSAGES.deleteGone).not.toMatch(/try again/i)
    expect(await getProductById(t.db, product.id)).toBeNull()
  })
})

/** Adds items to a product: test items (sold only in test mode) or real ones. */
async function addItems(productId: string, items: string[], testItems: boolean) {
  await importStock(t.db, {
    productId,
    content: items.join('\n'),
    format: 'lines',
    appSecret: SECRET,
    testItems,
  })
}

describe(`the Products page's status in test mode (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('shows Active for what buyers can order now and says what it counts: test items', async () => {
    // This shop has no live gateway: payments go through the simulator, which sells test items.
    const before = (await render(PATH)).context.loaderData[ROUTE_ID] as LoaderData
    const demo = await makeStockedProduct(t.db, SECRET, [], { title: 'Status Demo Key' })
    await addItems(demo.id, ['STATUS-DEMO-1', 'STATUS-DEMO-2', 'STATUS-DEMO-3'], true)
    await makeStockedProduct(t.db, SECRET, ['STATUS-REAL-1', 'STATUS-REAL-2'], {
      title: 'Status Real Key',
    })
    const off = await makeStockedProduct(t.db, SECRET, [], {
      title: 'Status Off Key',
      inStock: false,
    })
    await addItems(off.id, ['STATUS-OFF-1', 'STATUS-OFF-2'], true)
    const shared = await makeProduct(t.db, { title: 'Status Shared Plan' })
    await setProductDelivery(t.db, SECRET, shared.id, { mode: 'shared', sharedSecret: 'a / b' })
    await makeProduct(t.db, { title: 'Status Manual Plan' })
    const linked = await makeStockedProduct(t.db, SECRET, [], {
      title: 'Status Linked Key',
      buyNowLink: 'https://vendor.example/buy',
    })

    const page = await render(`${PATH}?q=Status`)
    const data = page.context.loaderData[ROUTE_ID] as LoaderData
    const rows = Object.fromEntries(
      data.products.map((row) => [row.title, [row.forSale, ...row.statusLines]]),
    )
    expect(rows).toEqual({
      'Status Demo Key': [true, '3 test items'],
      'Status Real Key': [false, 'No test items left (2 real, kept for live payments)'],
      'Status Off Key': [false, 'Marked out of stock', '2 test items'],
      'Status Shared Plan': [false, 'Shared secret: not sold in test mode'],
      'Status Manual Plan': [true, 'Manual delivery'],
      'Status Linked Key': [true, 'Sold through its buy now link', 'No test items left'],
    })
    expect(linked.id).toBeTruthy()
    // The figure counts by the same rule: the demo key, the manual plan and the linked key.
    expect(data.stats.active).toBe(before.stats.active + 3)
    expect(data.stats.active).toBe((await productStats(t.db, undefined, 'test')).active)
    // The page says so in words, the badge in the spec's words.
    const text = pageText(page.html.replaceAll('<!-- -->', ''))
    expect(text).toContain('For sale now, counting test items')
    expect(text).toMatch(/Status Real Key.*Out of Stock No test items left/)
    expect(text).toMatch(/Status Demo Key.*Active 3 test items/)
  })

  it('counts Active by the items that sell: real ones when live, test ones in test mode, either beside each other', async () => {
    const live = await makeStockedProduct(t.db, SECRET, ['LIVE-REAL-1'], { title: 'Live Real' })
    const demo = await makeStockedProduct(t.db, SECRET, [], { title: 'Live Demo' })
    await addItems(demo.id, ['LIVE-DEMO-1'], true)
    const shared = await makeProduct(t.db, { title: 'Live Shared' })
    await setProductDelivery(t.db, SECRET, shared.id, { mode: 'shared', sharedSecret: 'a / b' })
    const active = async (kinds: 'real' | 'test' | 'both') =>
      (await productStats(t.db, undefined, kinds)).active
    const [test, real, both] = [await active('test'), await active('real'), await active('both')]
    // Take each one away and see which figure moves.
    await t.db.updateTable('product').set({ inStock: 0 }).where('id', '=', live.id).execute()
    expect([await active('test'), await active('real'), await active('both')]).toEqual([
      test,
      real - 1,
      both - 1,
    ])
    await t.db.updateTable('product').set({ inStock: 0 }).where('id', '=', demo.id).execute()
    expect([await active('test'), await active('real'), await active('both')]).toEqual([
      test - 1,
      real - 1,
      both - 2,
    ])
    await t.db.updateTable('product').set({ inStock: 0 }).where('id', '=', shared.id).execute()
    expect([await active('test'), await active('real'), await active('both')]).toEqual([
      test - 1,
      real - 2,
      both - 3,
    ])
  })
})
