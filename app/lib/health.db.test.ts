import { describe, expect, it } from 'vitest'
import { createTestDb } from '../../tests/helpers/db'
import { databaseAnswers } from './health.server'

describe(`database health (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('is healthy while the database answers, and unhealthy once it does not', async () => {
    const t = await createTestDb({ migrate: false })
    expect(await databaseAnswers(t.db)).toBe(true)
    await t.destroy()
    expect(await databaseAnswers(t.db)).toBe(false)
  })
})
