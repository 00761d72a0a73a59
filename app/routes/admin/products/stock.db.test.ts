import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import { pageText, renderPage, serveTestDb } from '../../../../tests/helpers/route-render'
import { makeAdmin, makeStockedProduct } from '../../../../tests/factories'
import { stockCounts } from '~/data/stock.server'
import { PASTED_HEADER_MESSAGE } from '~/lib/stock-import.server'
import { importStock } from '~/services/fulfilment.server'
import ProductStock, { action, loader } from './stock'

/**
 * /admin/products/{id}/stock as the server renders it, which is what a browser without
 * JavaScript gets, in a shop whose Paytm is live (keys in the environment): real items sell,
 * test items only for test-mode payments (docs/delivery.md, "Test mode"). Signing in is not
 * what is tested here: the permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const APP_SECRET = 'x'.repeat(32)
const t = fileTestDb()
serveTestDb(t, {
  env: {
    PUBLIC_URL: 'https://shop.example.in',
    APP_SECRET,
    ADMIN_EMAILS: [],
    PAYTM_MID: 'ENVMID',
    PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
    PAYTM_HOST: 'https://securegw.paytm.in',
  },
})
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canCreateProducts: true } }
})

const route = {
  id: 'routes/admin/products/stock',
  path: '/admin/products/:id/stock',
  Component: ProductStock,
  loader,
  action,
}

/** The stock page (after an import of `content` posted to it, if given), rendered on the server. */
async function render(productId: string, post?: { content: string; testItems?: boolean }) {
  let init: RequestInit | undefined
  if (post) {
    const form = new FormData()
    form.set('intent', 'import')
    form.set('content', post.content)
    if (post.testItems) form.set('testItems', 'yes')
    init = { method: 'POST', body: form }
  }
  const { html, status } = await renderPage(
    route,
    new Request(`http://shop.test/admin/products/${productId}/stock`, init),
    { clientIp: '203.0.113.9' },
  )
  const checkbox = /<input[^>]*id="stock-test-items"[^>]*>/.exec(html)?.[0] ?? ''
  return {
    html,
    status,
    // Without the marks React puts between a text and the values in it.
    text: pageText(html.replaceAll('<!-- -->', '')),
    /** What the Paste items box holds (a posted form's lines end in \r\n). */
    pasted: decode(/<textarea[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1] ?? '').replaceAll(
      '\r\n',
      '\n',
    ),
    testItemsTicked: /\schecked=""/.test(checkbox),
  }
}

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** A stock product holding `test` test items and `real` real ones. */
async function stocked(test: string[], real: string[] = []) {
  const product = await makeStockedProduct(t.db, APP_SECRET, [])
  for (const [items, testItems] of [
    [test, true],
    [real, false],
  ] as const) {
    if (items.length)
      await importStock(t.db, {
        productId: product.id,
        content: items.join('\n'),
        format: 'lines',
        appSecret: APP_SECRET,
        testItems,
      })
  }
  return product
}

const testBadges = (html: string) => html.match(/>Test<\/span>/g)?.length ?? 0

describe(`the stock page in a live shop (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('counts real and test items apart: only the real ones are ready to sell', async () => {
    const product = await stocked(['DEMO-TEST-1', 'DEMO-TEST-2'])
    const page = await render(product.id)
    expect(page.text).toContain('Available 2 0 real, ready to sell; 2 test, for test payments only')
    // Each item is drawn twice (the table and the narrow screens' cards), each with its badge.
    expect(testBadges(page.html)).toBe(2 * 2)

    await importStock(t.db, {
      productId: product.id,
      content: 'REAL-KEY-1',
      format: 'lines',
      appSecret: APP_SECRET,
    })
    const after = await render(product.id)
    expect(after.text).toContain(
      'Available 3 1 real, ready to sell; 2 test, for test payments only',
    )
    expect(testBadges(after.html)).toBe(2 * 2)
  })

  it('says how the product stands in the shop, as the products list does: real items sell', async () => {
    const product = await stocked(['DEMO-TEST-3', 'DEMO-TEST-4'])
    const page = await render(product.id)
    expect(page.text).toContain(
      'In the shop now: Out of Stock No real items left (2 test, for test mode only)',
    )
    expect(page.text).toContain('Counting real items: live payments are delivered real items only.')

    await importStock(t.db, {
      productId: product.id,
      content: 'REAL-KEY-2',
      format: 'lines',
      appSecret: APP_SECRET,
    })
    expect((await render(product.id)).text).toContain(
      'In the shop now: Active 1 real item (2 test, for test mode only)',
    )
    await t.db.updateTable('product').set({ inStock: 0 }).where('id', '=', product.id).execute()
    expect((await render(product.id)).text).toContain(
      'In the shop now: Out of Stock Marked out of stock · 1 real item (2 test, for test mode only)',
    )
  })

  it('refuses pasted lines that begin with a CSV header, and adds nothing', async () => {
    const product = await stocked([])
    const content = 'Email,Password,Note\nalpha@example.test,Alpha-Pass-1,first'
    const page = await render(product.id, { content })
    expect(page.status).toBe(400)
    expect(page.text).toContain(PASTED_HEADER_MESSAGE)
    expect(page.pasted).toBe(content)
    expect(await stockCounts(t.db, product.id)).toMatchObject({ available: 0 })
  })

  it('keeps "These are test items" ticked, as posted, when an import is refused', async () => {
    const product = await stocked([])
    const refused = await render(product.id, {
      content: 'key,note\nTEST-KEY-1,first',
      testItems: true,
    })
    expect(refused.status).toBe(400)
    expect(refused.testItemsTicked).toBe(true)
    const unticked = await render(product.id, { content: 'key,note\nREAL-KEY-1,first' })
    expect(unticked.status).toBe(400)
    expect(unticked.testItemsTicked).toBe(false)
  })

  it('refuses an import that adds nothing, saying why per line, and keeps the form', async () => {
    const product = await stocked(['DUP-KEY-1', 'DUP-KEY-2'])
    const content = ['DUP-KEY-1', 'DUP-KEY-2', 'bad\u0007line', 'x'.repeat(4001)].join('\n')
    const page = await render(product.id, { content, testItems: true })
    expect(page.status).toBe(400)
    expect(page.text).toContain(
      'Nothing was added. 2 duplicates skipped: lines 1 and 2 repeat items this product has or had, or earlier lines. ' +
        '2 lines not imported: line 4 is longer than 4,000 characters; line 3 contains control characters.',
    )
    expect(page.text).not.toContain('Import finished')
    expect(page.pasted).toBe(content)
    expect(page.testItemsTicked).toBe(true)
    expect(await stockCounts(t.db, product.id)).toMatchObject({ available: 2 })
  })

  it('reports an import that added items as before, with why each skipped line was left out', async () => {
    const product = await stocked([])
    const content = ['NEW-KEY-1', 'x'.repeat(4001), 'bad\u0001line', 'NEW-KEY-1'].join('\n')
    const page = await render(product.id, { content, testItems: true })
    expect(page.status).toBe(200)
    expect(page.text).toContain(
      'Import finished: 1 added, 1 duplicate skipped (line 4), 2 invalid (lines 2, 3). ' +
        '2 lines not imported: line 2 is longer than 4,000 characters; line 3 contains control characters. ' +
        'No paid orders were waiting for this stock.',
    )
    // A successful import empties the form, the box included.
    expect(page.pasted).toBe('')
    expect(page.testItemsTicked).toBe(false)
  })

  it('names the other product holding an item, added or refused (docs/delivery.md)', async () => {
    const holder = await makeStockedProduct(t.db, APP_SECRET, ['HELD-KEY-1', 'HELD-KEY-2'], {
      title: 'StreamVerse Premium 1 Month',
    })
    const product = await stocked([])
    const added = await render(product.id, { content: 'HELD-KEY-1\nOWN-KEY-1\nHELD-KEY-2' })
    expect(added.status).toBe(200)
    expect(added.text).toContain(
      'Import finished: 1 added, 0 duplicates skipped, 2 skipped: already in stock under StreamVerse Premium 1 Month (lines 1, 3), 0 invalid.',
    )
    const refused = await render(product.id, { content: 'HELD-KEY-2\nOWN-KEY-1' })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain(
      'Nothing was added. 1 duplicate skipped: line 2 repeats an item this product has or had, or an earlier line. ' +
        '1 item skipped: line 1 is already in stock under StreamVerse Premium 1 Month (each item is sold to one buyer only).',
    )
    expect(await stockCounts(t.db, product.id)).toMatchObject({ available: 1 })
    expect(await stockCounts(t.db, holder.id)).toMatchObject({ available: 2 })
  })
})
