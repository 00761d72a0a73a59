import { describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { serveTestDb } from '../../../tests/helpers/route-render'
import { makeCustomer } from '../../../tests/factories'
import {
  isMailOptedOut,
  unsubscribeAddress,
  findStoredPreferences,
  savePreferences,
} from '~/data/preferences.server'
import { getUserProfile } from '~/data/user.server'
import { tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import type { Storage } from '~/lib/storage.server'
import { IMAGE_MESSAGES } from '~/lib/validation/product'
import sharp from 'sharp'
import { withinOneWindow } from '../../../tests/helpers/rate-limit'
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

/** Uploaded files kept in memory; `failing` makes every put throw (a full disk, the store down). */
const stored = new Map<string, Buffer>()
const storageState = { failing: false, puts: 0 }
const storage: Pick<Storage, 'put' | 'delete' | 'url'> = {
  async put(key, body) {
    storageState.puts++
    if (storageState.failing) throw new Error('ENOSPC: no space left on device')
    stored.set(key, body)
  },
  async delete(key) {
    stored.delete(key)
  },
  url: (key) => `/uploads/${key}`,
}

const t = fileTestDb()
serveTestDb(t, {
  env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: 'x'.repeat(32) },
  storage,
})

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

  it('keeps a theme or language changed in another tab since the page was opened', async () => {
    const customer = await makeCustomer(t.db, { email: 'two.tabs@example.in' })
    signedIn.user = { id: customer.id, email: customer.email }
    const shown = { themeShown: 'system', languageShown: 'en', notificationsShown: 'on' }
    // A first save from the page (system, English, mails on) of the switch only: the theme and
    // language are stored as the page showed them.
    await savePreferencesForm({ ...shown, theme: 'system', language: 'en' })
    expect(await findStoredPreferences(t.db, customer.id)).toEqual({
      theme: 'system',
      language: 'en',
      notifications: false,
    })
    await savePreferences(t.db, customer.id, { notifications: true })

    // Tab B: the header's theme switch saves Dark, and another page saves Hindi.
    await savePreferences(t.db, customer.id, { theme: 'dark', language: 'hi' })
    // Tab A, still showing System and English, unticks the mails only.
    const response = await savePreferencesForm({ ...shown, theme: 'system', language: 'en' })
    expect(await findStoredPreferences(t.db, customer.id)).toEqual({
      theme: 'dark',
      language: 'hi',
      notifications: false,
    })
    // The cookies this browser keeps say what is stored, not what the old page showed.
    const cookies = (response as { init: ResponseInit | null }).init?.headers as Headers
    expect(cookies.getSetCookie().join('; ')).toMatch(/dark/)

    // A field the reader did change is saved; the others stay.
    await savePreferencesForm({ ...shown, theme: 'light', language: 'en' })
    expect(await findStoredPreferences(t.db, customer.id)).toEqual({
      theme: 'light',
      language: 'hi',
      notifications: false,
    })
    await savePreferencesForm({ ...shown, theme: 'system', language: 'es', notifications: 'on' })
    expect(await findStoredPreferences(t.db, customer.id)).toEqual({
      theme: 'light',
      language: 'es',
      notifications: false,
    })
  })
})

/** Posts the photo form as the page would (multipart, the chosen file). */
async function uploadPhotoForm(bytes: Buffer) {
  const body = new FormData()
  body.set('intent', 'photo')
  body.set('photo', new File([new Uint8Array(bytes)], 'me.png', { type: 'image/png' }))
  const request = new Request('https://shop.example.in/dashboard/settings', {
    method: 'POST',
    body,
  })
  return (await action({ request, params: {}, context: {} } as never)) as unknown as {
    data: { result: { error?: Record<string, string[] | null> }; message?: string }
    init: { status?: number; headers?: HeadersInit } | null
  }
}

const smallPhoto = () =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: '#3355aa' } })
    .png()
    .toBuffer()

describe(`the photo form (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('takes 10 uploads an hour from one customer; the 11th is refused before it is read', async () => {
    const customer = await makeCustomer(t.db, { email: 'many.photos@example.in' })
    signedIn.user = { id: customer.id, email: customer.email }
    const photo = await smallPhoto()
    await withinOneWindow('profilePhotoUser', 60_000)
    for (let i = 0; i < 10; i++) {
      const answer = await uploadPhotoForm(photo)
      expect(answer.init?.status ?? 200).toBe(200)
      expect(answer.data.message).toBe('Your photo has been updated.')
    }
    const kept = (await getUserProfile(t.db, customer.id))?.photo
    expect(kept).toMatch(/^\/uploads\/avatars\//)
    const putsBefore = storageState.puts

    const refused = await uploadPhotoForm(photo)
    expect(refused.init?.status).toBe(429)
    const retryAfter = Number(new Headers(refused.init?.headers).get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60 * 60)
    expect(refused.data.result.error?.photo).toEqual([tooManyAttemptsMessage(retryAfter)])
    expect(refused.data.message).toBeUndefined()
    // Nothing stored, the photo unchanged.
    expect(storageState.puts).toBe(putsBefore)
    expect((await getUserProfile(t.db, customer.id))?.photo).toBe(kept)
  })

  it('answers a storage failure with the upload message under the field, keeping the photo', async () => {
    const customer = await makeCustomer(t.db, { email: 'full.disk@example.in' })
    signedIn.user = { id: customer.id, email: customer.email }
    const photo = await smallPhoto()
    await uploadPhotoForm(photo)
    const previous = (await getUserProfile(t.db, customer.id))?.photo
    expect(previous).toMatch(/^\/uploads\/avatars\//)
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    storageState.failing = true
    try {
      const answer = await uploadPhotoForm(photo)
      expect(answer.init?.status).toBe(500)
      expect(answer.data.result.error?.photo).toEqual([IMAGE_MESSAGES.uploadFailed])
      expect(answer.data.message).toBeUndefined()
      expect(logged).toHaveBeenCalled()
    } finally {
      storageState.failing = false
      logged.mockRestore()
    }
    expect((await getUserProfile(t.db, customer.id))?.photo).toBe(previous)
    expect(stored.has(previous!.replace('/uploads/', ''))).toBe(true)
  })
})

describe(`the profile form (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  const saveName = (name: string) =>
    action({
      request: new Request('https://shop.example.in/dashboard/settings', {
        method: 'POST',
        body: new URLSearchParams({ intent: 'profile', name }),
      }),
      params: {},
      context: {},
    } as never) as unknown as Promise<{
      data: { result: { error?: Record<string, string[] | null> }; message?: string }
      init: { status?: number; headers?: HeadersInit } | null
    }>

  it('takes 20 name changes an hour from one customer; saving the same name is not one', async () => {
    const customer = await makeCustomer(t.db, { email: 'many.names@example.in', name: 'Name 0' })
    signedIn.user = { id: customer.id, email: customer.email }
    await withinOneWindow('profileNameUser', 60_000)
    for (let i = 1; i <= 20; i++) {
      const answer = await saveName(`Name ${i}`)
      expect(answer.init?.status ?? 200).toBe(200)
      expect(answer.data.message).toBe('Your name has been saved.')
    }
    // The name it has already: saved as before, nothing counted.
    expect((await saveName('Name 20')).data.message).toBe('Your name has been saved.')

    const refused = await saveName('Name 21')
    expect(refused.init?.status).toBe(429)
    const retryAfter = Number(new Headers(refused.init?.headers).get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(refused.data.result.error?.name).toEqual([tooManyAttemptsMessage(retryAfter)])
    expect((await getUserProfile(t.db, customer.id))?.name).toBe('Name 20')
  })
})
