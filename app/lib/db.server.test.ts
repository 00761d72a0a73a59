import SQLite from 'better-sqlite3'
import { CamelCasePlugin, Kysely, SqliteDialect, sql, type Generated } from 'kysely'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { withStatementCache } from './db.server'

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
