import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, findUserByEmail, storedVerificationIdentifier } from '~/data/user.server'
import { createTestDb, type TestDb } from '../tests/helpers/db'
import * as hashTokens from './migrations/0060_hash_verification_tokens'
import * as confirmAccounts from './migrations/0061_confirm_existing_accounts'

/** The upgrade to hashed tokens and confirmed sign-ups, on data written before it. */
let t: TestDb
beforeAll(async () => {
  t = await createTestDb()
})
afterAll(async () => {
  await t.destroy()
})

describe(`account migrations (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('deletes plain-text reset tokens and keeps hashed ones and other rows', async () => {
    const now = new Date().toISOString()
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString()
    const row = (id: string, identifier: string) => ({
      id,
      identifier,
      value: 'user-1',
      expiresAt,
      createdAt: now,
      updatedAt: now,
    })
    await t.db
      .insertInto('verification')
      .values([
        row('plain', 'reset-password:a-plain-token-from-before'),
        row('hashed', storedVerificationIdentifier('reset-password:a-new-token')),
        row('state', storedVerificationIdentifier('oauth-state')),
      ])
      .execute()
    await hashTokens.up(t.db)
    const left = await t.db.selectFrom('verification').select('id').orderBy('id').execute()
    expect(left.map((r) => r.id)).toEqual(['hashed', 'state'])
  })

  it('counts accounts made before confirmation existed as confirmed', async () => {
    await createUser(t.db, { email: 'before@example.test', name: 'Before' })
    expect((await findUserByEmail(t.db, 'before@example.test'))?.emailVerified).toBe(false)
    await confirmAccounts.up(t.db)
    expect((await findUserByEmail(t.db, 'before@example.test'))?.emailVerified).toBe(true)
  })
})
