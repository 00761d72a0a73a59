import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { productStats } from '~/data/product.server'
import type { DB } from '~/lib/db.server'
import { adminTest } from '../helpers/admin'
import { makeOrder } from '../factories'
import { seriousViolations } from '../helpers/axe'
import { collectCspViolations } from '../helpers/csp'
import type { RunningApp } from '../helpers/app'
import { expect, gotoHydrated } from '../helpers/fixtures'

/**
 * The admin catalogue in the production build: the admin shell, the products list,
 * the add and edit form with every validation message, image uploads (progress, refusals,
 * failure), duplicate and delete, and the storefront showing the result.
 */
const OWNER = { name: 'Shop Owner', email: 'owner@example.test', password: 'secret12' }
const TITLE = 'Vault Pro Streaming 12 Months'
const SLUG = 'vault-pro-streaming-12-months'

const admin = adminTest(OWNER)
const { logIn, logInWithoutJavaScript } = admin
// Every page of the back office, the image uploader included, runs without a CSP violation.
const test = admin.test.extend<{ cspViolations: string[] }>({
  cspViolations: [collectCspViolations, { auto: true }],
})
let db: DB
test.beforeAll(({ db: opened }) => {
  db = opened
})

const picture = (width: number, height: number, noisy = false) =>
  (noisy
    ? sharp({
        create: {
          width,
          height,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
    : sharp({ create: { width, height, channels: 3, background: '#2f6fdd' } })
  )
    .png()
    .toBuffer()

const uploadsDir = (app: RunningApp) => path.join(app.dataDir, 'uploads')
const productRow = (page: Page, title: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: title, exact: true }) })

async function chooseImage(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByLabel('Product image').setInputFiles(file)
}

async function storedImage(title: string): Promise<string> {
  return (
    await db
      .selectFrom('product')
      .select('image')
      .where('title', '=', title)
      .executeTakeFirstOrThrow()
  ).image
}

test.describe.serial('admin catalogue', () => {
  test('the admin shell: sections, the active one, the user menu, the phone menu, logout', async ({
    page,
  }) => {
    await logIn(page)
    await page.goto('/admin/products')
    const nav = page.getByRole('navigation', { name: 'Admin' })
    await expect(nav.getByRole('link', { name: 'Products' })).toHaveAttribute(
      'aria-current',
      'page',
    )
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/admin/dashboard',
    )
    await expect(nav.getByRole('link', { name: 'Gateways' })).toHaveAttribute(
      'href',
      '/admin/gateways',
    )
    await expect(nav.getByRole('link', { name: /^Orders/ })).toHaveAttribute(
      'href',
      '/admin/orders',
    )
    // Every section is a link (no "Soon" left).
    for (const later of ['Transactions', 'Users', 'Settings']) {
      await expect(nav.getByRole('link', { name: later })).toHaveCount(1)
    }
    await expect(nav.getByText('Soon')).toHaveCount(0)
    const header = page.getByRole('banner')
    await expect(header.getByText('Products', { exact: true })).toBeVisible()
    await expect(header.getByText('Shop Owner')).toBeVisible()
    await expect(header.getByText('Admin', { exact: true })).toBeVisible()

    // Payment Links is a section of its own, with its own title.
    await page.goto('/admin/payment-links')
    await expect(nav.getByRole('link', { name: 'Payment Links' })).toHaveAttribute(
      'aria-current',
      'page',
    )
    await expect(header.getByText('Payment Links', { exact: true })).toBeVisible()

    await page.goto('/admin/products/add')
    await expect(nav.getByRole('link', { name: 'Products' })).toHaveAttribute(
      'aria-current',
      'true',
    )
    await header.getByRole('button', { name: /Account menu/ }).click()
    const menu = page.getByRole('menu')
    await expect(menu.getByText(OWNER.email)).toBeVisible()
    await expect(menu.getByRole('menuitem', { name: /Profile Settings/ })).toBeVisible()
    await expect(menu.getByRole('menuitem', { name: /Admin Settings/ })).toHaveAttribute(
      'href',
      '/admin/settings',
    )
    await page.keyboard.press('Escape')

    // Phones: the sidebar slides in from a menu button.
    await page.setViewportSize({ width: 390, height: 844 })
    await expect(nav).toBeHidden()
    await page.getByRole('button', { name: 'Open menu' }).click()
    const sheet = page.getByRole('dialog', { name: 'Admin menu' })
    await sheet.getByRole('link', { name: 'Dashboard' }).click()
    await expect(page).toHaveURL('/admin/dashboard')
    await expect(sheet).toBeHidden()
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page
      .getByRole('dialog', { name: 'Admin menu' })
      .getByRole('link', { name: /go to the shop/ })
      .click()
    await expect(page).toHaveURL('/')

    await page.setViewportSize({ width: 1280, height: 900 })
    // The account menu opens once the page is hydrated.
    await gotoHydrated(page, '/admin/dashboard')
    await page.getByRole('button', { name: /Account menu/ }).click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await expect(page).toHaveURL('/')
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
  })

  test('creates a product with every field, each validation message once, and the shop shows it', async ({
    page,
    app,
  }) => {
    // Many steps and a 3 MB upload over a slowed connection: more than the default time.
    test.setTimeout(120_000)
    await logIn(page)
    await page.goto('/admin/products')
    await page.getByRole('link', { name: 'Add Product' }).first().click()
    await expect(page.getByRole('heading', { name: 'Add New Product' })).toBeVisible()
    await expect(page.getByText('Create a new product listing for your store.')).toBeVisible()
    for (const section of [
      'Basic Information',
      'Pricing',
      'Media & Links',
      'SEO Settings',
      'Availability & Visibility',
      'What You Get Features',
      'Product Details',
    ]) {
      await expect(page.getByRole('heading', { name: section, exact: true })).toBeVisible()
    }
    const create = page.getByRole('button', { name: 'Create Product' })

    // Everything required is missing; whitespace counts as empty.
    await page.getByLabel('Title', { exact: true }).fill('   ')
    await create.click()
    for (const message of [
      'Title is required',
      'Description is required',
      'Short description is required',
      'Product image is required',
      'Price must be greater than 0',
      'Original price must be greater than 0',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible()
    }
    await expect(page.getByLabel('Title', { exact: true })).toBeFocused()
    await expect(page).toHaveURL('/admin/products/add')

    // The slug follows the title, with its preview.
    await page.getByLabel('Title', { exact: true }).fill(TITLE)
    await expect(page.getByText('Title is required')).toHaveCount(0)
    await expect(page.getByLabel('Slug')).toHaveValue(SLUG)
    await expect(page.getByText(`/product/${SLUG}`)).toBeVisible()
    await page.getByLabel('Category').selectOption('Software')
    await page.getByLabel('Tags').fill(' 4K, family ,, no ads ')
    await page.getByLabel('Short description').fill('  Every show, every device, for a year.  ')
    await page
      .getByLabel('Description', { exact: true })
      .fill('Vault Pro gives you the whole catalogue in 4K with offline downloads.')

    // Prices in rupees; the discount follows and cannot be typed.
    await page.getByLabel('Price (₹)', { exact: true }).fill('499.50')
    await page.getByLabel('Original price (₹)').fill('999')
    await expect(page.getByLabel('Discount (%)')).toHaveValue('50%')
    await expect(page.getByLabel('Discount (%)')).toHaveAttribute('readonly', '')

    // Images: a text file named .png and a 6 MB file are refused before anything is sent.
    await chooseImage(page, {
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is not a picture, only text'),
    })
    await expect(page.getByText('Please select a valid image file (JPEG, PNG, WebP)')).toBeVisible()
    const png = await picture(8, 8)
    const sixMegabytes = Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024 - png.length)])
    await chooseImage(page, { name: 'huge.png', mimeType: 'image/png', buffer: sixMegabytes })
    await expect(page.getByText('Image size should be less than 5MB')).toBeVisible()
    await expect(page.getByText('Please select a valid image file (JPEG, PNG, WebP)')).toHaveCount(
      0,
    )

    // A real 3 MB PNG over a slowed-down connection: the progress bar moves as it goes up.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    const uploadSpeed = (bytesPerSecond: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: bytesPerSecond,
      })
    await uploadSpeed(1024 * 1024)
    await chooseImage(page, {
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: await picture(1200, 900, true),
    })
    const progress = page.getByRole('progressbar', { name: /Uploading/ })
    await expect(progress).toBeVisible()
    await expect(progress).toHaveAttribute('aria-valuenow', /^[1-9]\d?$/)
    await expect(page.getByText(/Uploading\.\.\. [1-9]\d?%/)).toBeVisible()
    await expect(create).toBeDisabled()
    await expect(page.getByText('Wait for the image upload to finish.')).toBeVisible()
    await uploadSpeed(-1)
    await expect(progress).toBeHidden({ timeout: 20_000 })
    await expect(page.getByText('Image size should be less than 5MB')).toHaveCount(0)
    const preview = page.getByRole('img', { name: 'Product image preview' })
    await expect(preview).toHaveAttribute(
      'src',
      /^\/images\/products\/\d+_[0-9a-f]{12}\.png\?w=640$/,
    )
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0)

    // An optional buy link must be a URL.
    await page.getByLabel('Buy now link').fill('not a url')
    // Counters are advice: a meta title over 60 characters is kept whole.
    const metaTitle = 'Vault Pro Streaming: 12 months of 4K films and series, at 50% off'
    await page.getByLabel('Meta title').fill(metaTitle)
    await expect(page.getByText(/^\d+\/60/)).toHaveText(
      `${metaTitle.length}/60 characters, more than advised`,
    )
    await page.getByLabel('Meta description').fill('Watch everything in 4K for a year.')
    await expect(page.getByText(/^\d+\/160/)).toHaveText('34/160 characters')
    await page.getByLabel('Keywords').fill('vault, streaming , 4k,')

    // Features: Enter or Add (trimmed, empty ignored), edited in place, removed.
    const newFeature = page.getByLabel('New feature')
    await newFeature.fill('  4K Ultra HD  ')
    await newFeature.press('Enter')
    await newFeature.fill('   ')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await newFeature.fill('Offline downloads')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await newFeature.fill('A mistake')
    await newFeature.press('Enter')
    const features = page.getByRole('list', { name: 'Features' })
    await expect(features.getByRole('listitem')).toHaveCount(3)
    await expect(page.getByRole('textbox', { name: 'Feature 1', exact: true })).toHaveValue(
      '4K Ultra HD',
    )
    await page
      .getByRole('textbox', { name: 'Feature 2', exact: true })
      .fill('Offline downloads on 4 devices')
    await page.getByRole('button', { name: 'Remove feature 3: A mistake' }).click()
    await expect(features.getByRole('listitem')).toHaveCount(2)

    await expect(page.getByLabel('In stock')).toBeChecked()
    await page.getByLabel('Featured').check()
    await page.getByLabel('Validity').fill('12 months')
    await page.getByLabel('Delivery time').fill('Within 10 minutes')
    await create.click()
    await expect(
      page.getByText('Buy now link must be a valid URL starting with https:// or http://'),
    ).toBeVisible()
    await expect(page.getByLabel('Buy now link')).toBeFocused()

    await page.getByLabel('Buy now link').fill('')
    await create.click()
    await expect(page).toHaveURL('/admin/products')
    await expect(page.getByText('Product created successfully!')).toBeVisible()
    await expect(productRow(page, TITLE)).toContainText('₹499.50')
    // Switched on, and sold from stock (the default) with no item yet: buyers cannot order it,
    // and the list says so as the shop does (app/lib/stock-status.ts).
    await expect(productRow(page, TITLE)).toContainText('Out of Stock')
    await expect(productRow(page, TITLE)).toContainText('No test items left')

    // Stored exactly: paise, lists, a stored image at products/{timestamp}_{random}.png.
    const stored = await db
      .selectFrom('product')
      .select([
        'price',
        'originalPrice',
        'category',
        'tags',
        'keywords',
        'features',
        'featured',
        'buyNowLink',
        'image',
        'shortDescription',
        'metaTitle',
      ])
      .where('slug', '=', SLUG)
      .executeTakeFirstOrThrow()
    expect(stored).toMatchObject({
      price: 49_950,
      originalPrice: 99_900,
      category: 'Software',
      tags: '["4K","family","no ads"]',
      keywords: '["vault","streaming","4k"]',
      features: '["4K Ultra HD","Offline downloads on 4 devices"]',
      featured: 1,
      buyNowLink: null,
      shortDescription: 'Every show, every device, for a year.',
    })
    expect(stored.metaTitle).toBe(metaTitle)
    expect(stored.image).toMatch(/^products\/\d+_[0-9a-f]{12}\.png$/)
    expect(fs.existsSync(path.join(uploadsDir(app), stored.image))).toBe(true)

    // The shop shows it.
    await page.goto(`/product/${SLUG}`)
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible()
    await expect(page.getByText('₹499.50').first()).toBeVisible()
    await expect(page.getByText('Offline downloads on 4 devices')).toBeVisible()
    await expect(page.getByText('Within 10 minutes')).toBeVisible()
    const image = page.getByRole('img', { name: TITLE }).first()
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0)
    await page.goto('/')
    await expect(page.getByRole('heading', { name: TITLE }).first()).toBeVisible()
  })

  test('edits the product: prefilled, a taken slug refused, a new image replaces the old file', async ({
    page,
    app,
  }) => {
    await logIn(page)
    await page.goto(`/admin/products?q=${encodeURIComponent('vault pro')}`)
    await expect(page.getByText('Showing 1–1 of 1 product')).toBeVisible()
    // The header says what is loading while the edit page's data is on its way.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 1500,
      downloadThroughput: -1,
      uploadThroughput: -1,
    })
    await productRow(page, TITLE)
      .getByRole('link', { name: `Edit ${TITLE}` })
      .click()
    await expect(page.getByRole('banner').getByRole('status')).toHaveText('Loading product...')
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    })
    await expect(page.getByRole('heading', { name: 'Edit Product' })).toBeVisible()
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(TITLE)
    await expect(page.getByLabel('Price (₹)', { exact: true })).toHaveValue('499.50')
    await expect(page.getByLabel('Tags')).toHaveValue('4K, family, no ads')
    await expect(page.getByRole('textbox', { name: 'Feature 2', exact: true })).toHaveValue(
      'Offline downloads on 4 devices',
    )
    await expect(page.getByLabel('Featured')).toBeChecked()

    // Another product's slug: a clear field error, nothing saved.
    await page.getByLabel('Slug').fill('cinenova-ultra-6-months')
    await page.getByRole('button', { name: 'Update Product' }).click()
    await expect(
      page.getByText('This slug is already used by another product. Change the title or the slug.'),
    ).toBeVisible()
    await expect(page.getByLabel('Slug')).toBeFocused()
    await page.getByLabel('Slug').fill(SLUG)

    // A failed upload reverts the preview to the saved image.
    const oldImage = await storedImage(TITLE)
    const preview = page.getByRole('img', { name: 'Product image preview' })
    const savedSrc = await preview.getAttribute('src')
    await page.route('**/admin/api/uploads', (route) =>
      route.fulfill({ status: 500, body: 'boom' }),
    )
    await chooseImage(page, {
      name: 'other.png',
      mimeType: 'image/png',
      buffer: await picture(640, 480),
    })
    await expect(page.getByText('Failed to upload image. Please try again.').first()).toBeVisible()
    await expect(preview).toHaveAttribute('src', savedSrc!)
    await page.unroute('**/admin/api/uploads')

    await chooseImage(page, {
      name: 'other.png',
      mimeType: 'image/png',
      buffer: await picture(640, 480),
    })
    await expect(preview).toHaveAttribute(
      'src',
      /^\/images\/products\/\d+_[0-9a-f]{12}\.png\?w=640$/,
    )
    await page.getByLabel('Price (₹)', { exact: true }).fill('449')
    await page.getByLabel('In stock').uncheck()
    await page.getByRole('button', { name: 'Update Product' }).click()
    await expect(page).toHaveURL('/admin/products')
    await expect(page.getByText('Product updated successfully!')).toBeVisible()
    await expect(productRow(page, TITLE)).toContainText('₹449')
    await expect(productRow(page, TITLE)).toContainText('Out of Stock')
    const newImage = await storedImage(TITLE)
    expect(newImage).not.toBe(oldImage)
    expect(fs.existsSync(path.join(uploadsDir(app), newImage))).toBe(true)
    // The replaced file is gone, with its resized copies.
    expect(fs.existsSync(path.join(uploadsDir(app), oldImage))).toBe(false)
    expect(fs.existsSync(path.join(app.dataDir, 'cache', 'images', oldImage))).toBe(false)
  })

  test('duplicates and deletes with the confirmation; each image file goes with its product', async ({
    page,
    app,
  }) => {
    await logIn(page)
    await page.goto('/admin/products')
    await productRow(page, TITLE)
      .getByRole('button', { name: `Duplicate ${TITLE}` })
      .click()
    await expect(page.getByText(`"${TITLE}" duplicated successfully!`)).toBeVisible()
    const copyTitle = `${TITLE} (Copy)`
    await expect(productRow(page, copyTitle)).toBeVisible()
    const copy = await db
      .selectFrom('product')
      .select(['id', 'slug', 'image'])
      .where('title', '=', copyTitle)
      .executeTakeFirstOrThrow()
    expect(copy.slug).toBe(`${SLUG}-copy`)
    expect(copy.image).not.toBe(await storedImage(TITLE))
    await page.goto(`/product/${SLUG}-copy`)
    await expect(page.getByRole('heading', { level: 1, name: copyTitle })).toBeVisible()

    // A second copy gets a slug of its own.
    await page.goto('/admin/products')
    await productRow(page, TITLE)
      .getByRole('button', { name: `Duplicate ${TITLE}` })
      .click()
    await expect(productRow(page, `${TITLE} (Copy 2)`)).toBeVisible()

    // Delete asks first; Cancel keeps the product.
    await productRow(page, copyTitle)
      .getByRole('button', { name: `Delete ${copyTitle}` })
      .click()
    const dialog = page.getByRole('alertdialog')
    await expect(dialog).toContainText(
      `Are you sure you want to delete "${copyTitle}"? This action cannot be undone.`,
    )
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(productRow(page, copyTitle)).toBeVisible()

    // A buyer is paying for it (delivered by hand, so no stock is needed): the delete is
    // refused and the product kept.
    await db
      .updateTable('product')
      .set({ deliveryMode: 'manual', inStock: 1 })
      .where('id', '=', copy.id)
      .execute()
    const buyer = await makeOrder(db, copy.id)
    await productRow(page, copyTitle)
      .getByRole('button', { name: `Delete ${copyTitle}` })
      .click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect(
      page.getByText(
        `"${copyTitle}" was not deleted: 1 order is still being paid or delivered. Try again once the order is delivered, refunded or expired.`,
      ),
    ).toBeVisible()
    await expect(productRow(page, copyTitle)).toBeVisible()
    // The unpaid order expired: now it goes.
    await db.updateTable('order').set({ status: 'expired' }).where('id', '=', buyer.id).execute()

    await productRow(page, copyTitle)
      .getByRole('button', { name: `Delete ${copyTitle}` })
      .click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('Product deleted successfully!')).toBeVisible()
    await expect(productRow(page, copyTitle)).toHaveCount(0)
    expect(fs.existsSync(path.join(uploadsDir(app), copy.image))).toBe(false)
    // The original keeps its own image.
    expect(fs.existsSync(path.join(uploadsDir(app), await storedImage(TITLE)))).toBe(true)
    expect((await page.request.get(`/product/${SLUG}-copy`)).status()).toBe(404)
  })

  test('the list: figures over all products, search, category, pages, empty state', async ({
    page,
  }) => {
    await logIn(page)
    await page.goto('/admin/products')
    const all = await db.selectFrom('product').select(['inStock']).execute()
    // Total Reviews counts buyers' visible reviews (the demo seed writes a few).
    const { count: reviews } = await db
      .selectFrom('review')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('hidden', '=', 0)
      .executeTakeFirstOrThrow()
    const figures = page.getByRole('list', { name: 'Catalogue figures' })
    await expect(figures.getByRole('listitem').filter({ hasText: 'Total Products' })).toContainText(
      String(all.length),
    )
    // Active: what buyers can order now, by the rule of the table's status (in this test-mode
    // shop, products sold from stock need a test item).
    await expect(figures.getByRole('listitem').filter({ hasText: 'Active' })).toContainText(
      String((await productStats(db, undefined, 'test')).active),
    )
    await expect(figures.getByRole('listitem').filter({ hasText: 'Total Reviews' })).toContainText(
      new Intl.NumberFormat('en-IN').format(Number(reviews)),
    )

    // 20 a page, in the URL.
    await expect(page.getByText(`Showing 1–20 of ${all.length} products`)).toBeVisible()
    await page
      .getByRole('navigation', { name: 'Pagination' })
      .getByRole('link', { name: 'Next' })
      .click()
    await expect(page).toHaveURL('/admin/products?page=2')
    await expect(page.getByText(`Showing 21–${all.length} of ${all.length} products`)).toBeVisible()

    await page.getByLabel('Category').selectOption('Games')
    await expect(page).toHaveURL('/admin/products?category=Games')
    const games = await db
      .selectFrom('product')
      .select('title')
      .where('category', '=', 'Games')
      .execute()
    await expect(page.getByRole('table').getByRole('rowheader')).toHaveCount(games.length)

    await page.getByLabel('Search by title').fill('no such thing at all')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL(/q=no\+such\+thing\+at\+all/)
    await expect(page.getByRole('heading', { name: 'No Products Found' })).toBeVisible()
    await page.getByRole('link', { name: 'Clear' }).click()
    await expect(page).toHaveURL('/admin/products')
  })

  test('missing ids: Product ID not found, and the Product Not Found page that returns to the list', async ({
    page,
  }) => {
    await logIn(page)
    await page.goto('/admin/products/edit')
    await expect(page).toHaveURL('/admin/products')
    await expect(page.getByText('Product ID not found')).toBeVisible()

    const response = await page.goto('/admin/products/edit/no-such-product')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Product Not Found' })).toBeVisible()
    await expect(page.getByText('Product not found', { exact: true })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to Products' })).toHaveAttribute(
      'href',
      '/admin/products',
    )
    await expect(page).toHaveURL('/admin/products', { timeout: 10_000 })

    // Delete or duplicate a product someone else deleted meanwhile: trying again cannot help.
    await page.request.post('/admin/products', {
      form: { intent: 'delete', id: 'gone', confirmed: 'yes' },
      maxRedirects: 0,
    })
    await page.goto('/admin/products')
    await expect(
      page.getByText('This product no longer exists: it may have been deleted by another admin.'),
    ).toBeVisible()
    await page.request.post('/admin/products', {
      form: { intent: 'duplicate', id: 'gone' },
      maxRedirects: 0,
    })
    await page.goto('/admin/products')
    await expect(page.getByText('Original product not found')).toBeVisible()
  })

  test('the server judges uploads itself: content, size, and only our own images deleted', async ({
    page,
  }) => {
    await logIn(page)
    const upload = (name: string, buffer: Buffer) =>
      page.request.post('/admin/api/uploads', {
        multipart: { file: { name, mimeType: 'image/png', buffer } },
      })
    const text = await upload('notes.png', Buffer.from('plain text pretending to be a picture'))
    expect(text.status()).toBe(415)
    expect(await text.json()).toEqual({
      ok: false,
      error: 'Please select a valid image file (JPEG, PNG, WebP)',
    })
    const png = await picture(8, 8)
    const big = await upload('big.png', Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)]))
    expect(big.status()).toBe(413)
    expect(await big.json()).toEqual({ ok: false, error: 'Image size should be less than 5MB' })

    const good = await upload('fine.png', await picture(320, 240))
    const body = (await good.json()) as { ok: boolean; key: string }
    expect(body.ok).toBe(true)
    const remove = (url: string) =>
      page.request.post('/admin/api/uploads', { form: { intent: 'delete', url } })
    const outside = await remove('https://elsewhere.example.com/products/x.png')
    expect(outside.status()).toBe(400)
    expect(await outside.json()).toEqual({ ok: false, error: 'Invalid image URL' })
    // A product's image stays; an unsaved upload goes.
    expect(await (await remove(`/images/${await storedImage(TITLE)}?w=640`)).json()).toEqual({
      ok: true,
      deleted: false,
    })
    expect(await (await remove(`/images/${body.key}?w=640`)).json()).toEqual({
      ok: true,
      deleted: true,
    })
  })

  test('the admin pages have no serious accessibility violation, in both themes', async ({
    page,
    app,
  }) => {
    // Six axe runs over the admin's largest pages (the product form with its delivery section).
    test.setTimeout(120_000)
    await logIn(page)
    const id = (
      await db.selectFrom('product').select('id').where('slug', '=', SLUG).executeTakeFirstOrThrow()
    ).id
    for (const theme of ['light', 'dark'] as const) {
      await page.context().addCookies([{ name: 'theme', value: theme, url: app.url }])
      for (const [url, after] of [
        ['/admin/products', null],
        ['/admin/products?q=no+such+thing', null],
        ['/admin/products/add', 'Create Product'],
        [`/admin/products/edit/${id}`, null],
        ['/admin/products/edit/no-such-product', null],
      ] as const) {
        await page.goto(url)
        await expect(page.locator('html')).toHaveClass(theme)
        if (after) await page.getByRole('button', { name: after }).click()
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
        expect(await seriousViolations(page), `${theme} ${url}`).toEqual([])
      }
    }
  })

  test('works without JavaScript: delete asks on the page, the form is checked on the server', async ({
    browser,
    app,
  }) => {
    const { context, page } = await logInWithoutJavaScript(browser, app.url)
    await page.goto(`/admin/products?q=${encodeURIComponent('(Copy 2)')}`)
    const copyTitle = `${TITLE} (Copy 2)`
    await productRow(page, copyTitle)
      .getByRole('button', { name: `Delete ${copyTitle}` })
      .click()
    await expect(
      page.getByText(
        `Are you sure you want to delete "${copyTitle}"? This action cannot be undone.`,
      ),
    ).toBeVisible()
    await page
      .getByRole('region', { name: 'Delete product' })
      .getByRole('button', { name: 'Delete' })
      .click()
    await expect(page.getByText('Product deleted successfully!')).toBeVisible()
    await expect(productRow(page, copyTitle)).toHaveCount(0)

    // The form: the server checks the same rules, and the image file comes with the form.
    await page.goto('/admin/products/add')
    await page.getByLabel('Title', { exact: true }).fill('Plain HTML Product')
    await page.getByLabel('Price (₹)', { exact: true }).fill('0')
    await page.getByRole('button', { name: 'Create Product' }).click()
    await expect(page.getByText('Description is required', { exact: true })).toBeVisible()
    await expect(page.getByText('Price must be greater than 0', { exact: true })).toBeVisible()
    await expect(page.getByText('Product image is required')).toBeVisible()
    // What was typed is still there.
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Plain HTML Product')
    await page.getByLabel('Short description').fill('Made without JavaScript.')
    await page
      .getByLabel('Description', { exact: true })
      .fill('Every field went with one plain form post.')
    await page.getByLabel('Slug').fill('plain-html-product')
    await page.getByLabel('Price (₹)', { exact: true }).fill('99')
    await page.getByLabel('Original price (₹)').fill('199')
    await page.getByLabel('New feature').fill('Works everywhere')
    await page
      .getByLabel('Product image')
      .setInputFiles({ name: 'plain.png', mimeType: 'image/png', buffer: await picture(400, 300) })
    await page.getByRole('button', { name: 'Create Product' }).click()
    await expect(page).toHaveURL('/admin/products')
    await expect(page.getByText('Product created successfully!')).toBeVisible()
    const plain = await db
      .selectFrom('product')
      .select(['image', 'price', 'features'])
      .where('slug', '=', 'plain-html-product')
      .executeTakeFirstOrThrow()
    expect(plain).toMatchObject({ price: 9_900, features: '["Works everywhere"]' })
    expect(fs.existsSync(path.join(uploadsDir(app), plain.image))).toBe(true)
    await context.close()
  })
})

/** Screenshots for review: the list and the form at 390 and 1280 px, light and dark. */
test('screenshots of the list and the form', async ({ page, app }) => {
  test.skip(!process.env.ADMIN_SCREENSHOTS, 'set ADMIN_SCREENSHOTS=dir to write them')
  test.setTimeout(240_000)
  const dir = process.env.ADMIN_SCREENSHOTS!
  fs.mkdirSync(dir, { recursive: true })
  await logIn(page)
  for (const theme of ['light', 'dark'] as const) {
    await page.context().addCookies([{ name: 'theme', value: theme, url: app.url }])
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      const shot = (name: string) =>
        page.screenshot({ path: path.join(dir, `${name}-${width}-${theme}.png`) })
      await page.goto('/admin/products')
      await shot('list')
      await page.getByRole('navigation', { name: 'Pagination' }).scrollIntoViewIfNeeded()
      await shot('list-end')
      await page.goto('/admin/products/add')
      await shot('form')
      await page.getByRole('button', { name: 'Create Product' }).click()
      await page.getByRole('heading', { name: 'Media & Links' }).scrollIntoViewIfNeeded()
      await shot('form-errors')
      await page.goto('/admin/products')
      await page
        .getByRole('link', { name: /^Edit / })
        .first()
        .click()
      await expect(page.getByRole('heading', { name: 'Edit Product' })).toBeVisible()
      await shot('form-edit')
      if (width === 390) {
        await page.getByRole('button', { name: 'Open menu' }).click()
        await shot('menu')
        await page.keyboard.press('Escape')
      } else {
        await page.getByRole('button', { name: /Account menu/ }).click()
        await shot('user-menu')
        await page.keyboard.press('Escape')
      }
    }
  }
})
