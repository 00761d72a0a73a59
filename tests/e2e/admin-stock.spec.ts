import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { updateSiteSettings } from '~/data/settings.server'
import { importStock } from '~/services/fulfilment.server'
import { shopDateTime } from '~/lib/date-format'
import type { DB } from '~/lib/db.server'
import { adminTest } from '../helpers/admin'
import { seriousViolations } from '../helpers/axe'
import { expect, gotoHydrated } from '../helpers/fixtures'
import { demoProductImage, makeProduct } from '../factories'

/**
 * Delivery modes and the stock of accounts and keys in the production build: the
 * product form's Delivery section, the admin stock page (import by paste and by file, counts,
 * the masked list, revoke), and the storefront following the available stock.
 */
const OWNER = { name: 'Stock Owner', email: 'stock.owner@example.test', password: 'secret12' }

const { test, logIn, logInWithoutJavaScript } = adminTest(OWNER)
let db: DB
test.beforeAll(({ db: opened }) => {
  db = opened
})

/** A product as the catalogue holds it before stock delivery existed: delivered by hand (the migration's default). */
async function manualProduct(title: string): Promise<{ id: string; slug: string; title: string }> {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  const image = await demoProductImage(db)
  const product = await makeProduct(db, {
    title,
    slug,
    description: `${title} for the stock tests.`,
    shortDescription: 'A licence key',
    image,
    price: 29_900,
    originalPrice: 59_900,
    category: 'Software',
    validity: '1 year',
  })
  return { id: product.id, slug, title }
}

async function stored(id: string) {
  return db
    .selectFrom('product')
    .select(['deliveryMode', 'sharedSecret'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

const figure = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Stock figures' }).getByRole('listitem').filter({ hasText: label })

async function expectFigures(page: Page, figures: Record<string, number>) {
  for (const [label, value] of Object.entries(figures)) {
    await expect(figure(page, label)).toContainText(`${label}${value}`)
  }
}

/** Imports what the form holds as test items (what the simulators of this shop can sell). */
async function importAsTestItems(page: Page) {
  await page.getByLabel('These are test items').check()
  await page.getByRole('button', { name: 'Import items' }).click()
}

async function revokeFirstAvailable(page: Page) {
  await page
    .getByRole('button', { name: /^Revoke item / })
    .first()
    .click()
  const dialog = page.getByRole('alertdialog', { name: 'Revoke item' })
  await expect(dialog).toContainText(
    'Revoke this item? It will never be sold, and this cannot be undone.',
  )
  await dialog.getByRole('button', { name: 'Revoke' }).click()
  await expect(page.getByText('Item revoked. It will never be sold.').first()).toBeVisible()
}

test.describe.serial('stock', () => {
  // Whole journeys through several pages: more than the default 45 s on a busy two-core machine.
  test.describe.configure({ timeout: 120_000 })

  test('sells a product from stock: import with duplicates, a CSV file, counts, revoke, and the shop follows', async ({
    page,
  }) => {
    const product = await manualProduct('Stockroom Office Key 1 Year')
    await logIn(page)

    // New products are sold from stock by default.
    await gotoHydrated(page, '/admin/products/add')
    await expect(page.getByLabel('From stock')).toBeChecked()

    // An existing product is switched to stock in its form.
    await gotoHydrated(page, `/admin/products/edit/${product.id}`)
    const delivery = page.getByRole('radiogroup', { name: 'Delivery mode' })
    await expect(delivery.getByLabel('Manual')).toBeChecked()
    await delivery.getByLabel('From stock').check()
    await page.getByRole('button', { name: 'Update Product' }).click()
    await expect(page).toHaveURL('/admin/products')
    await expect(page.getByText('Product updated successfully!').first()).toBeVisible()
    expect(await stored(product.id)).toEqual({ deliveryMode: 'stock', sharedSecret: null })

    // With nothing in stock the shop cannot sell it.
    await page.goto(`/product/${product.slug}`)
    const main = page.getByRole('main')
    await expect(main.getByRole('button', { name: 'Out of Stock' })).toBeDisabled()

    // The list links to the product's stock.
    await page.goto(`/admin/products?q=${encodeURIComponent(product.title)}`)
    await page
      .getByRole('link', { name: `Stock of ${product.title}` })
      .first()
      .click()
    await expect(page).toHaveURL(`/admin/products/${product.id}/stock`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Stock: ${product.title}`)
    await expectFigures(page, { Available: 0, Held: 0, Delivered: 0, Revoked: 0 })
    await expect(page.getByText('No items yet')).toBeVisible()

    // Pasted lines: a duplicate in the batch is reported with its line, empty lines skipped. The
    // shop runs on the built-in simulators, which sell test items only: these are test items.
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))
    await page
      .getByLabel('Paste items')
      .fill('KEY-AAAA-0001\nKEY-AAAA-0002\nKEY-AAAA-0001\n\nKEY-AAAA-0003\n')
    await importAsTestItems(page)
    const status = page.getByRole('status').filter({ hasText: 'Import finished' })
    await expect(status).toContainText(
      'Import finished: 3 added, 1 duplicate skipped (line 3), 0 invalid.',
    )
    await expect(status).toContainText('No paid orders were waiting for this stock.')
    await expect(page.getByLabel('Paste items')).toHaveValue('')
    await expectFigures(page, { Available: 3 })

    // The list shows each item by a few of its last characters only, enough to tell them apart.
    const items = page.getByRole('table')
    await expect(items.getByRole('rowheader')).toHaveCount(3)
    expect((await items.getByRole('rowheader').allTextContents()).sort()).toEqual([
      '••••••0001',
      '••••••0002',
      '••••••0003',
    ])
    expect(await page.content()).not.toContain('KEY-AAAA-000')

    // A CSV file: a header row, a different note is still a duplicate, a short row is invalid;
    // items already in stock count as duplicates too.
    await page.getByLabel('Upload a file').setInputFiles({
      name: 'accounts.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'email,password,note\n' +
          'alpha@example.test,Alpha-Pass-1,first\n' +
          'beta@example.test,"Beta, Pass 2",\n' +
          'alpha@example.test,Alpha-Pass-1,another note\n' +
          'only-one-column\n',
      ),
    })
    await importAsTestItems(page)
    await expect(status).toContainText(
      'Import finished: 2 added, 1 duplicate skipped (line 4), 1 invalid (line 5).',
    )
    await expectFigures(page, { Available: 5, Held: 0, Delivered: 0, Revoked: 0 })
    // Short addresses show nothing of themselves; never the password.
    await expect(items.getByRole('rowheader').first()).toHaveText(
      '••••••@•••••• (email, password, note)',
    )
    expect(await page.content()).not.toMatch(/Alpha-Pass-1|Beta, Pass 2/)

    // The same file again adds nothing.
    await page.getByLabel('Upload a file').setInputFiles({
      name: 'keys.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('KEY-AAAA-0003\nKEY-AAAA-0002\n'),
    })
    await importAsTestItems(page)
    await expect(
      page.getByText(
        'Nothing was added. 2 duplicates skipped: lines 1 and 2 repeat items this product has or had, or earlier lines.',
      ),
    ).toBeVisible()

    // The shop shows a low stock and sells it.
    await page.goto(`/product/${product.slug}`)
    await expect(main.getByText('In Stock', { exact: true })).toBeVisible()
    await expect(main.getByText('Only 5 left')).toBeVisible()
    await expect(main.getByRole('link', { name: 'Buy Now' })).toHaveAttribute(
      'href',
      `/checkout/${product.slug}`,
    )

    // Revoke an available item, after the confirmation.
    await gotoHydrated(page, `/admin/products/${product.id}/stock`)
    await revokeFirstAvailable(page)
    await expectFigures(page, { Available: 4, Revoked: 1 })
    await page.getByRole('link', { name: /^Revoked/ }).click()
    await expect(page).toHaveURL(`/admin/products/${product.id}/stock?status=revoked`)
    await expect(items.getByRole('row').filter({ hasText: 'Revoked' })).toHaveCount(1)
    await expect(items).toContainText(`(by ${OWNER.email} on the stock page)`)
    await expect(page.getByRole('button', { name: /^Revoke item / })).toHaveCount(0)

    await page.goto(`/product/${product.slug}`)
    await expect(main.getByText('Only 4 left')).toBeVisible()

    // Nothing left: Out of Stock everywhere, and the server refuses an order.
    await gotoHydrated(page, `/admin/products/${product.id}/stock?status=available`)
    for (let left = 4; left > 0; left--) {
      await revokeFirstAvailable(page)
      await expectFigures(page, { Available: left - 1 })
    }
    await expect(page.getByText('No available items')).toBeVisible()

    await page.goto(`/product/${product.slug}`)
    await expect(main.getByText('Out of Stock', { exact: true }).first()).toBeVisible()
    await expect(main.getByRole('button', { name: 'Out of Stock' })).toBeDisabled()
    await expect(main.getByRole('link', { name: 'Buy Now' })).toHaveCount(0)
    await expect(main.getByText(/Only \d+ left/)).toHaveCount(0)
    const jsonLd = await page.locator('script[type="application/ld+json"]').first().textContent()
    expect(jsonLd).toContain('https://schema.org/OutOfStock')

    await page.goto('/')
    await expect(
      page.getByRole('article').filter({ hasText: product.title }).first(),
    ).toContainText('Out of Stock')

    await page.goto(`/checkout/${product.slug}`)
    await expect(page.getByText('This product is out of stock.')).toBeVisible()
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0)
    const refused = await page.request.post(`/checkout/${product.slug}`, {
      form: { name: 'Asha Verma', email: 'asha@example.test', phone: '9876543210' },
    })
    expect(refused.status()).toBe(409)
    expect(await refused.text()).toContain('This product is out of stock.')
  })

  test('a shared product needs a secret, kept encrypted and never shown again', async ({
    page,
  }) => {
    const product = await manualProduct('Family Stream Shared Plan')
    await logIn(page)
    await gotoHydrated(page, `/admin/products/edit/${product.id}`)
    const secret = page.getByRole('textbox', { name: 'Secret for every buyer' })
    await expect(secret).toHaveCount(0)
    await page.getByRole('radio', { name: 'Shared secret' }).check()
    await expect(secret).toBeVisible()
    await expect(
      page.getByText(
        'Changing it changes what later buyers get; past buyers keep the secret they were delivered.',
      ),
    ).toBeVisible()

    await page.getByRole('button', { name: 'Update Product' }).click()
    await expect(
      page.getByText('Enter the shared secret: a shared product delivers it to every buyer'),
    ).toBeVisible()
    await expect(secret).toBeFocused()
    await expect(secret).toHaveAttribute('aria-invalid', 'true')
    expect(await stored(product.id)).toEqual({ deliveryMode: 'manual', sharedSecret: null })

    await secret.fill('family@example.test\nShared-Pass-77')
    await page.getByRole('button', { name: 'Update Product' }).click()
    await expect(page).toHaveURL('/admin/products')
    const saved = await stored(product.id)
    expect(saved.deliveryMode).toBe('shared')
    expect(saved.sharedSecret).toBeTruthy()
    expect(saved.sharedSecret).not.toContain('Shared-Pass-77')

    // The form says a secret is set, without it; an empty field keeps it.
    await gotoHydrated(page, `/admin/products/edit/${product.id}`)
    await expect(page.getByText('A shared secret is saved.')).toBeVisible()
    expect(await page.content()).not.toContain('Shared-Pass-77')
    await expect(page.getByRole('textbox', { name: 'New secret for every buyer' })).toHaveValue('')
    await page.getByRole('button', { name: 'Update Product' }).click()
    await expect(page).toHaveURL('/admin/products')
    expect((await stored(product.id)).sharedSecret).toBe(saved.sharedSecret)

    // Clearing it while shared is refused; clearing it to go manual is not.
    await gotoHydrated(page, `/admin/products/edit/${product.id}`)
    await page.getByLabel('Clear the saved secret').check()
    await page.getByRole('button', { name: 'Update Product' }).click()
    await expect(
      page.getByText('Enter the shared secret: a shared product delivers it to every buyer'),
    ).toBeVisible()
    await page.getByRole('radiogroup', { name: 'Delivery mode' }).getByLabel('Manual').check()
    await page.getByRole('button', { name: 'Update Product' }).click()
    await expect(page).toHaveURL('/admin/products')
    expect(await stored(product.id)).toEqual({ deliveryMode: 'manual', sharedSecret: null })

    // The stock page of a product not sold from stock says so.
    await page.goto(`/admin/products/${product.id}/stock`)
    await expect(
      page.getByRole('note').filter({ hasText: 'This product is delivered by hand' }),
    ).toContainText(
      'This product is delivered by hand (manual), so its orders do not take items from this stock.',
    )
    await expect(page.getByRole('link', { name: 'Change the delivery mode' })).toHaveAttribute(
      'href',
      `/admin/products/edit/${product.id}#section-delivery`,
    )
  })

  test('refuses an empty import, the wrong file type and more than 5 MB, on both sides', async ({
    page,
  }) => {
    const product = await manualProduct('Limits Test Key')
    await logIn(page)
    await gotoHydrated(page, `/admin/products/${product.id}/stock`)
    const importButton = page.getByRole('button', { name: 'Import items' })

    await importButton.click()
    await expect(page.getByText('Paste at least one line or choose a file to import')).toBeVisible()
    await expect(page.getByLabel('Paste items')).toBeFocused()

    const file = page.getByLabel('Upload a file')
    await file.setInputFiles({
      name: 'keys.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF'),
    })
    await expect(page.getByText('Choose a .txt or .csv file')).toBeVisible()
    await file.setInputFiles({
      name: 'huge.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 'a'),
    })
    await expect(
      page.getByText('Imports are limited to 5 MB at a time. Split the file into smaller ones.'),
    ).toBeVisible()
    await importButton.click()
    await expect(file).toBeFocused()

    await file.setInputFiles({
      name: 'keys.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('K-1'),
    })
    await page.getByLabel('Paste items').fill('K-2')
    await importButton.click()
    await expect(page.getByText('Paste lines or choose a file, not both')).toBeVisible()

    // The server checks the same rules by itself.
    const post = (
      multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>,
    ) => page.request.post(`/admin/products/${product.id}/stock`, { multipart })
    const tooLarge = await post({
      intent: 'import',
      file: {
        name: 'huge.txt',
        mimeType: 'text/plain',
        buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 'a'),
      },
    })
    expect(tooLarge.status()).toBe(413)
    expect(await tooLarge.text()).toContain('Imports are limited to 5 MB at a time.')
    const wrongType = await post({
      intent: 'import',
      file: { name: 'keys.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('K-1') },
    })
    expect(wrongType.status()).toBe(400)
    expect(await wrongType.text()).toContain('Choose a .txt or .csv file')
    const binary = await post({
      intent: 'import',
      file: {
        name: 'keys.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from([0xff, 0xfe, 0x00, 0x41]),
      },
    })
    expect(binary.status()).toBe(400)
    expect(await binary.text()).toContain('The file is not UTF-8 text.')
    const badCsv = await post({
      intent: 'import',
      file: { name: 'keys.csv', mimeType: 'text/csv', buffer: Buffer.from('email,email\na,b\n') },
    })
    expect(badCsv.status()).toBe(400)
    expect(await badCsv.text()).toContain(
      'The first line of a CSV file must name each column once, such as email,password,note',
    )
    // A quote left open would swallow every later row into one value: the whole file is refused.
    const openQuote = await post({
      intent: 'import',
      file: {
        name: 'accounts.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('email,password\na@x.in,one\nb@x.in,"two\nc@x.in,three\n'),
      },
    })
    expect(openQuote.status()).toBe(400)
    expect(await openQuote.text()).toContain('opens a quoted value that is never closed')
    // Nothing was added by any of them.
    const count = await db
      .selectFrom('stockItem')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('productId', '=', product.id)
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(0)
  })

  test('works without JavaScript: import, and revoke asks on the page', async ({
    browser,
    app,
  }) => {
    const product = await manualProduct('Plain Form Stock Key')
    const { context, page } = await logInWithoutJavaScript(browser, app.url)
    await page.goto(`/admin/products/${product.id}/stock`)
    await page.getByLabel('Paste items').fill('PLAIN-KEY-0001\nPLAIN-KEY-0002\nbad\u0007line')
    await page.getByRole('button', { name: 'Import items' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Import finished' })).toContainText(
      '2 added, 0 duplicates skipped, 1 invalid (line 3)',
    )
    await expectFigures(page, { Available: 2 })

    await page
      .getByRole('button', { name: /^Revoke item / })
      .first()
      .click()
    const question = page.getByRole('region', { name: 'Revoke item' })
    await expect(question).toContainText('Revoke this item? It will never be sold')
    await question.getByRole('button', { name: 'Revoke' }).click()
    await expect(page.getByText('Item revoked. It will never be sold.')).toBeVisible()
    await expectFigures(page, { Available: 1, Revoked: 1 })
    await context.close()
  })

  test('the stock page and the delivery section have no serious accessibility violation, in both themes', async ({
    page,
    app,
  }) => {
    // Eight pages through axe: more than the default 45 s on a busy two-core machine.
    test.setTimeout(150_000)
    const product = await manualProduct('Axe Check Stock Key')
    await db
      .updateTable('product')
      .set({ deliveryMode: 'stock' })
      .where('id', '=', product.id)
      .execute()
    await logIn(page)
    await gotoHydrated(page, `/admin/products/${product.id}/stock`)
    await page.getByLabel('Paste items').fill('AXE-KEY-0001\nAXE-KEY-0002')
    await page.getByRole('button', { name: 'Import items' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Import finished' })).toBeVisible()
    for (const theme of ['light', 'dark'] as const) {
      await page.context().addCookies([{ name: 'theme', value: theme, url: app.url }])
      for (const url of [
        `/admin/products/${product.id}/stock`,
        `/admin/products/${product.id}/stock?status=revoked`,
        `/admin/products/edit/${product.id}`,
        '/admin/products/no-such-product/stock',
      ]) {
        await gotoHydrated(page, url)
        await expect(page.locator('html')).toHaveClass(theme)
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
        if (url.includes('/edit/')) await page.getByRole('radio', { name: 'Shared secret' }).check()
        expect(await seriousViolations(page), `${theme} ${url}`).toEqual([])
      }
    }
  })
})

test('shows stock dates in the time zone chosen in Settings', async ({ page, app }) => {
  const product = await manualProduct('Time Zone Check Key')
  const added = new Date('2026-03-01T02:30:00.000Z')
  await importStock(db, {
    productId: product.id,
    content: 'TZ-CHECK-KEY-1',
    format: 'lines',
    appSecret: fs.readFileSync(path.join(app.dataDir, 'secret'), 'utf8').trim(),
    now: added,
  })
  await updateSiteSettings(db, { timezone: 'America/New_York' })
  try {
    await logIn(page)
    await page.goto(`/admin/products/${product.id}/stock`)
    // 02:30 UTC on 1 March is the evening of 28 February in New York (08:00 on 1 March in India).
    const shown = shopDateTime('America/New_York').format(added)
    expect(shown).toContain('28 Feb 2026')
    await expect(page.getByRole('table').getByText(`Added ${shown}`)).toBeVisible()
  } finally {
    await updateSiteSettings(db, { timezone: 'Asia/Kolkata' })
  }
})

test('skips the items another product holds and names it', async ({ page, app }) => {
  const source = await manualProduct('Elsewhere Office Suite')
  const target = await manualProduct('Elsewhere Office Suite Copy')
  await db
    .updateTable('product')
    .set({ deliveryMode: 'stock' })
    .where('id', 'in', [source.id, target.id])
    .execute()
  await importStock(db, {
    productId: source.id,
    content: 'ELSEWHERE-KEY-1\nELSEWHERE-KEY-2',
    format: 'lines',
    appSecret: fs.readFileSync(path.join(app.dataDir, 'secret'), 'utf8').trim(),
  })
  await logIn(page)
  await gotoHydrated(page, `/admin/products/${target.id}/stock`)
  await page.getByLabel('Paste items').fill('ELSEWHERE-KEY-2\nELSEWHERE-KEY-3')
  await page.getByRole('button', { name: 'Import items' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Import finished' })).toContainText(
    '1 skipped: already in stock under Elsewhere Office Suite (line 1)',
  )
  await expectFigures(page, { Available: 1 })
  // Only one item again: nothing added, and the refusal says why.
  await page.getByLabel('Paste items').fill('ELSEWHERE-KEY-1')
  await page.getByRole('button', { name: 'Import items' }).click()
  await expect(
    page.getByText(
      'Nothing was added. 1 item skipped: line 1 is already in stock under Elsewhere Office Suite (each item is sold to one buyer only).',
    ),
  ).toBeVisible()
  await expectFigures(page, { Available: 1 })
  if (process.env.STOCK_SCREENSHOTS)
    for (const width of [390, 1280])
      for (const theme of ['light', 'dark'] as const) {
        await page.context().addCookies([{ name: 'theme', value: theme, url: app.url }])
        await page.setViewportSize({ width, height: 900 })
        await gotoHydrated(page, `/admin/products/${target.id}/stock`)
        await page.getByLabel('Paste items').fill(`ELSEWHERE-KEY-1\nNEW-KEY-${width}-${theme}`)
        await page.getByRole('button', { name: 'Import items' }).click()
        await expect(page.getByRole('status').filter({ hasText: 'Import finished' })).toBeVisible()
        await page.screenshot({
          path: path.join(process.env.STOCK_SCREENSHOTS, `elsewhere-${width}-${theme}.png`),
          fullPage: true,
        })
      }
})

/** Screenshots for review: the stock page and the form's Delivery section, 390 and 1280 px, both themes. */
test('screenshots of the stock page and the delivery section', async ({ page, app }) => {
  test.skip(!process.env.STOCK_SCREENSHOTS, 'set STOCK_SCREENSHOTS=dir to write them')
  test.setTimeout(600_000)
  const dir = process.env.STOCK_SCREENSHOTS!
  fs.mkdirSync(dir, { recursive: true })
  const product = await manualProduct('Screenshot Suite Pro 1 Year')
  const shared = await manualProduct('Screenshot Shared Family Plan')
  const few = await manualProduct('Screenshot Few Left Key')
  const none = await manualProduct('Screenshot Sold Out Key')
  await db
    .updateTable('product')
    .set({ deliveryMode: 'stock' })
    .where('id', 'in', [product.id, few.id, none.id])
    .execute()
  await importStock(db, {
    productId: few.id,
    content: 'FEW-1\nFEW-2\nFEW-3',
    format: 'lines',
    appSecret: fs.readFileSync(path.join(app.dataDir, 'secret'), 'utf8').trim(),
  })
  await logIn(page)
  await gotoHydrated(page, `/admin/products/${product.id}/stock`)
  await page
    .getByLabel('Paste items')
    .fill(
      Array.from({ length: 60 }, (_, i) => `SUITE-PRO-${String(i).padStart(4, '0')}-XKQZ`).join(
        '\n',
      ),
    )
  await page.getByRole('button', { name: 'Import items' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Import finished' })).toBeVisible()
  await revokeFirstAvailable(page)
  for (const theme of ['light', 'dark'] as const) {
    await page.context().addCookies([{ name: 'theme', value: theme, url: app.url }])
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      const shot = (name: string, fullPage = false) =>
        page.screenshot({ path: path.join(dir, `${name}-${width}-${theme}.png`), fullPage })
      await gotoHydrated(page, `/admin/products/${product.id}/stock`)
      await page
        .getByLabel('Paste items')
        .fill(`SUITE-PRO-0001-XKQZ\nNEW-KEY-${theme}-${width}\nbad\u0007`)
      await page.getByRole('button', { name: 'Import items' }).click()
      await expect(page.getByRole('status').filter({ hasText: 'Import finished' })).toBeVisible()
      await shot('stock', true)
      await page
        .getByRole('button', { name: /^Revoke item / })
        .first()
        .click()
      await expect(page.getByRole('alertdialog', { name: 'Revoke item' })).toBeVisible()
      await shot('stock-revoke-dialog')
      await page.keyboard.press('Escape')
      await gotoHydrated(page, `/admin/products/${shared.id}/stock`)
      await page.getByRole('button', { name: 'Import items' }).click()
      await shot('stock-manual-empty', true)
      await gotoHydrated(page, `/admin/products/edit/${shared.id}`)
      await page.getByRole('radio', { name: 'Shared secret' }).check()
      await page.getByRole('heading', { name: 'Delivery' }).scrollIntoViewIfNeeded()
      await shot('form-delivery')
      await page.getByRole('button', { name: 'Update Product' }).click()
      await page.getByRole('heading', { name: 'Delivery' }).scrollIntoViewIfNeeded()
      await shot('form-delivery-error')
      await gotoHydrated(page, `/admin/products/edit/${product.id}`)
      await page.getByRole('heading', { name: 'Delivery' }).scrollIntoViewIfNeeded()
      await shot('form-delivery-stock')
      await page.goto(`/admin/products?q=Screenshot`)
      await shot('list')
      if (width === 390) {
        await page
          .getByRole('heading', { name: 'Screenshot Few Left Key' })
          .scrollIntoViewIfNeeded()
        await shot('list-rows')
      }
      await page.goto(`/product/${few.slug}`)
      await shot('product-few-left')
      await page.goto(`/product/${none.slug}`)
      await shot('product-sold-out')
    }
  }
})
