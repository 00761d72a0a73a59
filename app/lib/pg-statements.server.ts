import type pg from 'pg'

/**
 * Named prepared statements for PostgreSQL (docs/decisions/0016-postgres-prepared-statements.md).
 *
 * node-postgres sends an unnamed statement with every query: the server parses, analyses and
 * plans the SQL text again each time, about a millisecond of its CPU per checkout. A query
 * given a name is parsed once per connection, and after five runs PostgreSQL may keep a generic
 * plan for it. Each distinct SQL text the app runs a second time gets a name here, so one-off
 * texts (an import's long multi-row insert, a migration) are never kept by the server.
 *
 * - Only statements with parameters that read or write rows are named: select, insert, update,
 *   delete and with. Schema changes and transaction control run as they are.
 * - At most `limit` texts per process are named (the app has a few hundred queries). Queries
 *   with IN lists of varying length each have their own text; past the limit they run unnamed.
 * - A table whose columns change under a running server makes PostgreSQL refuse a prepared read
 *   of it once ("cached plan must not change result type"). That text then gets a new name, so
 *   every connection prepares it afresh on its next run.
 */
export class StatementNames {
  #names = new Map<string, string>()
  #seenOnce = new Set<string>()
  #next = 0
  readonly limit: number

  constructor(limit = 1000) {
    this.limit = limit
  }

  /** The name to run this text under, or undefined to run it unnamed. */
  nameFor(text: string): string | undefined {
    const name = this.#names.get(text)
    if (name !== undefined) return name
    if (this.#names.size >= this.limit || !NAMEABLE.test(text)) return undefined
    if (!this.#seenOnce.has(text)) {
      // The set of texts run once is kept as small as the names are.
      if (this.#seenOnce.size >= this.limit) this.#seenOnce.clear()
      this.#seenOnce.add(text)
      return undefined
    }
    this.#seenOnce.delete(text)
    return this.#rename(text)
  }

  /** A refused prepared statement: its text runs under a new name from now on. */
  forget(text: string): void {
    if (this.#names.has(text)) this.#rename(text)
  }

  get size(): number {
    return this.#names.size
  }

  #rename(text: string): string {
    const name = `kb_${(this.#next++).toString(36)}`
    this.#names.set(text, name)
    return name
  }
}

/** Reads and writes of rows; Kysely writes its SQL in lower case. */
const NAMEABLE = /^\s*(select|insert|update|delete|with)\s/i

/** PostgreSQL's error when a prepared statement's result columns changed (a column added). */
export function isStalePlan(error: unknown): boolean {
  const e = error as { code?: string; routine?: string } | null
  return e?.code === '0A000' && e.routine === 'RevalidateCachedQuery'
}

type QueryFunction = (...args: unknown[]) => unknown

const prepared = new WeakSet<pg.ClientBase>()

/**
 * Makes `client.query(text, values)`, the call Kysely's PostgreSQL driver makes, run under the
 * text's name. Other forms (a config object, a cursor, no values, a callback) are left alone.
 */
export function nameStatements(client: pg.ClientBase, names: StatementNames): void {
  if (prepared.has(client)) return
  prepared.add(client)
  const query = client.query as unknown as QueryFunction
  const named: QueryFunction = function (this: pg.ClientBase, ...args) {
    const [text, values] = args
    if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values) || !values.length)
      return query.apply(this, args)
    const name = names.nameFor(text)
    if (name === undefined) return query.apply(this, args)
    return (query.call(this, { name, text, values }) as Promise<unknown>).catch((error) => {
      if (isStalePlan(error)) names.forget(text)
      throw error
    })
  }
  client.query = named as typeof client.query
}

/** Every client the pool connects runs the app's statements under their names. */
export function prepareStatementsOf(pool: pg.Pool, names = new StatementNames()): StatementNames {
  pool.on('connect', (client) => nameStatements(client, names))
  return names
}
