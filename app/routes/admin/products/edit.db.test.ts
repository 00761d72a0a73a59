import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import { pageText, renderPage, serveTestDb } from '../../../../tests/helpers/route-render'
import { makeAdmin, makeStockedProduct } from '../../../../tests/factories'
import { createLocalStorage } from '~/lib/storage.server'
import { importStock } from '~/services/fulfilment.server'
import EditProduct, { loader } from './edit'

/**
 * /admin/products/edit/{id} as the server renders it, in a shop whose Paytm is live (keys in the
 * environment): the Delivery section's count of available items is what buyers can buy, so the
 * test items (sold only for test-mode payments) are not among them (docs/delivery.md, "Test
 * mode"). Signing in is not what is tested here: the permission check answers with this file's
 * admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const APP_SECRET = 'x'.repeat(32)
const t = fileTestDb()
// The form previews the product's image from storage (none is stored here).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-edit-page-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
serveTestDb(t, {
  storage: createLocalStorage(path.join(dataDir, 'uploads')),
  env: {
    DATA_DIR: dataDir,
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

async function render(productId: string) {
  const { html } = await renderPage(
    {
      id: 'routes/admin/products/edit',
      path: '/admin/products/edit/:id',
      Component: EditProduct,
      loader,
    },
    new Request(`http://shop.test/admin/products/edit/${productId}`),
  )
  return pageText(html.replaceAll('<!-- -->', ''))
}

describe(`the edit page's stock count in a live shop (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('counts the real items only, as the products list does', async () => {
    const product = await makeStockedProduct(t.db, APP_SECRET, [])
    await importStock(t.db, {
      productId: product.id,
      content: 'DEMO-TEST-1\nDEMO-TEST-2',
      format: 'lines',
      appSecret: APP_SECRET,
      testItems: true,
    })
    expect(await render(product.id)).toContain('0 real items available. Manage stock')
    await importStock(t.db, {
      productId: product.id,
      content: 'REAL-KEY-1',
      format: 'lines',
      appSecret: APP_SECRET,
    })
    expect(await render(product.id)).toContain('1 real item available. Manage stock')
  })
})
