import { AsyncLocalStorage } from 'node:async_hooks'
import type { LogEvent } from 'kysely'

/**
 * Database queries per request, for tests that hold a page to a number of queries
 * (tests/e2e/render-cost.spec.ts). server/index.ts runs each request inside `countQueries`
 * when QUERY_COUNT_HEADER is set, and sends the count in the X-Query-Count response header;
 * every Kysely instance reports its queries here (app/lib/db.server.ts). Outside such a
 * request (background jobs, or the setting off) nothing is counted.
 */
interface Counter {
  queries: number
}

const current = new AsyncLocalStorage<Counter>()

export function countQueries<T>(run: (counter: Counter) => T): T {
  return current.run({ queries: 0 }, () => run(current.getStore()!))
}

/** Kysely's `log` option: counts executed queries and failed ones alike. */
export function logQuery(_event: LogEvent): void {
  const counter = current.getStore()
  if (counter) counter.queries++
}
