import SQLite from 'better-sqlite3'
import {
  CamelCasePlugin,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type Dialect,
  type Generated,
  type KyselyPlugin,
} from 'kysely'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  CamelCaseRows,
  SnakeCasePostgresDialect,
  SnakeCaseSqliteDialect,
  withStatementCache,
} from './db.server'

describe('SQLite transactions (SnakeCaseSqliteDialect)', () => {
  it('take the write lock when they begin, so a read then a write cannot lose it to another process', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-begin-'))
    const file = path.join(dir, 'shop.sqlite')
    const sqlite = new SQLite(file)
    sqlite.pragma('journal_mode = WAL')
    sqlite.exec('create table item (id integer primary key, name text)')
    const db = new Kysely<{ item: { id: Generated<number>; name: string } }>({
      dialect: new SnakeCaseSqliteDialect({ database: sqlite }),
    })
    // Another process's connection, which does not wait for a lock.
    const other = new SQLite(file)
    other.pragma('busy_timeout = 0')
    try {
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('item').selectAll().execute()
        // A plain BEGIN would hold only a read snapshot here, and this would get the lock.
        expect(() => other.exec('begin immediate')).toThrow(/database is locked/)
        await trx.insertInto('item').values({ name: 'a' }).execute()
      })
      other.exec('begin immediate')
      other.exec('rollback')
      expect(other.prepare('select name from item').all()).toEqual([{ name: 'a' }])
    } finally {
      other.close()
      await db.destroy()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('withStatementCache (the SQLite connection Kysely uses)', () => {
  const opened: SQLite.Database[] = []
  const open = () => {
    const sqlite = new SQLite(':memory:')
    opened.push(sqlite)
    sqlite.exec('create table item (id integer primary key, name text)')
    return sqlite
  }
  afterEach(() => {
    for (const sqlite of opened.splice(0)) if (sqlite.open) sqlite.close()
  })

  it('prepares each SQL text once and hands back the same statement', () => {
    const sqlite = open()
    const prepare = vi.spyOn(sqlite, 'prepare')
    const cache = withStatementCache(sqlite)
    const first = cache.prepare('select name from item where id = ?')
    const again = cache.prepare('select name from item where id = ?')
    cache.prepare('select id from item')
    expect(again).toBe(first)
    expect(prepare).toHaveBeenCalledTimes(2)
  })

  it('gives a fresh statement while the cached one is being iterated (a stream)', () => {
    const sqlite = open()
    sqlite.exec("insert into item (name) values ('a'), ('b')")
    const cache = withStatementCache(sqlite)
    const streaming = cache.prepare('select name from item order by id')
    const rows = streaming.iterate()
    expect(rows.next().value).toEqual({ name: 'a' })
    const meanwhile = cache.prepare('select name from item order by id')
    expect(meanwhile).not.toBe(streaming)
    expect(meanwhile.all()).toEqual([{ name: 'a' }, { name: 'b' }])
    expect(rows.next().value).toEqual({ name: 'b' })
    rows.return?.()
    // Done iterating: the cached statement serves again.
    expect(cache.prepare('select name from item order by id')).toBe(streaming)
  })

  it('drops the least recently used statement when full', () => {
    const sqlite = open()
    const prepare = vi.spyOn(sqlite, 'prepare')
    const cache = withStatementCache(sqlite, 2)
    cache.prepare('select 1')
    cache.prepare('select 2')
    cache.prepare('select 1')
    cache.prepare('select 3') // evicts "select 2", used least recently
    expect(prepare).toHaveBeenCalledTimes(3)
    cache.prepare('select 1')
    expect(prepare).toHaveBeenCalledTimes(3)
    cache.prepare('select 2')
    expect(prepare).toHaveBeenCalledTimes(4)
  })

  it('serves Kysely queries, writes and transactions with the cached statements', async () => {
    const sqlite = open()
    const db = new Kysely<{ item: { id: Generated<number>; name: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      plugins: [new CamelCasePlugin()],
    })
    for (const name of ['a', 'b', 'c'])
      await db.transaction().execute((trx) => trx.insertInto('item').values({ name }).execute())
    const read = () => db.selectFrom('item').select('name').where('id', '>', 1).orderBy('id')
    expect(await read().execute()).toEqual([{ name: 'b' }, { name: 'c' }])
    await db.updateTable('item').set({ name: 'z' }).where('id', '=', 3).execute()
    expect(await read().execute()).toEqual([{ name: 'b' }, { name: 'z' }])
    // A schema change: SQLite re-prepares the cached statement by itself.
    await sql`alter table item add column note text`.execute(db)
    expect(await read().execute()).toEqual([{ name: 'b' }, { name: 'z' }])
    await db.destroy()
    expect(sqlite.open).toBe(false)
  })
})

describe('snake_case names written by the compilers (SnakeCaseSqliteDialect, SnakeCasePostgresDialect)', () => {
  interface Tables {
    orderItem: { id: string; productId: string; unitPrice: number; createdAt: string }
    product: { id: string; shortTitle: string; inStock: number }
  }
  // Compiling needs no connection: the dialects are never asked for one here.
  const noPool = {} as ConstructorParameters<typeof PostgresDialect>[0]['pool']
  const noSqlite = {} as SQLite.Database
  const withPlugin = (dialect: Dialect, plugin: KyselyPlugin) =>
    new Kysely<Tables>({ dialect, plugins: [plugin] })
  const engines = [
    {
      name: 'SQLite',
      plugin: withPlugin(new SqliteDialect({ database: noSqlite }), new CamelCasePlugin()),
      ours: withPlugin(new SnakeCaseSqliteDialect({ database: noSqlite }), new CamelCaseRows()),
    },
    {
      name: 'PostgreSQL',
      plugin: withPlugin(new PostgresDialect({ pool: noPool }), new CamelCasePlugin()),
      ours: withPlugin(new SnakeCasePostgresDialect({ pool: noPool }), new CamelCaseRows()),
    },
  ]
  // Every kind of place a name appears in the app's queries: tables, qualified and aliased
  // columns, joins, sub-queries, conflict targets, returning lists, sql`` references, DDL.
  const queries: Array<[string, (db: Kysely<Tables>) => { compile(): CompiledQuery }]> = [
    [
      'select with a join, aliases, where, order and limit',
      (db) =>
        db
          .selectFrom('orderItem as oi')
          .innerJoin('product', 'product.id', 'oi.productId')
          .select(['oi.id', 'oi.unitPrice as priceEach', 'product.shortTitle'])
          .select((eb) => eb.fn.count<number>('oi.productId').as('itemCount'))
          .where('product.inStock', '=', 1)
          .where((eb) => eb('oi.createdAt', '>', eb.ref('oi.createdAt')))
          .groupBy(['oi.id', 'product.shortTitle'])
          .orderBy('oi.createdAt', 'desc')
          .limit(5),
    ],
    [
      'insert with a conflict target and returning',
      (db) =>
        db
          .insertInto('orderItem')
          .values({ id: 'a', productId: 'p', unitPrice: 100, createdAt: 'now' })
          .onConflict((oc) =>
            oc
              .column('productId')
              .doUpdateSet((eb) => ({ unitPrice: eb.ref('excluded.unitPrice') })),
          )
          .returning(['id', 'createdAt']),
    ],
    [
      'update from a sub-query',
      (db) =>
        db
          .updateTable('product')
          .set({ inStock: 0, shortTitle: sql<string>`upper(${sql.ref('shortTitle')})` })
          .where(
            'id',
            'in',
            db.selectFrom('orderItem').select('productId').where('unitPrice', '<', 10),
          )
          .returning('shortTitle'),
    ],
    ['delete', (db) => db.deleteFrom('orderItem').where('productId', '=', 'p')],
    [
      'create table and index',
      (db) =>
        db.schema
          .createTable('orderItem')
          .addColumn('productId', 'text', (col) => col.notNull().references('product.id'))
          .addColumn('unitPrice', 'integer'),
    ],
    [
      'create index',
      (db) =>
        db.schema
          .createIndex('orderItemByProduct')
          .on('orderItem')
          .columns(['productId', 'createdAt']),
    ],
  ]

  for (const engine of engines)
    for (const [what, build] of queries)
      it(`${engine.name}: ${what} compiles to the SQL CamelCasePlugin gives`, () => {
        const ours = build(engine.ours).compile()
        const theirs = build(engine.plugin).compile()
        expect(ours.sql).toBe(theirs.sql)
        expect(ours.parameters).toEqual(theirs.parameters)
        expect(ours.sql).toMatch(/product_id/)
      })

  it('returns rows with camelCase keys, as the plugin does', async () => {
    const sqlite = new SQLite(':memory:')
    sqlite.exec('create table product (id text, short_title text, in_stock integer)')
    sqlite.exec("insert into product values ('p', 'Tea', 1)")
    const db = withPlugin(new SnakeCaseSqliteDialect({ database: sqlite }), new CamelCaseRows())
    expect(
      await db.selectFrom('product').select(['shortTitle', 'inStock as stockFlag']).execute(),
    ).toEqual([{ shortTitle: 'Tea', stockFlag: 1 }])
    await db.destroy()
  })
})
