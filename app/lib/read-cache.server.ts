import {
  DeleteQueryNode,
  InsertQueryNode,
  MergeQueryNode,
  RawNode,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type Kysely,
  type UnknownRow,
} from 'kysely'

// Any database handle (app/lib/db.server.ts's DB, which itself registers WriteWatcher).
type DB = Kysely<any>

/**
 * Short-lived in-process copies of shop-wide reads that every page makes (the catalogue, the
 * payment gateways' public configuration, stock and rating summaries), so a page asks the
 * database only for what is its own.
 *
 * Freshness: a copy lives at most READ_CACHE_TTL_MS, so a change saved by another process (a
 * second app server, a CLI) shows within that time. A write made by THIS process through
 * Kysely (any insert, update, delete or raw statement on a table a copy was read from) drops the
 * copy at once: WriteWatcher, a Kysely plugin on every database handle (app/lib/db.server.ts),
 * counts writes per table before and after each statement, and a copy read while a write to one
 * of its tables was under way is not kept. Inside a transaction nothing is cached.
 */
export const READ_CACHE_TTL_MS = 1000

/** Writes seen per table (names as the code spells them, in camelCase); '*' is every table. */
const writes = new Map<string, number>()

const bump = (tables: readonly string[]) => {
  for (const table of tables) writes.set(table, (writes.get(table) ?? 0) + 1)
}

function tableName(node: OperationNode | undefined): string | null {
  return node && TableNode.is(node) ? node.table.identifier.name : null
}

/** The tables a statement may write; ['*'] when it cannot be told (raw SQL, schema changes). */
function writtenTables(node: RootOperationNode): string[] {
  if (SelectQueryNode.is(node)) return []
  if (RawNode.is(node)) {
    const text = node.sqlFragments.join('?').trim().toLowerCase()
    return /^(?:select|with\s[\s\S]*\)\s*select)\b/.test(text) &&
      !/\b(?:insert|update|delete)\b/.test(text)
      ? []
      : ['*']
  }
  const tables = InsertQueryNode.is(node)
    ? [tableName(node.into)]
    : UpdateQueryNode.is(node)
      ? [tableName(node.table)]
      : DeleteQueryNode.is(node)
        ? node.from.froms.map(tableName)
        : MergeQueryNode.is(node)
          ? [tableName(node.into)]
          : [null]
  return tables.some((table) => table === null) ? ['*'] : (tables as string[])
}

/**
 * Drops every copy at once, as a write to every table would: for a change another process made
 * that this one has learnt of (the page cache's version row, server/page-cache.ts), so pages
 * rendered after it are not built from copies read before it.
 */
export function forgetAllReads(): void {
  bump(['*'])
}

/** Counts writes per table for the read caches, by the names the code uses (camelCase). */
export class WriteWatcher implements KyselyPlugin {
  readonly #pending = new WeakMap<object, string[]>()

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const tables = writtenTables(args.node)
    if (tables.length) {
      bump(tables)
      this.#pending.set(args.queryId, tables)
    }
    return args.node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.#pending.get(args.queryId)
    if (tables) bump(tables)
    return args.result
  }
}

const MAX_ENTRIES = 10_000

interface Entry<T> {
  value: Promise<T>
  readAt: number
}

export interface ReadCache<K, T> {
  /**
   * The cached value for `key`, or `load()`'s, shared by the requests that ask meanwhile. A
   * loaded value that `keep` refuses is answered but not kept.
   */
  get(db: DB, key: K, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>
}

/** A cache of reads from `tables` (as the code names them: 'product', 'stockItem'). */
export function readCache<K, T>(
  tables: readonly string[],
  ttlMs = READ_CACHE_TTL_MS,
): ReadCache<K, T> {
  const watched = [...tables, '*']
  const stamp = () => watched.map((table) => writes.get(table) ?? 0).join(',')
  const perDb = new WeakMap<DB, { stamp: string; entries: Map<K, Entry<T>> }>()
  return {
    get(db, key, load, keep) {
      if (db.isTransaction) return load()
      const now = Date.now()
      const current = stamp()
      let cache = perDb.get(db)
      if (!cache || cache.stamp !== current) {
        cache = { stamp: current, entries: new Map() }
        perDb.set(db, cache)
      }
      const hit = cache.entries.get(key)
      if (hit && now - hit.readAt < ttlMs) return hit.value
      const entries = cache.entries
      // Expired copies are dropped with the rest when there are too many (one per session).
      if (entries.size >= MAX_ENTRIES) entries.clear()
      const value = load()
      entries.set(key, { value, readAt: now })
      value.then(
        // A write during the read may or may not be in it: read again next time.
        (loaded) => {
          const unwanted = stamp() !== current || (keep && !keep(loaded))
          if (unwanted && entries.get(key)?.value === value) entries.delete(key)
        },
        () => {
          if (entries.get(key)?.value === value) entries.delete(key)
        },
      )
      return value
    },
  }
}
