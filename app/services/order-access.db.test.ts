import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { ORDER_RATE_LIMITS, overLimit } from './order-access.server'

const t = fileTestDb()
// overLimit reads the database through services() (app/lib/app-context.server.ts), which answers
// whatever the process opened: here, this file's test database.
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
beforeAll(() => {
  holder.__keybazaar = { db: t.db, engine: t.engine, env: {} }
})
afterAll(() => {
  holder.__keybazaar = undefined
})

describe(`the order pages' per-address limits (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('count every address of one IPv6 /64 together, and another /64 apart', async () => {
    const { limit } = ORDER_RATE_LIMITS.reportIp
    for (let i = 1; i <= limit; i++) {
      expect(await overLimit('reportIp', `2409:4042:77:1::${i.toString(16)}`)).toBeNull()
    }
    expect(await overLimit('reportIp', '2409:4042:77:1:a:b:c:d')).toMatchObject({
      key: 'order-report:ip:2409:4042:77:1::/64',
      allowed: false,
    })
    expect(await overLimit('reportIp', '2409:4042:77:2::1')).toBeNull()
  })

  it('count an IPv4-mapped address as its IPv4 address', async () => {
    const { limit } = ORDER_RATE_LIMITS.revealIp
    for (let i = 0; i < limit; i++) {
      expect(await overLimit('revealIp', i % 2 ? '::ffff:198.51.100.7' : '198.51.100.7')).toBeNull()
    }
    expect(await overLimit('revealIp', '::ffff:198.51.100.7')).toMatchObject({
      key: 'order-reveal:ip:198.51.100.7',
      allowed: false,
    })
  })
})
