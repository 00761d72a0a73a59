import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import { makeProduct } from '../../../../tests/factories'
import { whileProductUpdates } from '../../../../tests/helpers/product-write-trigger'
import { listAuditEntries } from '~/data/audit.server'
import { getProductById, type Product } from '~/data/product.server'
import { createLocalStorage } from '~/lib/storage.server'
import { IMAGE_MESSAGES, PRODUCT_MESSAGES } from '~/lib/validation/product'
import {
  deleteProductAudited,
  productEditVersion,
  updateProductAudited,
} from '~/services/product-admin.server'
import {
  productInitial,
  savedDelivery,
  saveProductForm,
  type ProductActionResult,
} from './product-form.server'

/**
 * The product form's save (saveProductForm) as the edit and add pages call it: an edit posted
 * from a page showing older values than the stored ones changes nothing (docs/admin.md, "The
 * form").
 */
const t = fileTestDb()
const SECRET = 'product-form-test-secret-0123456789'
const WHO = {
  actor: { id: 'owner-1', name: 'Shop Owner', email: 'owner@example.test' },
  ip: '203.0.113.7',
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-product-form-'))
const uploads = path.join(dataDir, 'uploads')
const storage = createLocalStorage(uploads)

// The action reads the database and storage through services() (app/lib/app-context.server.ts).
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
beforeAll(() => {
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    storage,
    env: { APP_SECRET: SECRET, DATA_DIR: dataDir, PUBLIC_URL: 'http://shop.test' },
  }
})
afterAll(() => {
  holder.__keybazaar = undefined
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#3355aa' } })
    .png()
    .toBuffer()

/** The stored product images, by key. */
const storedImages = () =>
  fs.existsSync(path.join(uploads, 'products'))
    ? fs
        .readdirSync(path.join(uploads, 'products'))
        .map((name) => `products/${name}`)
        .sort()
    : []

/** A product showing a stored image of its own. */
async function productWithImage(title: string): Promise<Product> {
  const image = `products/${title.toLowerCase().replaceAll(' ', '_')}.png`
  await storage.put(image, await png(), 'image/png')
  return makeProduct(t.db, { title, image, price: 10_000 })
}

/** What the edit page shows of the product now: its form values and version. */
async function openEditPage(product: Product) {
  const delivery = await savedDelivery(product)
  return {
    initial: await productInitial(product, delivery),
    version: productEditVersion(product, delivery),
  }
}

/** The edit form as the browser posts it, with `changes`; `version` omitted when null. */
function editForm(
  page: Awaited<ReturnType<typeof openEditPage>>,
  changes: Record<string, string | File> = {},
  version: string | null = page.version,
): FormData {
  const { initial } = page
  const form = new FormData()
  const fields: Record<string, string> = {
    title: initial.title,
    slug: initial.slug,
    description: initial.description,
    shortDescription: initial.shortDescription,
    category: initial.category,
    tags: initial.tags,
    price: initial.price,
    originalPrice: initial.originalPrice,
    image: initial.image,
    buyNowLink: initial.buyNowLink,
    metaTitle: initial.metaTitle,
    metaDescription: initial.metaDescription,
    keywords: initial.keywords,
    validity: initial.validity,
    deliveryTime: initial.deliveryTime,
    deliveryMode: initial.deliveryMode,
    sharedSecret: '',
  }
  if (version !== null) form.set('version', version)
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  if (initial.inStock) form.set('inStock', 'on')
  if (initial.featured) form.set('featured', 'on')
  for (const feature of initial.features) form.append('features', feature)
  for (const [name, value] of Object.entries(changes)) form.set(name, value)
  return form
}

type Outcome =
  { redirect: string; status: number } | { status: number; result: ProductActionResult }

/** Runs the save; a redirect (a saved product) is thrown, a refusal returned as data. */
async function save(
  target: Parameters<typeof saveProductForm>[1],
  form: FormData,
): Promise<Outcome> {
  const request = new Request('http://shop.test/admin/products/edit/x', {
    method: 'POST',
    body: form,
  })
  try {
    const answer = (await saveProductForm(request, target, WHO)) as unknown as {
      data: ProductActionResult
      init: ResponseInit | null
    }
    return { status: answer.init?.status ?? 200, result: answer.data }
  } catch (error) {
    if (!(error instanceof Response)) throw error
    return { redirect: error.headers.get('Location') ?? '', status: error.status }
  }
}

/** The refusal's message for the whole form. */
const formError = (outcome: Outcome) =>
  'result' in outcome ? outcome.result.reply.error?.['']?.[0] : undefined

const updatesOf = async (id: string) =>
  (await listAuditEntries(t.db, { targetId: id })).entries.filter(
    (entry) => entry.action === 'product.update',
  )

/** Another admin's edit, saved from their own (current) page. */
async function otherAdminSaves(product: Product, changes: Partial<Product>) {
  const page = await openEditPage(product)
  const { id: _id, discount: _d, createdAt: _c, updatedAt: _u, ...fields } = product
  const saved = await updateProductAudited(
    t.db,
    {
      id: product.id,
      version: page.version,
      product: { ...fields, ...changes },
      delivery: { mode: page.initial.deliveryMode },
      appSecret: SECRET,
    },
    WHO,
  )
  expect(saved.status).toBe('saved')
}

describe(`saving the product form (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('refuses an edit over a change saved since its page was opened, keeping what was typed', async () => {
    const product = await productWithImage('Stale Page')
    const page = await openEditPage(product)
    await otherAdminSaves(product, { price: 12_000 })
    const stored = await getProductById(t.db, product.id)
    const imagesBefore = storedImages()

    // Without JavaScript the new image comes with the form.
    const file = new File([new Uint8Array(await png())], 'new.png', { type: 'image/png' })
    const outcome = await save(
      { mode: 'edit', product: stored! },
      editForm(page, { title: 'Stale Page Renamed', imageFile: file }),
    )
    expect(outcome.status).toBe(409)
    expect(formError(outcome)).toBe(PRODUCT_MESSAGES.staleEdit)
    // The form comes back as typed, still posting the version its values came from.
    expect(outcome).toMatchObject({
      result: {
        initial: { title: 'Stale Page Renamed', price: '100', image: product.image },
        version: page.version,
      },
    })
    // Nothing changed: the other admin's price stands, no entry, no file left behind.
    expect(await getProductById(t.db, product.id)).toEqual(stored)
    expect(await updatesOf(product.id)).toHaveLength(1)
    expect(storedImages()).toEqual(imagesBefore)
  })

  it('refuses it too when the other save lands after the request came in, removing its upload', async () => {
    const product = await productWithImage('Racing Page')
    const page = await openEditPage(product)
    // The request was read (with the product as it was), then the other admin's save landed
    // before this save's transaction.
    await otherAdminSaves(product, { title: 'Racing Page (theirs)' })
    const stored = await getProductById(t.db, product.id)
    const imagesBefore = storedImages()
    const file = new File([new Uint8Array(await png())], 'new.png', { type: 'image/png' })
    const outcome = await save(
      { mode: 'edit', product },
      editForm(page, { price: '150', imageFile: file }),
    )
    expect(outcome.status).toBe(409)
    expect(formError(outcome)).toBe(PRODUCT_MESSAGES.staleEdit)
    expect(outcome).toMatchObject({ result: { initial: { price: '150', image: product.image } } })
    expect(await getProductById(t.db, product.id)).toEqual(stored)
    expect(await updatesOf(product.id)).toHaveLength(1)
    // The upload stored for this save is gone; the product's own image stays.
    expect(storedImages()).toEqual(imagesBefore)
    expect(await storage.exists(product.image)).toBe(true)
  })

  it('refuses an edit posted without a version (a page from before versions, a script)', async () => {
    const product = await productWithImage('No Version')
    const page = await openEditPage(product)
    const outcome = await save(
      { mode: 'edit', product },
      editForm(page, { title: 'No Version Renamed' }, null),
    )
    expect(outcome.status).toBe(409)
    expect(formError(outcome)).toBe(PRODUCT_MESSAGES.editExpired)
    expect(outcome).toMatchObject({ result: { initial: { title: 'No Version Renamed' } } })
    expect(await getProductById(t.db, product.id)).toEqual(product)
    expect(await updatesOf(product.id)).toEqual([])
  })

  it('saves a fresh edit: its entry before is the product as stored, the replaced image removed', async () => {
    const product = await productWithImage('Fresh Page')
    await otherAdminSaves(product, { price: 12_000 })
    // Opened after the other admin's save.
    const current = (await getProductById(t.db, product.id))!
    const page = await openEditPage(current)
    const file = new File([new Uint8Array(await png())], 'new.png', { type: 'image/png' })
    const outcome = await save(
      { mode: 'edit', product: current },
      editForm(page, { price: '130', imageFile: file }),
    )
    expect(outcome).toEqual({ redirect: '/admin/products', status: 302 })
    const saved = (await getProductById(t.db, product.id))!
    expect(saved.price).toBe(13_000)
    expect(saved.image).not.toBe(product.image)
    const [entry] = await updatesOf(product.id)
    expect(entry!.changes).toMatchObject({
      price: { before: 12_000, after: 13_000 },
      image: { before: product.image, after: saved.image },
    })
    expect(await storage.exists(product.image)).toBe(false)
    expect(await storage.exists(saved.image)).toBe(true)
  })

  it('answers an edit of a product deleted meanwhile with Product Not Found, never "try again"', async () => {
    const deleted = await productWithImage('Deleted Early')
    const earlyPage = await openEditPage(deleted)
    // Deleted by another admin after this request came in, before its form was read.
    await deleteProductAudited(t.db, SECRET, deleted.id, WHO)
    await expect(
      saveProductForm(
        new Request('http://shop.test/admin/products/edit/x', {
          method: 'POST',
          body: editForm(earlyPage, { title: 'Deleted Early Renamed' }),
        }),
        { mode: 'edit', product: deleted },
        WHO,
      ),
    ).rejects.toMatchObject({ data: { message: PRODUCT_MESSAGES.notFound }, init: { status: 404 } })

    // Deleted while the image posted with the form was being stored: the save's transaction
    // finds it gone, and the upload goes too.
    const racing = await productWithImage('Deleted While Uploading')
    const page = await openEditPage(racing)
    const imagesBefore = storedImages()
    const put = storage.put.bind(storage)
    const spy = vi.spyOn(storage, 'put').mockImplementation(async (...args) => {
      await put(...args)
      await deleteProductAudited(t.db, SECRET, racing.id, WHO)
    })
    const file = new File([new Uint8Array(await png())], 'new.png', { type: 'image/png' })
    try {
      await expect(
        saveProductForm(
          new Request('http://shop.test/admin/products/edit/x', {
            method: 'POST',
            body: editForm(page, { price: '150', imageFile: file }),
          }),
          { mode: 'edit', product: racing },
          WHO,
        ),
      ).rejects.toMatchObject({
        data: { message: PRODUCT_MESSAGES.notFound },
        init: { status: 404 },
      })
      expect(spy).toHaveBeenCalledOnce()
    } finally {
      spy.mockRestore()
    }
    expect(await getProductById(t.db, racing.id)).toBeNull()
    expect(await updatesOf(racing.id)).toEqual([])
    expect(storedImages()).toEqual(imagesBefore)
  })

  it("saves one of the shop's own image URLs as its storage key, so the file stays while shown", async () => {
    const first = await productWithImage('Image Owner')
    const second = await productWithImage('Image Borrower')
    // The address the storefront shows the first product's picture at, pasted into the second.
    const url = `http://shop.test/images/${first.image}?w=640&v=abc123`
    const outcome = await save(
      { mode: 'edit', product: second },
      editForm(await openEditPage(second), { image: url }),
    )
    expect(outcome).toEqual({ redirect: '/admin/products', status: 302 })
    expect((await getProductById(t.db, second.id))!.image).toBe(first.image)

    // The first product gets a new picture: its old one is still the second's, so it stays.
    const current = (await getProductById(t.db, first.id))!
    const file = new File([new Uint8Array(await png())], 'new.png', { type: 'image/png' })
    expect(
      await save(
        { mode: 'edit', product: current },
        editForm(await openEditPage(current), { imageFile: file }),
      ),
    ).toEqual({ redirect: '/admin/products', status: 302 })
    expect(await storage.exists(first.image)).toBe(true)

    // Our address for a file that is not there is refused; another site's is kept as typed.
    const third = await productWithImage('Image Elsewhere')
    const missing = await save(
      { mode: 'edit', product: third },
      editForm(await openEditPage(third), { image: 'http://shop.test/images/products/gone.png' }),
    )
    expect(missing).toMatchObject({ status: 400 })
    expect('result' in missing && missing.result.reply.error?.image).toEqual([
      IMAGE_MESSAGES.invalidUrl,
    ])
    const elsewhere = 'https://cdn.example.com/images/products/remote.png'
    expect(
      await save(
        { mode: 'edit', product: third },
        editForm(await openEditPage(third), { image: elsewhere }),
      ),
    ).toEqual({ redirect: '/admin/products', status: 302 })
    expect((await getProductById(t.db, third.id))!.image).toBe(elsewhere)
  })

  it("says the spec's failure when the database saves nothing, and its error message when the save throws", async () => {
    const product = await productWithImage('Edit Failure')
    const page = await openEditPage(product)
    // Taken without an error, nothing changed: "Failed to update product. Please try again."
    const ignored = await whileProductUpdates(t.db, 'Edit Failure Ignored', 'ignore', () =>
      save({ mode: 'edit', product }, editForm(page, { title: 'Edit Failure Ignored' })),
    )
    expect(ignored.status).toBe(500)
    expect(formError(ignored)).toBe(PRODUCT_MESSAGES.updateFailed)
    expect(ignored).toMatchObject({ result: { initial: { title: 'Edit Failure Ignored' } } })
    // Refused with an error: "An error occurred while updating the product."
    const failed = await whileProductUpdates(t.db, 'Edit Failure Thrown', 'fail', () =>
      save({ mode: 'edit', product }, editForm(page, { title: 'Edit Failure Thrown' })),
    )
    expect(failed.status).toBe(500)
    expect(formError(failed)).toBe(PRODUCT_MESSAGES.updateError)
    expect(await getProductById(t.db, product.id)).toEqual(product)
    expect(await updatesOf(product.id)).toEqual([])
  })

  it('adds a product as before: the Add Product form posts no version', async () => {
    const template = await productWithImage('Add Template')
    const page = await openEditPage(template)
    const outcome = await save(
      { mode: 'add' },
      editForm(page, { title: 'Added Without Version', slug: 'added-without-version' }, null),
    )
    expect(outcome).toEqual({ redirect: '/admin/products', status: 302 })
    const added = await t.db
      .selectFrom('product')
      .select(['title', 'price'])
      .where('slug', '=', 'added-without-version')
      .executeTakeFirst()
    expect(added).toEqual({ title: 'Added Without Version', price: 10_000 })
  })
})
