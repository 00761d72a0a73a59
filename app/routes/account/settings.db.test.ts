import { describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { serveTestDb } from '../../../tests/helpers/route-render'
import { makeCustomer } from '../../../tests/factories'
import {
  isMailOptedOut,
  unsubscribeAddress,
  findStoredPreferences,
} from '~/data/preferences.server'
import { action } from './settings'

/**
 * The Settings page's preferences form (its action, as the server runs it): the "E-mail me
 * reminders and offers" switch is saved only when the reader changed it from what the page
 * showed, so a page opened before an unsubscribe link was used does not undo the unsubscribe.
 * Signing in is not what is tested here: requireUser answers with this file's customer.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requireUser: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
serveTestDb(t, { env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: 'x'.repeat(32) } })

/** Posts the preferences form as the page would, with what it showed. */
function savePreferencesForm(fields: Record<string, string>) {
  const request = new Request('https://shop.example.in/dashboard/settings', {
    method: 'POST',
    body: new URLSearchParams({ intent: 'preferences', theme: 'dark', language: 'en', ...fields }),
  })
  return action({ request, params: {}, context: {} } as never)
}

describe(`the preferences form (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('keeps an unsubscribe made after the page was opened; a change of the switch is saved', async () => {
    const customer = await makeCustomer(t.db, { email: 'stale.tab@example.in' })
    signedIn.user = { id: customer.id, email: customer.email }
    // The page showed the switch on; then the reader used the unsubscribe link in a mail.
    await unsubscribeAddress(t.db, customer.email, 'offers')
    await savePreferencesForm({ notifications: 'on', notificationsShown: 'on' })
    expect(await isMailOptedOut(t.db, customer.email)).toBe(true)
    expect(await findStoredPreferences(t.db, customer.id)).toMatchObject({
      theme: 'dark',
      notifications: false,
    })

    // The reader turns it on from a page that showed it off: that is a change, and it is saved.
    await savePreferencesForm({ notifications: 'on', notificationsShown: 'off' })
    expect(await isMailOptedOut(t.db, customer.email)).toBe(false)
    expect(await findStoredPreferences(t.db, customer.id)).toMatchObject({ notifications: true })

    // Turning it off from a page that showed it on.
    await savePreferencesForm({ notificationsShown: 'on' })
    expect(await findStoredPreferences(t.db, customer.id)).toMatchObject({ notifications: false })
  })
})
