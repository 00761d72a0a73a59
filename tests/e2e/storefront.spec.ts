import crypto from 'node:crypto'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { createDatabase } from '../../app/lib/db.server'
import {
  SETTINGS_RECHECK_MS,
  updateSiteSettings,
  type SiteSettings,
} from '../../app/data/settings.server'
import { startApp, type RunningApp } from '../helpers/app'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { expect, test } from '../helpers/csp'

/**
 * The storefront in a real browser against the production build with the demo
 * catalogue. Tests that change products run on their own server so the shared one stays as seeded.
 */

function openDb(app: RunningApp) {
  return createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
}

async function featuredTitles(app: RunningApp): Promise<string[]> {
  const db = openDb(app)
  try {
    const rows = await db.selectFrom('product').select('title').where('featured', '=', 1).execute()
    return rows.map((row) => row.title).sort()
  } finally {
    await db.destroy()
  }
}

interface NewProduct {
  title: string
  price: number
  originalPrice: number
  buyNowLink?: string | null
  deliveryTime?: string
  validity?: string
}

async function addProduct(app: RunningApp, product: NewProduct): Promise<string> {
  const db = openDb(app)
  const slug = product.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  const now = new Date().toISOString()
  try {
    await db
      .insertInto('product')
      .values({
        id: crypto.randomUUID(),
        title: product.title,
        slug,
        description: `${product.title} for testing.`,
        shortDescription: '',
        image: '',
        price: product.price,
        originalPrice: product.originalPrice,
        category: 'Software',
        featured: 0,
        inStock: 1,
        buyNowLink: product.buyNowLink ?? null,
        tags: '[]',
        validity: product.validity ?? '',
        deliveryTime: product.deliveryTime ?? '',
        features: '[]',
        metaTitle: '',
        metaDescription: '',
        keywords: '[]',
        createdAt: now,
        updatedAt: now,
      })
      .execute()
  } finally {
    await db.destroy()
  }
  return slug
}

async function setSettings(app: RunningApp, settings: Partial<SiteSettings>) {
  const db = openDb(app)
  try {
    // As the settings page saves: the version marker tells every process to reread them.
    await updateSiteSettings(db, settings)
  } finally {
    await db.destroy()
  }
  // Each process rechecks the marker at most this often (docs/settings.md).
  await new Promise((resolve) => setTimeout(resolve, SETTINGS_RECHECK_MS + 200))
}

function servicesSection(page: Page): Locator {
  return page.getByRole('region', { name: 'All Services' })
}

function cardTitles(section: Locator): Promise<string[]> {
  return section.getByRole('article').getByRole('heading', { level: 3 }).allTextContents()
}

/** Set on window before an action; still there after it means the page did not reload. */
async function markPage(page: Page) {
  await page.evaluate(
    () => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true),
  )
}
async function expectSameDocument(page: Page) {
  expect(
    await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
  ).toBe(true)
}

test.describe('home page', () => {
  test('shows the sections in the order of the spec, ending with the footer', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
    const headings = await page.getByRole('main').locator('h1, h2').allTextContents()
    expect(headings).toEqual([
      'Premium subscriptions at up to 80% off',
      'Featured Premium Services',
      'All Services',
      'How It Works',
      'Why Choose KeyBazaar',
      'Questions? We are on WhatsApp',
    ])
    const mainBox = await page.getByRole('main').boundingBox()
    const footerBox = await page.getByRole('contentinfo').boundingBox()
    expect(footerBox!.y).toBeGreaterThanOrEqual(mainBox!.y + mainBox!.height - 1)

    const process = page.getByRole('region', { name: 'How It Works' })
    await expect(process.getByRole('listitem')).toHaveText([
      /Choose Your Service/,
      /Make Payment/,
      /Get Instant Access/,
    ])
  })

  test('the hero makes the marketing claims of the spec, with the example bundle in rupees', async ({
    page,
  }) => {
    await page.goto('/')
    const hero = page.getByRole('region', { name: 'Premium subscriptions at up to 80% off' })
    await expect(hero.getByText('Instant delivery within 5 minutes')).toBeVisible()
    for (const claim of ['10,000+', '50+', '4.9', '24/7'])
      await expect(hero.getByText(claim, { exact: true })).toBeVisible()
    const bundle = hero.getByRole('complementary', { name: 'Example bundle' })
    await expect(bundle.getByText('₹2,999', { exact: true })).toBeVisible()
    await expect(bundle.getByText('₹15,999')).toBeVisible()
  })

  test('the featured section shows exactly the featured products', async ({ page, app }) => {
    await page.goto('/')
    const featured = page.getByRole('region', { name: 'Featured Premium Services' })
    expect((await cardTitles(featured)).sort()).toEqual(await featuredTitles(app))
  })

  test('category chips filter in the browser, are reflected in the URL and work from the keyboard', async ({
    page,
  }) => {
    await page.goto('/')
    const services = servicesSection(page)
    const all = (await cardTitles(services)).length
    await expect(services.getByRole('status')).toHaveText(`Showing all ${all} services`)
    const chips = services.getByRole('navigation', { name: 'Filter by category' })
    await markPage(page)

    await chips.getByRole('link', { name: 'Music', exact: true }).click()
    await expect(page).toHaveURL(/\?category=Music$/)
    await expect(chips.getByRole('link', { name: 'Music', exact: true })).toHaveAttribute(
      'aria-current',
      'true',
    )
    await expect(services.getByRole('status')).toHaveText(/^Showing 2 of \d+ services$/)
    await expect
      .poll(async () => (await cardTitles(services)).sort())
      .toEqual(['BeatBox HiFi 6 Months', 'TuneWave Premium Family 1 Year'])
    await expectSameDocument(page)

    // Keyboard: focus the Games chip and press Enter.
    await chips.getByRole('link', { name: 'Games', exact: true }).focus()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\?category=Games$/)
    // The URL changes before React commits the filtered list (navigations render in a
    // transition), so the cards are polled rather than read once.
    await expect
      .poll(async () => (await cardTitles(services)).sort())
      .toEqual(['GameHive Pass Ultimate 3 Months', 'Questline Royale Battle Pass'])
    await expectSameDocument(page)

    await chips.getByRole('link', { name: 'All', exact: true }).click()
    await expect(services.getByRole('status')).toHaveText(`Showing all ${all} services`)
    await expectSameDocument(page)
  })

  test('a shared filtered link is filtered on the server, comparing the category case-insensitively', async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/?category=wordpress%20themes')).text()
    expect(html).toContain('Divina Builder Theme Lifetime')
    expect(html).toMatch(/Showing 2 of \d+ services/)

    await page.goto('/?category=wordpress%20themes')
    const services = servicesSection(page)
    expect((await cardTitles(services)).sort()).toEqual([
      'Astrion Pro Theme Unlimited Sites',
      'Divina Builder Theme Lifetime',
    ])
    await expect(services.getByRole('link', { name: 'WordPress Themes' })).toHaveAttribute(
      'aria-current',
      'true',
    )
  })

  test('the search box filters by title, category and tag without reloading', async ({ page }) => {
    await page.goto('/')
    const services = servicesSection(page)
    const search = services.getByRole('searchbox', { name: 'Search services' })
    await markPage(page)

    await search.fill('vpn')
    await expect(page).toHaveURL(/\?q=vpn$/)
    await expect.poll(() => cardTitles(services)).toEqual(['ShieldLine VPN 2 Years'])

    await search.fill('anime') // a tag
    await expect.poll(() => cardTitles(services)).toEqual(['AnimeDen Plus 1 Year'])

    await search.fill('design tools') // a category
    await expect
      .poll(async () => (await cardTitles(services)).sort())
      .toEqual(['CanvasLab Pro 1 Year', 'VectorVibe Creative Suite 1 Year'])

    await search.fill('no such thing anywhere')
    await expect(services.getByText('No services match your filters.')).toBeVisible()
    await services.getByRole('link', { name: 'Clear filters' }).click()
    await expect(search).toHaveValue('')
    await expect(services.getByRole('status')).toHaveText(/^Showing all \d+ services$/)
    await expectSameDocument(page)
  })

  test('cards show rupee prices, a discount badge and View Details to the product page', async ({
    page,
  }) => {
    await page.goto('/')
    const card = servicesSection(page).getByRole('article', {
      name: 'StreamVerse Premium 12 Months',
    })
    await expect(card.getByText('₹1,499')).toBeVisible()
    await expect(card.locator('s')).toHaveText(/₹5,988/)
    await expect(card.getByText('75% OFF')).toBeVisible()
    await expect(card).toContainText('Rated 4.7 out of 5')
    // Decorative here (the title is next to it), so it has no role of its own.
    const image = card.locator('img')
    await expect(image).toHaveAttribute('alt', '')
    await expect(image).toHaveAttribute(
      'srcset',
      /\/images\/products\/demo_streamverse-premium-12-months\.webp\?w=320&v=\S+ 320w/,
    )
    await expect(image).toHaveAttribute('width', '640')
    await expect(image).toHaveAttribute('height', '480')
    await expect(image).toHaveAttribute('loading', 'lazy')
    await card.getByRole('link', { name: 'View Details' }).click()
    await expect(page).toHaveURL(/\/product\/streamverse-premium-12-months$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'StreamVerse Premium 12 Months',
    )
  })

  test('on a phone, every card shows its whole title and category', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/')
    const cards = servicesSection(page).getByRole('article')
    expect(await cards.count()).toBeGreaterThan(20)
    // Text cut by a line clamp or an ellipsis is taller or wider than the box that shows it.
    const cut = await cards.evaluateAll((all) =>
      all.flatMap((card) =>
        [...card.querySelectorAll<HTMLElement>('h3, .kb-card-meta > span:first-child')]
          .filter(
            (el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
          )
          .map((el) => el.textContent),
      ),
    )
    expect(cut).toEqual([])
  })
})

test.describe('header', () => {
  test('section links scroll on the home page, and from another page go home first', async ({
    page,
  }) => {
    await page.goto('/product/streamverse-premium-12-months')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'How It Works' }).click()
    await expect(page).toHaveURL(/\/#process$/)
    await expect(page.getByRole('heading', { name: 'How It Works' })).toBeInViewport()

    await nav.getByRole('link', { name: 'Support' }).click()
    await expect(page).toHaveURL(/\/#whatsapp$/)
    await expect(
      page.getByRole('heading', { name: 'Questions? We are on WhatsApp' }),
    ).toBeInViewport()

    await nav.getByRole('link', { name: 'Services' }).click()
    await expect(page).toHaveURL(/\/#services$/)
    await expect(page.getByRole('heading', { name: 'All Services' })).toBeInViewport()
  })

  test('offers Login and Sign up to visitors', async ({ page }) => {
    await page.goto('/')
    const header = page.getByRole('banner')
    await expect(header.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login')
    await expect(header.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup')
  })
})

test.describe('theme', () => {
  test('the server renders the theme from the cookie on the first byte', async ({ request }) => {
    const dark = await (await request.get('/', { headers: { Cookie: 'theme=dark' } })).text()
    expect(dark).toMatch(/<html lang="en-IN" class="dark"/)
    const light = await (
      await request.get('/product/streamverse-premium-12-months', {
        headers: { Cookie: 'theme=light' },
      })
    ).text()
    expect(light).toMatch(/<html lang="en-IN" class="light"/)
    // No choice yet: the shop's default (auto), which CSS resolves from the device setting.
    const none = await (await request.get('/')).text()
    expect(none).toMatch(/<html lang="en-IN" class="theme-system"/)
  })

  test('switching from the header applies at once and is remembered', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto('/')
    const html = page.locator('html')
    const group = page.getByRole('group', { name: 'Colour theme' })
    await markPage(page)

    await group.getByRole('button', { name: 'Dark theme' }).click()
    await expect(html).toHaveClass('dark')
    await expect(group.getByRole('button', { name: 'Dark theme' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await expect(html).toHaveCSS('color-scheme', 'dark')
    await expectSameDocument(page)

    const reloaded = await page.reload()
    expect(await reloaded!.text()).toMatch(/<html lang="en-IN" class="dark"/)
    await expect(html).toHaveClass('dark')

    // System follows the device: dark here once the device prefers dark.
    await group.getByRole('button', { name: 'System theme' }).click()
    await expect(html).toHaveClass('theme-system')
    await expect(html).toHaveCSS('color-scheme', 'light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect(html).toHaveCSS('color-scheme', 'dark')
  })

  test('switching works without JavaScript too', async ({ browser, app }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: app.url })
    const page = await context.newPage()
    await page.goto('/product/streamverse-premium-12-months')
    await page.getByRole('button', { name: 'Dark theme' }).click()
    await expect(page).toHaveURL(/\/product\/streamverse-premium-12-months$/)
    await expect(page.locator('html')).toHaveClass('dark')
    await context.close()
  })
})

test.describe('product page', () => {
  test('shows everything the spec lists', async ({ page }) => {
    await page.goto('/product/streamverse-premium-12-months')
    // The product itself: the Related products cards below it repeat categories and prices.
    const main = page
      .getByRole('main')
      .locator(':scope > :not([aria-labelledby="related-heading"])')
    await expect(page.getByRole('region', { name: 'You may also like' })).toBeVisible()
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(
      'StreamVerse Premium 12 Months',
    )
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
    await expect(main.getByRole('link', { name: 'Back to products' })).toHaveAttribute(
      'href',
      '/#services',
    )

    const image = main.getByRole('img', { name: 'StreamVerse Premium 12 Months' })
    await expect(image).toBeVisible()
    await expect(image).toHaveAttribute('loading', 'eager')
    await expect(image).toHaveAttribute(
      'src',
      /\/images\/products\/demo_streamverse-premium-12-months\.webp\?w=1200&v=\S+/,
    )
    await expect(main.getByText('75% OFF')).toBeVisible()

    await expect(main.getByText('Streaming', { exact: true })).toBeVisible()
    await expect(main.getByText('In Stock', { exact: true })).toBeVisible()
    // The rating of the demo seed's three reviews (5, 4 and 5 stars): app/services/seed/demo-reviews.ts.
    // Read out with its scale, as the reviews' stars are.
    const rating = main.getByRole('link', { name: /Rated 4\.7 out of 5/ })
    await expect(rating).toContainText('(3 reviews)')
    await expect(main.getByText('Ad-free 4K movies and series')).toBeVisible()
    await expect(main.getByText(/StreamVerse Premium unlocks the whole library/)).toBeVisible()
    await expect(main.getByRole('region', { name: 'Tags' }).getByRole('listitem')).toHaveText([
      '#streaming',
      '#movies',
      '#4k',
    ])

    const facts = main.getByRole('definition')
    await expect(facts).toHaveText(['Instant delivery', '12 months'])
    await expect(main.getByRole('term')).toHaveText(['Delivery', 'Validity'])

    await expect(main.getByText('₹1,499')).toBeVisible()
    await expect(main.locator('s')).toHaveText(/₹5,988/)
    await expect(main.getByText('Save 75%')).toBeVisible()

    // Checkout (the payment dialog) comes with the checkout issue at /checkout/{slug}.
    await expect(main.getByRole('link', { name: 'Buy Now' })).toHaveAttribute(
      'href',
      '/checkout/streamverse-premium-12-months',
    )

    await expect(main.getByRole('region', { name: 'Features' }).getByRole('listitem')).toHaveText([
      '4K Ultra HD and HDR',
      '4 screens at once',
      'Offline downloads',
      'Private profile with PIN',
    ])

    const why = main.getByRole('region', { name: 'Why choose KeyBazaar?' })
    for (const claim of [
      '10,000+',
      'Verified accounts',
      'Under 5 min',
      '4.9',
      '24/7',
      'WhatsApp support',
    ]) {
      await expect(why.getByText(claim, { exact: true })).toBeVisible()
    }
    const whatsapp = why.getByRole('link', { name: 'Ask on WhatsApp' })
    const href = await whatsapp.getAttribute('href')
    expect(href).toMatch(/^https:\/\/wa\.me\/919876543210\?text=/)
    expect(new URL(href!).searchParams.get('text')).toContain('StreamVerse Premium 12 Months')
    await expect(whatsapp).toHaveAttribute('target', '_blank')
    await expect(whatsapp).toHaveAccessibleName('Ask on WhatsApp (opens in a new tab)')
  })

  test('is also found by id', async ({ page, app }) => {
    const db = openDb(app)
    const row = await db
      .selectFrom('product')
      .select('id')
      .where('slug', '=', 'codenest-ide-pro-1-year')
      .executeTakeFirstOrThrow()
    await db.destroy()
    await page.goto(`/product/${row.id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('CodeNest IDE Pro 1 Year')
  })

  test('an out-of-stock product cannot be bought', async ({ page }) => {
    await page.goto('/product/chatmind-plus-1-month')
    const main = page.getByRole('main')
    await expect(main.getByRole('button', { name: 'Out of Stock' })).toBeDisabled()
    await expect(main.getByRole('link', { name: 'Buy Now' })).toHaveCount(0)
    await expect(main.getByText('Out of Stock', { exact: true }).first()).toBeVisible()
  })

  test('an unknown product answers 404 with Product not found and a way home', async ({ page }) => {
    const response = await page.goto('/product/no-such-product')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Product not found')
    await expect(page.getByRole('banner')).toBeVisible()
    await page.getByRole('link', { name: 'Go Back Home' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('heading', { name: 'Featured Premium Services' })).toBeVisible()
  })

  test('Share copies the link and says so in a toast that goes away by itself', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.goto('/product/streamverse-premium-12-months')
    await page.evaluate(() => {
      // Desktop Chromium on Linux has no share sheet; make sure the copy path runs.
      Object.defineProperty(navigator, 'share', { value: undefined })
    })
    await page.getByRole('button', { name: 'Share' }).click()
    const toast = page.getByText('Link copied')
    await expect(toast).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      /\/product\/streamverse-premium-12-months$/,
    )
    // Toasts dismiss themselves after 5000 ms.
    await expect(toast).toBeHidden({ timeout: 9000 })
  })
})

test.describe('with products changed in the database', () => {
  let shop: RunningApp
  test.beforeAll(async () => {
    shop = await startApp()
  })
  test.afterAll(async () => {
    await shop?.dispose()
  })

  test('a card shows the discount badge only when the rounded percent is above 0', async ({
    page,
  }) => {
    await addProduct(shop, { title: 'Zero Saving Pack', price: 50_000, originalPrice: 50_000 })
    // 0.1% off rounds to 0: no badge, but the struck-through price still shows the difference.
    await addProduct(shop, { title: 'Tiny Saving Pack', price: 99_900, originalPrice: 100_000 })
    await addProduct(shop, { title: 'Half Price Pack', price: 50_000, originalPrice: 100_000 })
    await page.goto(`${shop.url}/?q=pack`)
    const services = servicesSection(page)
    await expect(services.getByRole('article')).toHaveCount(3)
    await expect(
      services.getByRole('article', { name: 'Zero Saving Pack' }).getByText(/% OFF/),
    ).toHaveCount(0)
    await expect(
      services.getByRole('article', { name: 'Tiny Saving Pack' }).getByText(/% OFF/),
    ).toHaveCount(0)
    await expect(
      services.getByRole('article', { name: 'Half Price Pack' }).getByText('50% OFF'),
    ).toBeVisible()
    await expect(
      services.getByRole('article', { name: 'Zero Saving Pack' }).getByText('₹500'),
    ).toBeVisible()

    await page.goto(`${shop.url}/product/zero-saving-pack`)
    // The product itself, not the Related products cards below it.
    const product = page
      .getByRole('main')
      .locator(':scope > :not([aria-labelledby="related-heading"])')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Zero Saving Pack')
    await expect(product.getByText(/% OFF/)).toHaveCount(0)
    await expect(product.getByText(/^Save/)).toHaveCount(0)
  })

  test('empty delivery time and validity show Instant and 1 Year', async ({ page }) => {
    await addProduct(shop, { title: 'Plain Licence', price: 10_000, originalPrice: 20_000 })
    await page.goto(`${shop.url}/product/plain-licence`)
    await expect(page.getByRole('main').getByRole('definition')).toHaveText(['Instant', '1 Year'])
  })

  test('Buy Now opens the product buy-now link in a new tab', async ({ page, context }) => {
    const external = `${shop.url}/robots.txt`
    await addProduct(shop, {
      title: 'Partner Deal',
      price: 10_000,
      originalPrice: 30_000,
      buyNowLink: external,
    })
    await page.goto(`${shop.url}/product/partner-deal`)
    const buy = page.getByRole('link', { name: /Buy Now/ })
    await expect(buy).toHaveAttribute('target', '_blank')
    await expect(buy).toHaveAttribute('rel', /noopener/)
    const [opened] = await Promise.all([context.waitForEvent('page'), buy.click()])
    await expect(opened).toHaveURL(external)
    expect(page.url()).toBe(`${shop.url}/product/partner-deal`)
  })

  // Last in this group: it renames the shop.
  test('the site settings drive the name, contacts and WhatsApp links', async ({ page }) => {
    await setSettings(shop, {
      siteName: 'Chai Keys',
      siteDescription: 'Genuine licences for every desk in Pune.',
      contactEmail: 'help@chaikeys.example',
      phoneNumber: '+91 90000 11111',
      whatsappNumber: '919000011111',
      whatsappCommunityUrl: 'https://chat.whatsapp.com/chaikeys',
    })
    await page.goto(`${shop.url}/`)
    await expect(page.getByRole('banner').getByRole('link', { name: 'Chai Keys' })).toBeVisible()
    await expect(page).toHaveTitle(/^Chai Keys/)
    await expect(
      page.getByRole('main').getByText('Genuine licences for every desk in Pune.'),
    ).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Why Choose Chai Keys' })).toBeVisible()

    const footer = page.getByRole('contentinfo')
    await expect(footer.getByRole('link', { name: 'help@chaikeys.example' })).toHaveAttribute(
      'href',
      'mailto:help@chaikeys.example',
    )
    await expect(footer.getByRole('link', { name: '+91 90000 11111' })).toHaveAttribute(
      'href',
      'tel:+919000011111',
    )
    // Links that open a new tab say so to screen readers, as the order pages' do.
    await expect(
      footer.getByRole('link', { name: 'WhatsApp support (opens in a new tab)' }),
    ).toHaveAttribute('href', /^https:\/\/wa\.me\/919000011111\?text=/)

    const whatsapp = page.getByRole('region', { name: 'Questions? We are on WhatsApp' })
    const chat = await whatsapp.getByRole('link', { name: 'Chat on WhatsApp' }).getAttribute('href')
    expect(chat).toMatch(/^https:\/\/wa\.me\/919000011111\?text=/)
    expect(new URL(chat!).searchParams.get('text')).toBe(
      'Hi Chai Keys, I need help choosing a subscription. Can you help me?',
    )
    await expect(whatsapp.getByRole('link', { name: 'Join our community' })).toHaveAttribute(
      'href',
      'https://chat.whatsapp.com/chaikeys',
    )
    await expect(whatsapp.getByRole('link', { name: 'Chat on WhatsApp' })).toHaveAccessibleName(
      'Chat on WhatsApp (opens in a new tab)',
    )

    await page.goto(`${shop.url}/product/streamverse-premium-12-months`)
    const ask = await page.getByRole('link', { name: 'Ask on WhatsApp' }).getAttribute('href')
    expect(new URL(ask!).searchParams.get('text')).toBe(
      `Hi Chai Keys, I have a question about "StreamVerse Premium 12 Months" (${shop.url}/product/streamverse-premium-12-months).`,
    )
  })

  test("the home page's meta description is the shop's, cut to 160 characters, or ours when blank", async ({
    request,
  }) => {
    const description = async () => {
      const html = await (await request.get(`${shop.url}/`)).text()
      const tag = html.match(/<meta[^>]*name="description"[^>]*>/)?.[0]
      return tag?.match(/content="([^"]*)"/)?.[1]
    }
    await setSettings(shop, { siteDescription: `${'Genuine licences for every desk. '.repeat(9)}` })
    const long = await description()
    expect(long!.length).toBeLessThanOrEqual(160)
    expect(long).toMatch(/^Genuine licences for every desk\. .*…$/)
    await setSettings(shop, { siteDescription: '' })
    expect(await description()).toBe(
      'Premium subscriptions and software licences at up to 80% off, delivered within 5 minutes with 24/7 WhatsApp support.',
    )
  })
})

test.describe('a shop with no products yet', () => {
  let empty: RunningApp
  test.beforeAll(async () => {
    empty = await startApp({ env: { SEED_DEMO: '0' } })
  })
  test.afterAll(async () => {
    await empty?.dispose()
  })

  test('says there are no services yet instead of offering to clear filters', async ({ page }) => {
    await page.goto(`${empty.url}/`)
    const services = servicesSection(page)
    await expect(services.getByText('No services yet')).toBeVisible()
    await expect(services.getByText('Showing all 0 services')).toHaveCount(0)
    await expect(services.getByText('No services match your filters.')).toHaveCount(0)
    await expect(services.getByRole('link', { name: 'Clear filters' })).toHaveCount(0)
    await screenshotWidthsAndThemes(page, 'empty-catalogue')
    // The footer's Featured services still lands somewhere: just above All Services.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Featured services' }).click()
    await expect(page).toHaveURL(`${empty.url}/#featured`)
    await expect(page.locator('#featured')).toHaveCount(1)
    await expect(services.getByRole('heading', { name: 'All Services' })).toBeInViewport()
  })
})
