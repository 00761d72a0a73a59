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

interface IndexShape {
  table: string
  name: string
  columns: string[]
  unique: boolean
  partial: boolean
}

/** Every index of the app's tables with its columns in order (expressions read as null). */
async function plainAndLongerIndexes(): Promise<IndexShape[]> {
  if (t.engine === 'postgres') {
    const { rows } = await sql<IndexShape>`
      select c.relname as "table", i.relname as "name", x.indisunique as "unique",
        x.indpred is not null as "partial",
        array(select a.attname::text from unnest(x.indkey) with ordinality k(attnum, n)
          left join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
          order by k.n) as "columns"
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class c on c.oid = x.indrelid
      join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = ${t.location}`.execute(t.db)
    return rows.filter((row) => !row.table.startsWith('kysely_'))
  }
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'
      and name not like 'kysely_%'`.execute(t.db)
  const shapes: IndexShape[] = []
  for (const { name: table } of tables.rows) {
    const list = await sql<{ name: string; unique: number; partial: number }>`
      select name, "unique", partial from pragma_index_list(${table})`.execute(t.db)
    for (const index of list.rows) {
      const info = await sql<{ name: string | null }>`
        select name from pragma_index_info(${index.name}) order by seqno`.execute(t.db)
      shapes.push({
        table,
        name: index.name,
        columns: info.rows.map((row) => row.name ?? '(expression)'),
        unique: index.unique === 1,
        partial: index.partial === 1,
      })
    }
  }
  return shapes
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

  it('keeps no plain index that is the leading part of another on the same table', async () => {
    // Such an index serves nothing the longer one does not, and costs every write an entry.
    const indexes = await plainAndLongerIndexes()
    expect(indexes.length).toBeGreaterThan(20)
    const redundant = indexes.flatMap((a) =>
      indexes
        .filter(
          (b) =>
            b.table === a.table &&
            b.name !== a.name &&
            !a.unique &&
            !a.partial &&
            !b.partial &&
            a.columns.every((column, i) => b.columns[i] === column),
        )
        .map(
          (b) => `${a.table}: ${a.name} (${a.columns}) is the start of ${b.name} (${b.columns})`,
        ),
    )
    expect(redundant).toEqual([])
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
