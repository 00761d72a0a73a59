import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDb, testEngine, type TestDb } from '../../tests/helpers/db'
import { createDatabase } from './db.server'
import { isStalePlan, nameStatements, StatementNames } from './pg-statements.server'

describe('StatementNames', () => {
  it('names a text the second time it runs, and keeps that name', () => {
    const names = new StatementNames()
    const text = 'select "id" from "order" where "id" = $1'
    expect(names.nameFor(text)).toBeUndefined()
    const name = names.nameFor(text)
    expect(name).toMatch(/^kb_/)
    expect(names.nameFor(text)).toBe(name)
    expect(names.nameFor('select "id" from "product" where "id" = $1')).toBeUndefined()
    expect(names.nameFor('select "id" from "product" where "id" = $1')).not.toBe(name)
  })

  it('leaves schema changes and transaction control unnamed', () => {
    const names = new StatementNames()
    for (const text of [
      'alter table "order" add column "x" text',
      'begin',
      'commit',
      'create index "i" on "order" ("id")',
      'selection',
    ]) {
      names.nameFor(text)
      expect(names.nameFor(text)).toBeUndefined()
    }
    expect(names.size).toBe(0)
  })

  it('names no more than its limit of texts', () => {
    const names = new StatementNames(3)
    for (let i = 0; i < 5; i++) {
      const text = `select ${i} where $1::int = 1`
      names.nameFor(text)
      names.nameFor(text)
    }
    expect(names.size).toBe(3)
    expect(names.nameFor('select 4 where $1::int = 1')).toBeUndefined()
    expect(names.nameFor('select 0 where $1::int = 1')).toBeDefined()
  })

  it('gives a refused text a new name', () => {
    const names = new StatementNames()
    const text = 'select * from "t" where "a" = $1'
    names.nameFor(text)
    const first = names.nameFor(text)
    names.forget(text)
    const second = names.nameFor(text)
    expect(second).toBeDefined()
    expect(second).not.toBe(first)
  })
})

describe.runIf(testEngine() === 'postgres')('prepared statements on PostgreSQL', () => {
  let test: TestDb
  let client: pg.Client
  const names = new StatementNames()

  beforeAll(async () => {
    test = await createTestDb({ migrate: false })
    client = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL,
      options: `-c search_path=${test.location}`,
    })
    await client.connect()
    nameStatements(client, names)
    await client.query('create table probe (a integer)')
    await client.query('insert into probe (a) values (1), (2)')
  })

  afterAll(async () => {
    await client?.end()
    await test?.destroy()
  })

  const preparedHere = async () =>
    (
      await client.query<{ name: string }>('select name from pg_prepared_statements order by name')
    ).rows.map((row) => row.name)

  it('prepares a repeated read once in the session and answers it each time', async () => {
    const text = 'select a from probe where a = $1'
    const answers = []
    for (const value of [1, 2, 1, 3]) answers.push((await client.query(text, [value])).rows)
    expect(answers).toEqual([[{ a: 1 }], [{ a: 2 }], [{ a: 1 }], []])
    const name = names.nameFor(text)
    expect(await preparedHere()).toContain(name)
    // Queries without parameters, such as the one above, stay unnamed.
    expect(await preparedHere()).toEqual([name])
  })

  it('recovers when a column is added under a prepared read', async () => {
    const text = 'select * from probe where a = $1'
    for (let i = 0; i < 3; i++) await client.query(text, [1])
    const before = names.nameFor(text)
    await client.query('alter table probe add column b text')
    const refused = await client.query(text, [1]).catch((error: unknown) => error)
    expect(isStalePlan(refused)).toBe(true)
    // The next run prepares the text afresh under a new name and sees the new column.
    expect((await client.query(text, [1])).rows).toEqual([{ a: 1, b: null }])
    expect(names.nameFor(text)).not.toBe(before)
  })

  it("runs the app's queries prepared through Kysely, in and out of transactions", async () => {
    const db = createDatabase({
      databaseUrl: process.env.TEST_DATABASE_URL,
      pgSchema: test.location,
      maxConnections: 1,
    })
    try {
      await sql`create table widget (id integer primary key, label text not null)`.execute(db)
      for (let id = 1; id <= 4; id++)
        await db.transaction().execute(async (trx) => {
          await sql`insert into widget (id, label) values (${id}, ${`w${id}`})`.execute(trx)
          await sql`update widget set label = label || ${'!'} where id = ${id}`.execute(trx)
        })
      const rows = await sql<{
        id: number
        label: string
      }>`select id, label from widget where id >= ${2} order by id`.execute(db)
      expect(rows.rows).toEqual([
        { id: 2, label: 'w2!' },
        { id: 3, label: 'w3!' },
        { id: 4, label: 'w4!' },
      ])
      const prepared = await sql<{
        statement: string
      }>`select statement from pg_prepared_statements where statement like ${'%widget%'}`.execute(
        db,
      )
      expect(prepared.rows.map((row) => row.statement).sort()).toEqual([
        'insert into widget (id, label) values ($1, $2)',
        'update widget set label = label || $1 where id = $2',
      ])
      // A duplicate key still fails as it should, and the connection goes on working.
      await expect(
        sql`insert into widget (id, label) values (${1}, ${'again'})`.execute(db),
      ).rejects.toMatchObject({ code: '23505' })
      const count = await sql<{ n: string }>`select count(*) as n from widget`.execute(db)
      expect(count.rows[0]?.n).toBe('4')
    } finally {
      await db.destroy()
    }
  })

  it('prepares nothing when told not to', async () => {
    const db = createDatabase({
      databaseUrl: process.env.TEST_DATABASE_URL,
      pgSchema: test.location,
      maxConnections: 1,
      preparedStatements: false,
    })
    try {
      for (let i = 0; i < 3; i++) await sql`select a from probe where a = ${1}`.execute(db)
      const prepared = await sql<{
        n: string
      }>`select count(*) as n from pg_prepared_statements`.execute(db)
      expect(prepared.rows[0]?.n).toBe('0')
    } finally {
      await db.destroy()
    }
  })
})
