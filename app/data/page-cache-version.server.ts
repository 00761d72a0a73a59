import type { DB } from '~/lib/db.server'

/**
 * The page cache's version: triggers raise it whenever something an anonymous page shows
 * changes (db/migrations/0120_page_cache_version.ts). Each process reads it at most every few
 * hundred milliseconds and drops the pages it cached under an older one (server/page-cache.ts).
 */
export async function readPageCacheVersion(db: DB): Promise<number> {
  const row = await db
    .selectFrom('cacheVersion')
    .select('version')
    .where('id', '=', 1)
    .executeTakeFirst()
  return Number(row?.version ?? 0)
}
