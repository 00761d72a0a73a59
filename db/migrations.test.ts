import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDb, type TestDb } from '../tests/helpers/db'
import { migrateDown, migrateToLatest, migrateToZero } from './migrate'
import { migrations } from './migrations'
import { CATEGORIES } from './migrations/0001_catalogue'

let t: TestDb
beforeAll(async () => {
  t = await createTestDb({ migrate: false })
})
afterAll(async () => {
  await t.destroy()
})

async function tableNames(): Promise<string[]> {
  // Introspection reads every schema, so it waits, like a migration, for none to come or go.
  const tables = await t.migrating(() => t.db.introspection.getTables())
  return tables
    .filter((table) => t.engine === 'sqlite' || table.schema === t.location)
    .map((table) => table.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort()
}

describe(`migrations (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('applies every migration in order on an empty database', async () => {
    const applied = await t.migrating(() => migrateToLatest(t.db))
    expect(applied).toEqual(Object.keys(migrations))
    expect(await tableNames()).toEqual(
      expect.arrayContaining(['category', 'product', 'site_setting']),
    )
  })

  it('is a no-op when the database is already up to date', async () => {
    expect(await t.migrating(() => migrateToLatest(t.db))).toEqual([])
  })

  it("creates the spec's twelve categories in order", async () => {
    const rows = await t.db
      .selectFrom('category')
      .select(['name', 'slug'])
      .orderBy('sortOrder')
      .execute()
    expect(rows.map((row) => row.name)).toEqual([...CATEGORIES])
    expect(rows.find((row) => row.name === 'WordPress Themes')?.slug).toBe('wordpress-themes')
  })

  it('enforces a unique slug, positive prices and a known category', async () => {
    const base = {
      title: 'A',
      slug: 'a',
      price: 100,
      originalPrice: 200,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    }
    await t.db
      .insertInto('product')
      .values({ id: 'p1', ...base })
      .execute()
    await expect(
      t.db
        .insertInto('product')
        .values({ id: 'p2', ...base })
        .execute(),
    ).rejects.toThrow()
    await expect(
      t.db
        .insertInto('product')
        .values({ id: 'p3', ...base, slug: 'b', price: 0 })
        .execute(),
    ).rejects.toThrow()
    await expect(
      t.db
        .insertInto('product')
        .values({ id: 'p4', ...base, slug: 'c', category: 'Nope' })
        .execute(),
    ).rejects.toThrow()
    await sql`delete from product`.execute(t.db)
  })

  it('reverts every migration and applies them again', async () => {
    const reverted = await t.migrating(() => migrateDown(t.db))
    expect(reverted).toEqual([Object.keys(migrations).at(-1)])
    await t.migrating(() => migrateToZero(t.db))
    expect(await tableNames()).toEqual([])
    expect(await t.migrating(() => migrateToLatest(t.db))).toEqual(Object.keys(migrations))
  })
})
