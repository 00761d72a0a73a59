import { describe, expect, it } from 'vitest'
import type { Env } from '~/lib/env.server'
import { MAIL_JOB, type MailMessage } from '~/lib/mail.server'
import { importStock } from '~/services/fulfilment.server'
import { sendBackInStockMails } from '~/services/notifications/wishlist-mail.server'
import { makeCustomer, makePaidOrder, makeProduct, makeStockedProduct } from '../../tests/factories'
import { fileTestDb } from '../../tests/helpers/db'
import { gatewayForm } from '../../tests/helpers/forms'
import { saveGateway } from './gateway.server'
import { updateProduct, type Product } from './product.server'
import { savePreferences } from './preferences.server'
import { setUserStatus } from './user.server'
import {
  addToWishlist,
  listWishlist,
  removeFromWishlist,
  setRestockNotice,
  takeRestockedWishes,
  wishlistProductIds,
  type RestockedWish,
} from './wishlist.server'

const APP_SECRET = 'b'.repeat(64)
const PUBLIC_URL = 'https://shop.example.in'
/** A fresh install: checkout offers the three simulators (test mode). */
const TEST_MODE = { PUBLIC_URL, APP_SECRET } as Env
/** The same shop with a real Paytm: the Razorpay and PhonePe simulators step aside. */
const LIVE = {
  ...TEST_MODE,
  PAYTM_MID: 'LIVEMID',
  PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
  PAYTM_HOST: 'https://securegw.paytm.in',
} as Env

const t = fileTestDb()

async function setInStock(product: Product, inStock: boolean) {
  const { id: _id, discount: _d, createdAt: _c, updatedAt: _u, ...input } = product
  await updateProduct(t.db, product.id, { ...input, inStock })
}

/** Count real items only, as a live shop's storefront does. */
const REAL = { testItems: false }

/** The back-in-stock mails queued so far, to one address. */
async function mailsTo(email: string): Promise<MailMessage[]> {
  const jobs = await t.db.selectFrom('job').select('payload').where('type', '=', MAIL_JOB).execute()
  return jobs
    .map((job) => JSON.parse(job.payload) as MailMessage)
    .filter((mail) => mail.to === email && mail.subject.startsWith('Back in stock'))
}

describe(`wishlists (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('adds and removes idempotently, for its owner only', async () => {
    const asha = await makeCustomer(t.db)
    const ravi = await makeCustomer(t.db)
    const netflix = await makeProduct(t.db, { price: 19_900, originalPrice: 64_900 })
    const office = await makeProduct(t.db)

    expect(
      await addToWishlist(t.db, asha.id, netflix.id, {
        ...REAL,
        now: new Date('2026-02-01T10:00:00Z'),
      }),
    ).toBe('added')
    expect(await addToWishlist(t.db, asha.id, netflix.id, REAL)).toBe('already')
    expect(
      await addToWishlist(t.db, asha.id, office.id, {
        ...REAL,
        now: new Date('2026-02-02T10:00:00Z'),
      }),
    ).toBe('added')
    expect(await addToWishlist(t.db, asha.id, 'no-such-product', REAL)).toBe('no-product')
    expect(await addToWishlist(t.db, ravi.id, office.id, REAL)).toBe('added')

    expect((await wishlistProductIds(t.db, asha.id)).sort()).toEqual([netflix.id, office.id].sort())
    expect(await wishlistProductIds(t.db, asha.id, [netflix.id])).toEqual([netflix.id])
    expect(await wishlistProductIds(t.db, asha.id, [])).toEqual([])
    const list = await listWishlist(t.db, asha.id, REAL)
    expect(list.map((item) => item.productId)).toEqual([office.id, netflix.id])
    expect(list[1]).toMatchObject({
      title: netflix.title,
      slug: netflix.slug,
      price: 19_900,
      originalPrice: 64_900,
      discount: 69,
      inStock: true,
      notifyRestock: true,
    })

    // Ravi removing Asha's product changes nothing of hers.
    expect(await removeFromWishlist(t.db, ravi.id, netflix.id)).toBe(false)
    expect(await setRestockNotice(t.db, ravi.id, netflix.id, false)).toBe(false)
    expect(await removeFromWishlist(t.db, asha.id, netflix.id)).toBe(true)
    expect(await removeFromWishlist(t.db, asha.id, netflix.id)).toBe(false)
    expect(await wishlistProductIds(t.db, asha.id)).toEqual([office.id])
    expect(await wishlistProductIds(t.db, ravi.id)).toEqual([office.id])
  })

  it('shows a stock product without items left as out of stock', async () => {
    const asha = await makeCustomer(t.db)
    const product = await makeStockedProduct(t.db, APP_SECRET, ['only-one@example.in:pass'])
    await addToWishlist(t.db, asha.id, product.id, REAL)
    expect((await listWishlist(t.db, asha.id, REAL))[0]!.inStock).toBe(true)
    await makePaidOrder(t.db, product.id)
    expect((await listWishlist(t.db, asha.id, REAL))[0]!.inStock).toBe(false)
  })

  it('mails once per return to stock, only to those who want it', async () => {
    const asha = await makeCustomer(t.db, { name: 'Asha' })
    const ravi = await makeCustomer(t.db)
    const meera = await makeCustomer(t.db)
    const gone = await makeCustomer(t.db)
    // Turned reminder and marketing-type mails off for the whole account (/dashboard/settings).
    const quiet = await makeCustomer(t.db)
    await savePreferences(t.db, quiet.id, { notifications: false })
    const product = await makeProduct(t.db, { title: 'Spotify Premium 12 Months', inStock: false })
    const other = await makeProduct(t.db, { inStock: true })
    for (const user of [asha, ravi, meera, gone, quiet])
      await addToWishlist(t.db, user.id, product.id, REAL)
    await addToWishlist(t.db, asha.id, other.id, REAL)
    await setRestockNotice(t.db, ravi.id, product.id, false)
    await setUserStatus(t.db, gone.id, 'suspended')

    const send = () => sendBackInStockMails(t.db, { env: TEST_MODE })
    // Still out of stock: nothing; an in-stock product never waited: nothing.
    expect(await send()).toBe(0)

    await setInStock(product, true)
    expect(await send()).toBe(2)
    expect(await send()).toBe(0)
    const [mail] = await mailsTo(asha.email)
    expect(mail).toMatchObject({ subject: 'Back in stock: Spotify Premium 12 Months' })
    expect(mail!.text).toContain('Hello Asha,')
    expect(mail!.text).toContain(`${PUBLIC_URL}/product/${product.slug}`)
    expect(await mailsTo(meera.email)).toHaveLength(1)
    expect(await mailsTo(ravi.email)).toHaveLength(0)
    expect(await mailsTo(gone.email)).toHaveLength(0)
    expect(await mailsTo(quiet.email)).toHaveLength(0)

    // Out again (seen by a run), back again: one more mail each.
    await setInStock(product, false)
    expect(await send()).toBe(0)
    await setInStock(product, true)
    expect(await send()).toBe(2)
    expect(await send()).toBe(0)
    expect(await mailsTo(asha.email)).toHaveLength(2)
    expect(await mailsTo(ravi.email)).toHaveLength(0)
  })

  it('claims each return once when two runs race', async () => {
    const asha = await makeCustomer(t.db)
    const product = await makeProduct(t.db, { inStock: false })
    await addToWishlist(t.db, asha.id, product.id, REAL)
    await setInStock(product, true)
    const seen: RestockedWish[] = []
    const notify = async (wish: RestockedWish) => {
      seen.push(wish)
    }
    const runs = await Promise.all([
      takeRestockedWishes(t.db, notify, { ...REAL, productIds: [product.id] }),
      takeRestockedWishes(t.db, notify, { ...REAL, productIds: [product.id] }),
    ])
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1)
    expect(seen.map((wish) => wish.userId)).toEqual([asha.id])
  })

  it('mails when new stock items bring a stock product back', async () => {
    const asha = await makeCustomer(t.db)
    const product = await makeStockedProduct(t.db, APP_SECRET, [])
    await addToWishlist(t.db, asha.id, product.id, REAL)
    // Adding stock checks the product at once (app/services/fulfilment.server.ts importStock),
    // in this process's setup: the simulators, which cannot sell a real item, so no mail yet.
    await importStock(t.db, {
      productId: product.id,
      content: 'new-item@example.in:secret',
      format: 'lines',
      appSecret: APP_SECRET,
    })
    expect(await mailsTo(asha.email)).toHaveLength(0)
    // With a real gateway the real item sells: the wisher is told, once.
    expect(await sendBackInStockMails(t.db, { env: LIVE })).toBe(1)
    expect(await sendBackInStockMails(t.db, { env: LIVE })).toBe(0)
    expect(await mailsTo(asha.email)).toHaveLength(1)
  })

  it('mails for test items only while the whole shop is in test mode', async () => {
    const asha = await makeCustomer(t.db)
    // The demo's kind of product: only test items, switched off and on again by the owner.
    const product = await makeStockedProduct(t.db, APP_SECRET, [], { inStock: false })
    await importStock(t.db, {
      productId: product.id,
      content: 'demo-1@example.test:pass\ndemo-2@example.test:pass',
      format: 'lines',
      appSecret: APP_SECRET,
      testItems: true,
    })
    await addToWishlist(t.db, asha.id, product.id, { testItems: true })
    await setInStock(product, true)
    // Live: test items are not stock, so nothing is promised to the buyer.
    expect(await sendBackInStockMails(t.db, { env: LIVE })).toBe(0)
    expect(await mailsTo(asha.email)).toHaveLength(0)
    // A simulator beside real gateways promises nothing either (the shop is not in test mode).
    await saveGateway(t.db, APP_SECRET, {
      mode: 'add',
      ...gatewayForm({ name: 'Razorpay', type: 'razorpay', status: 'testing' }),
    })
    expect(await sendBackInStockMails(t.db, { env: LIVE })).toBe(0)
    // Wholly in test mode (a fresh install), the demo's items bring the mail.
    await t.db.deleteFrom('paymentGateway').where('id', '=', 'razorpay').execute()
    expect(await sendBackInStockMails(t.db, { env: TEST_MODE })).toBe(1)
    expect(await mailsTo(asha.email)).toHaveLength(1)
  })
})
