import { describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { serveTestDb } from '../../../tests/helpers/route-render'
import { makeCustomer } from '../../../tests/factories'
import { SET_PASSWORD_MESSAGES } from '~/services/account-settings.server'
import { hasPassword } from '~/services/auth.server'
import { action } from './settings'

/**
 * The Settings page's "Set a password" form (its action, as the server runs it) for an account
 * without a password: a post without a recent sign-in is refused in the form, with the way to
 * sign in again. requireUser answers with this file's customer; the request carries no session,
 * as a session opened long ago counts for nothing more (app/services/account-settings.db.test.ts
 * tests the sessions themselves).
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requireUser: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
serveTestDb(t, {
  env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: 'x'.repeat(32), ADMIN_EMAILS: [] },
})

describe(`the Set a password form (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('answers 403 with the message and the way to sign in again; no password is set', async () => {
    const customer = await makeCustomer(t.db, { email: 'left.open@example.in' })
    signedIn.user = { id: customer.id, email: customer.email }
    const request = new Request('https://shop.example.in/dashboard/settings', {
      method: 'POST',
      body: new URLSearchParams({
        intent: 'password',
        password: 'first-secret',
        confirmPassword: 'first-secret',
      }),
    })
    const answer = (await action({ request, params: {}, context: {} } as never)) as unknown as {
      init: { status: number }
      data: { intent: string; signInAgain?: unknown; result: { error?: Record<string, unknown> } }
    }
    expect(answer.init.status).toBe(403)
    expect(answer.data.intent).toBe('password')
    // No Google sign-in configured here: the mailed link is offered.
    expect(answer.data.signInAgain).toEqual({ google: false })
    expect(answer.data.result.error?.['']).toEqual([SET_PASSWORD_MESSAGES.mailedLink])
    expect(await hasPassword(t.db, customer.id)).toBe(false)
  })
})
