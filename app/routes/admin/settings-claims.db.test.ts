import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import {
  pageText as text,
  postForRedirect,
  renderPage,
  serveTestDb,
} from '../../../tests/helpers/route-render'
import { makeAdmin, makeProduct } from '../../../tests/factories'
import { listAuditEntries } from '~/data/audit.server'
import { readPageCacheVersion } from '~/data/page-cache-version.server'
import {
  forgetCachedSettings,
  readSiteSettings,
  SITE_SETTING_DEFAULTS,
  updateSiteSettings,
} from '~/data/settings.server'
import { CLAIM_SETTING_DEFAULTS, storefrontClaims } from '~/lib/claims'
import { createLocalStorage } from '~/lib/storage.server'
import { SETTINGS_SAVE_FAILED } from '~/lib/validation/settings'
import { settingsVersion } from '~/services/settings.server'
import { loader as homeLoader, meta as homeMeta } from '../shop/home'
import { loader as productLoader } from '../shop/product'
import AdminSettings, { action, loader } from './settings'

/**
 * The Storefront claims tab of /admin/settings through the real database: the defaults are the
 * spec's figures, a save reaches the home and product pages' loaders (and raises the page
 * cache's version), and a refused field saves nothing (docs/settings.md, "Storefront claims").
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requireShopConfiguration: vi.fn(async () => signedIn.user),
}))
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getUser: vi.fn(async () => null),
}))

const t = fileTestDb()
const PUBLIC_URL = 'https://shop.example.in'
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-claims-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
serveTestDb(t, {
  env: { PUBLIC_URL, APP_SECRET: 'x'.repeat(32), DATA_DIR: dataDir },
  storage: createLocalStorage(path.join(dataDir, 'uploads')),
})
let productSlug = ''
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageUsers: true } }
  productSlug = (await makeProduct(t.db, { title: 'Claims Test Product' })).slug
})

/** The tab's form as it opens on a fresh shop. */
const FORM = {
  claimCustomers: '10,000+',
  claimCustomersLabel: 'Happy customers',
  claimServices: '50+',
  claimServicesLabel: 'Premium services',
  claimRating: '4.9',
  claimRatingLabel: 'Customer rating',
  claimSupport: '24/7',
  claimSupportLabel: 'Support',
  claimDeliveryMinutes: '5',
  exampleBundle: 'on',
  exampleBundlePrice: '2999',
  exampleBundleOriginalPrice: '15999',
}

const ROUTE = { id: 'routes/admin/settings', path: '/admin/settings', Component: AdminSettings }

async function shownNow() {
  return settingsVersion(await readSiteSettings(t.db), 'storefront')
}

async function post(form: Record<string, string>) {
  return renderPage(
    { ...ROUTE, loader, action },
    new Request(`${PUBLIC_URL}/admin/settings?tab=storefront`, {
      method: 'POST',
      body: new URLSearchParams({ tab: 'storefront', version: await shownNow(), ...form }),
    }),
    { clientIp: '203.0.113.9' },
  )
}

async function homeClaims() {
  const request = new Request(`${PUBLIC_URL}/`)
  const data = await homeLoader({ request, params: {}, context: {} } as never)
  return data.claims
}

async function productClaims() {
  const request = new Request(`${PUBLIC_URL}/product/${productSlug}`)
  const data = await productLoader({
    request,
    params: { slugOrId: productSlug },
    context: {},
  } as never)
  return data.claims
}

const textOfId = (html: string, id: string) =>
  text(new RegExp(`<(\\w+)[^>]*\\sid="${id}"[^>]*>(.*?)</\\1>`).exec(html)?.[2] ?? '').trim()
const tagWithId = (html: string, id: string) =>
  new RegExp(`<[^>]*\\sid="${id}"[^>]*>`).exec(html)?.[0] ?? ''

describe(`the storefront claims (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it("are the spec's figures on a fresh shop, and the Settings tab shows them with its limits", async () => {
    expect(await readSiteSettings(t.db)).toMatchObject(CLAIM_SETTING_DEFAULTS)
    const spec = {
      customers: { value: '10,000+', label: 'Happy customers' },
      services: { value: '50+', label: 'Premium services' },
      rating: { value: '4.9', label: 'Customer rating' },
      support: { value: '24/7', label: 'Support' },
      deliveryMinutes: 5,
      bundle: { price: 299_900, originalPrice: 1_599_900 },
    }
    expect(await homeClaims()).toEqual(spec)
    expect(await productClaims()).toEqual(spec)

    const { html, status } = await renderPage(
      { ...ROUTE, loader },
      new Request(`${PUBLIC_URL}/admin/settings?tab=storefront`),
    )
    expect(status).toBe(200)
    expect(text(html)).toContain('A figure takes at most 20 characters, a label at most 40.')
    const customers = tagWithId(html, 'settings-storefront-claimCustomers')
    expect(customers).toContain('value="10,000+"')
    expect(customers).toContain('maxLength="20"')
    expect(tagWithId(html, 'settings-storefront-claimCustomersLabel')).toContain('maxLength="40"')
    expect(tagWithId(html, 'settings-storefront-exampleBundlePrice')).toContain('value="2999"')
    expect(tagWithId(html, 'settings-storefront-exampleBundleOriginalPrice')).toContain(
      'value="15999"',
    )
  })

  it('saves changed and hidden claims, which the home and product pages show at once', async () => {
    const cacheBefore = await readPageCacheVersion(t.db)
    const response = await postForRedirect(action, `${PUBLIC_URL}/admin/settings`, {
      tab: 'storefront',
      version: await shownNow(),
      ...FORM,
      claimCustomers: '1,200+',
      claimCustomersLabel: 'Orders delivered',
      claimRating: '',
      claimDeliveryMinutes: '',
      exampleBundle: '',
      exampleBundlePrice: '999',
      exampleBundleOriginalPrice: '1999.50',
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe('/admin/settings?tab=storefront')
    expect(await readSiteSettings(t.db)).toMatchObject({
      claimCustomers: '1,200+',
      claimCustomersLabel: 'Orders delivered',
      claimRating: '',
      claimDeliveryMinutes: 0,
      exampleBundle: false,
      exampleBundlePrice: 99_900,
      exampleBundleOriginalPrice: 199_950,
    })
    // Anonymous pages cached before the save are dropped (docs/page-cache.md).
    expect(await readPageCacheVersion(t.db)).toBeGreaterThan(cacheBefore)
    const { entries } = await listAuditEntries(t.db, { targetType: 'settings' })
    expect(entries[0]).toMatchObject({
      action: 'settings.update',
      targetId: 'storefront',
      changes: expect.objectContaining({
        claimCustomers: { before: '10,000+', after: '1,200+' },
        claimRating: { before: '4.9', after: '' },
        exampleBundle: { before: true, after: false },
      }),
    })

    const changed = {
      customers: { value: '1,200+', label: 'Orders delivered' },
      services: { value: '50+', label: 'Premium services' },
      rating: null,
      support: { value: '24/7', label: 'Support' },
      deliveryMinutes: null,
      bundle: null,
    }
    expect(await homeClaims()).toEqual(changed)
    expect(await productClaims()).toEqual(changed)
    // The home page's description for search results says only what is claimed.
    const tags = homeMeta({ data: { claims: changed }, matches: [] } as never) as Array<
      Record<string, string>
    >
    expect(tags.find((tag) => tag.name === 'description')?.content).toBe(
      'Premium subscriptions and software licences at up to 80% off, with 24/7 WhatsApp support.',
    )
    await updateSiteSettings(t.db, { ...CLAIM_SETTING_DEFAULTS })
  })

  it('answers bad input with a message on each field and saves nothing', async () => {
    const before = await readSiteSettings(t.db)
    const { html, status } = await post({
      ...FORM,
      claimServices: 'x'.repeat(21),
      claimSupportLabel: '',
      claimRating: '4.95',
      claimDeliveryMinutes: 'soon',
      exampleBundlePrice: '15999',
    })
    expect(status).toBe(400)
    expect(text(html)).toContain(SETTINGS_SAVE_FAILED)
    const error = (field: string) => textOfId(html, `settings-storefront-${field}-error`)
    expect(error('claimServices')).toBe('A figure must be at most 20 characters')
    expect(error('claimSupportLabel')).toBe(
      'Enter the label shown under the figure, or empty the figure to hide the claim',
    )
    expect(error('claimRating')).toBe(
      'Enter a rating from 1 to 5 with at most one decimal (e.g. 4.7), or leave it empty',
    )
    expect(error('claimDeliveryMinutes')).toBe(
      'Enter whole minutes from 1 to 1440 (e.g. 5), or leave it empty',
    )
    expect(error('exampleBundlePrice')).toBe('The bundle price must be below the original price')
    expect(tagWithId(html, 'settings-storefront-exampleBundlePrice')).toContain(
      'aria-invalid="true"',
    )
    expect(await readSiteSettings(t.db)).toEqual(before)

    const zero = await post({ ...FORM, exampleBundleOriginalPrice: '0' })
    expect(zero.status).toBe(400)
    expect(textOfId(zero.html, 'settings-storefront-exampleBundleOriginalPrice-error')).toBe(
      'Enter the original price in rupees, above 0 (e.g. 15999)',
    )
    expect(await readSiteSettings(t.db)).toEqual(before)
  })

  it('are checked by the store too, and a bad stored row reads as its default', async () => {
    const before = await readSiteSettings(t.db)
    await expect(
      updateSiteSettings(t.db, {
        exampleBundlePrice: 200_000,
        exampleBundleOriginalPrice: 100_000,
      }),
    ).rejects.toThrow(/below its original price/)
    await expect(updateSiteSettings(t.db, { exampleBundlePrice: 100_000 })).rejects.toThrow(
      /both prices/,
    )
    await expect(updateSiteSettings(t.db, { claimRating: '9' })).rejects.toThrow()
    await expect(updateSiteSettings(t.db, { claimCustomers: 'x'.repeat(21) })).rejects.toThrow()
    expect(await readSiteSettings(t.db)).toEqual(before)

    await t.db
      .insertInto('siteSetting')
      .values({ key: 'claimRating', value: '"ten"', updatedAt: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: '"ten"' }))
      .execute()
    forgetCachedSettings(t.db)
    expect((await readSiteSettings(t.db)).claimRating).toBe(SITE_SETTING_DEFAULTS.claimRating)
    expect(storefrontClaims(await readSiteSettings(t.db)).rating?.value).toBe('4.9')
  })
})
