import { beforeAll, describe, expect, it, vi } from 'vitest'
import { data } from 'react-router'
import { fileTestDb } from '../../../tests/helpers/db'
import {
  pageText as text,
  postForRedirect,
  renderPage,
  serveTestDb,
} from '../../../tests/helpers/route-render'
import { makeAdmin } from '../../../tests/factories'
import { getSiteSettings, readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import {
  SETTINGS_FORM_EXPIRED,
  SETTINGS_SAVE_FAILED,
  SETTINGS_STALE,
  type SettingsTab,
} from '~/lib/validation/settings'
import { settingsVersion } from '~/services/settings.server'
import AdminSettings, { action, loader } from './settings'

/**
 * /admin/settings as the server answers it: a tab's form posted to the action, and the page it
 * renders with the action's answer, so a refused field shows its message on that field (wired
 * to the control with aria-invalid and aria-describedby, docs/settings.md). Signing in is not
 * what is tested here: the permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requireShopConfiguration: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
const PUBLIC_URL = 'https://shop.example.in'
serveTestDb(t, { env: { PUBLIC_URL, APP_SECRET: 'x'.repeat(32) } })
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageUsers: true } }
})

const ROUTE_ID = 'routes/admin/settings'

/** What the tab's form carries of the settings as stored now: a page opened just now. */
async function shownNow(tab: SettingsTab) {
  return settingsVersion(await readSiteSettings(t.db), tab)
}

/** The page after `form` is posted to the tab's URL, rendered on the server. */
async function post(
  tab: SettingsTab,
  form: Record<string, string>,
  pageAction: (args: never) => unknown = action,
) {
  return renderPage(
    { id: ROUTE_ID, path: '/admin/settings', Component: AdminSettings, loader, action: pageAction },
    new Request(`${PUBLIC_URL}/admin/settings?tab=${tab}`, {
      method: 'POST',
      body: new URLSearchParams({ tab, version: await shownNow(tab), ...form }),
    }),
    { clientIp: '203.0.113.9' },
  )
}

/** The action's redirect after `form` is saved from a page showing the tab as stored now. */
async function save(tab: SettingsTab, form: Record<string, string>) {
  return postForRedirect(action, `${PUBLIC_URL}/admin/settings`, {
    tab,
    version: await shownNow(tab),
    ...form,
  })
}

/** The opening tag of the element with this id. */
const tagWithId = (html: string, id: string) =>
  new RegExp(`<[^>]*\\sid="${id}"[^>]*>`).exec(html)?.[0]
/** The text of the element with this id. */
const textOfId = (html: string, id: string) =>
  text(new RegExp(`<(\\w+)[^>]*\\sid="${id}"[^>]*>(.*?)</\\1>`).exec(html)?.[2] ?? '').trim()
const attribute = (tag: string | undefined, name: string) =>
  tag ? new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] : undefined

/** The ids a control's aria-describedby names. */
const describedBy = (html: string, id: string) =>
  (attribute(tagWithId(html, id), 'aria-describedby') ?? '').split(/\s+/).filter(Boolean)

const NOTIFICATIONS = { alertRecipients: '', lowStockThreshold: '5', enableNotifications: 'on' }
const SYSTEM = { currency: 'USD', currencyRate: '83.50', timezone: 'Asia/Kolkata', language: 'en' }

describe(`the admin Settings page (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('shows a refused alert recipient on its field, naming it, and saves nothing', async () => {
    const before = await readSiteSettings(t.db)
    const { html, status } = await post('notifications', {
      ...NOTIFICATIONS,
      alertRecipients: 'owner@shop.in, ops@shop.in.',
    })
    expect(status).toBe(400)
    expect(text(html)).toContain(SETTINGS_SAVE_FAILED)
    const field = 'settings-notifications-alertRecipients'
    const textarea = tagWithId(html, field)
    expect(textarea).toMatch(/^<textarea/)
    expect(attribute(textarea, 'aria-invalid')).toBe('true')
    // The message first, then the field's hint, which stays under it.
    expect(describedBy(html, field)).toEqual([`${field}-error`, `${field}-hint`])
    expect(tagWithId(html, `${field}-hint`)).toBeDefined()
    expect(textOfId(html, `${field}-error`)).toBe(
      'Every recipient must be a valid e-mail address: "ops@shop.in." is not one',
    )
    // The form comes back as typed.
    expect(html).toContain('owner@shop.in, ops@shop.in.</textarea>')
    expect((await readSiteSettings(t.db)).alertRecipients).toEqual(before.alertRecipients)
  })

  it('saves valid alert recipients', async () => {
    const response = await save('notifications', {
      ...NOTIFICATIONS,
      alertRecipients: 'owner@shop.in; ops.team+alerts@mail.shop.co.in',
    })
    expect(response.status).toBe(303)
    expect((await readSiteSettings(t.db)).alertRecipients).toEqual([
      'owner@shop.in',
      'ops.team+alerts@mail.shop.co.in',
    ])
  })

  it('ignores the conversion rate for INR, as its hint says, and saves the rate as 1', async () => {
    await updateSiteSettings(t.db, { currency: 'USD', currencyRate: 83.5 })
    for (const currencyRate of ['', 'eighty', '-1']) {
      const response = await save('system', {
        ...SYSTEM,
        currency: 'INR',
        currencyRate,
      })
      expect(response.status).toBe(303)
      expect(response.headers.get('Location')).toBe('/admin/settings?tab=system')
      expect(await getSiteSettings(t.db)).toMatchObject({ currency: 'INR', currencyRate: 1 })
      await updateSiteSettings(t.db, { currency: 'USD', currencyRate: 83.5 })
    }
  })

  it('still asks for the rate of another currency, on its field', async () => {
    await updateSiteSettings(t.db, { currency: 'INR', currencyRate: 1 })
    const { html, status } = await post('system', { ...SYSTEM, currencyRate: '' })
    expect(status).toBe(400)
    const field = 'settings-system-currencyRate'
    expect(attribute(tagWithId(html, field), 'aria-invalid')).toBe('true')
    expect(textOfId(html, `${field}-error`)).toBe(
      'Enter the rupees one unit of the currency is worth, e.g. 83.50',
    )
    expect(await getSiteSettings(t.db)).toMatchObject({ currency: 'INR', currencyRate: 1 })

    // Reported together with another field's error, not one save later.
    const both = await post('system', { ...SYSTEM, currencyRate: '0', timezone: 'Mars/Olympus' })
    expect(textOfId(both.html, `${field}-error`)).toBe(
      'Enter the rupees one unit of the currency is worth, e.g. 83.50',
    )
    expect(textOfId(both.html, 'settings-system-timezone-error')).toBe(
      'Choose one of the listed time zones',
    )

    const saved = await save('system', {
      ...SYSTEM,
      currency: 'EUR',
      currencyRate: ' 90.25 ',
    })
    expect(saved.status).toBe(303)
    expect(await getSiteSettings(t.db)).toMatchObject({ currency: 'EUR', currencyRate: 90.25 })
  })

  it("links a checkbox's message to the checkbox", async () => {
    // The Notifications schema refuses no checkbox; an answer carrying a message about one shows
    // how the page presents it.
    const answer = () =>
      data(
        {
          result: {
            status: 'error' as const,
            initialValue: { tab: 'notifications', ...NOTIFICATIONS },
            error: { enableNotifications: ['Shop alerts cannot be turned off now'] },
          },
        },
        { status: 400 },
      )
    const { html } = await post('notifications', NOTIFICATIONS, answer as never)
    const field = 'settings-notifications-enableNotifications'
    const checkbox = tagWithId(html, field)
    expect(attribute(checkbox, 'type')).toBe('checkbox')
    expect(attribute(checkbox, 'aria-invalid')).toBe('true')
    expect(describedBy(html, field)).toEqual([`${field}-error`, `${field}-hint`])
    expect(textOfId(html, `${field}-error`)).toBe('Shop alerts cannot be turned off now')

    // Without a message: the hint only, and not invalid.
    const other = 'settings-notifications-expiryReminders'
    expect(attribute(tagWithId(html, other), 'aria-invalid')).toBeUndefined()
    expect(describedBy(html, other)).toEqual([`${other}-hint`])
    expect(tagWithId(html, `${other}-error`)).toBeUndefined()
  })

  it("refuses a save over another admin's newer one on the same tab, and keeps theirs", async () => {
    const GENERAL = { siteName: 'KeyBazaar', gstRate: '18', invoicePrefix: 'INV' }
    await updateSiteSettings(t.db, { siteName: 'KeyBazaar', siteDescription: 'Digital keys' })
    // This admin's page opens the General tab; another admin renames the shop meanwhile.
    const opened = await shownNow('general')
    await updateSiteSettings(t.db, { siteName: 'Deal Keys' })
    const { html, status } = await post('general', {
      ...GENERAL,
      version: opened,
      siteDescription: 'Keys, instantly',
    })
    expect(status).toBe(409)
    expect(text(html)).toContain(SETTINGS_STALE)
    // What this admin typed stays in the form, and nothing of it was saved.
    expect(html).toContain('Keys, instantly')
    expect(await readSiteSettings(t.db)).toMatchObject({
      siteName: 'Deal Keys',
      siteDescription: 'Digital keys',
    })

    // A save on another tab meanwhile stands in nobody's way.
    const openedNow = await shownNow('general')
    await updateSiteSettings(t.db, { theme: 'dark' })
    const saved = await postForRedirect(action, `${PUBLIC_URL}/admin/settings`, {
      tab: 'general',
      ...GENERAL,
      siteName: 'Deal Keys',
      version: openedNow,
      siteDescription: 'Keys, instantly',
    })
    expect(saved.status).toBe(303)
    expect(await readSiteSettings(t.db)).toMatchObject({
      siteName: 'Deal Keys',
      siteDescription: 'Keys, instantly',
    })
  })

  it('refuses a form without the version it showed (a page from an older release)', async () => {
    const before = await readSiteSettings(t.db)
    const { html, status } = await post('appearance', { theme: 'light', version: '' })
    expect(status).toBe(400)
    expect(text(html)).toContain(SETTINGS_FORM_EXPIRED)
    expect(await readSiteSettings(t.db)).toEqual(before)
  })
})
