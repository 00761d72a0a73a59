import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * The page cache's trigger on user names (0120) counts only a change of a name the storefront
 * shows: the name of someone with a review on the shop (not hidden). Any customer renaming
 * themselves used to empty every process's cached pages, so a script renaming an account a few
 * times a second kept the storefront rendering every page (docs/page-cache.md).
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.

const BUMP = 'update cache_version set version = version + 1 where id = 1'
const SHOWN = (row: string) =>
  `exists (select 1 from review where user_id = ${row}.id and hidden = 0)`

export async function up(db: Kysely<any>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db)
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // A trigger's WHEN holds no subquery in PostgreSQL: the function asks.
    await run(`create function page_cache_bump_reviewer() returns trigger language plpgsql as $$
      begin
        if ${SHOWN('new')} then ${BUMP}; end if;
        return null;
      end $$`)
    await run('drop trigger page_cache_user_name on "user"')
    await run(`create trigger page_cache_user_name after update of name on "user"
      for each row when (old.name is distinct from new.name)
      execute function page_cache_bump_reviewer()`)
    return
  }
  await run('drop trigger page_cache_user_name')
  await run(`create trigger page_cache_user_name after update of name on "user"
    when old.name is not new.name and ${SHOWN('new')} begin ${BUMP}; end`)
}

export async function down(db: Kysely<any>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db)
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await run('drop trigger page_cache_user_name on "user"')
    await run('drop function page_cache_bump_reviewer()')
    await run(`create trigger page_cache_user_name after update of name on "user"
      for each row when (old.name is distinct from new.name) execute function page_cache_bump()`)
    return
  }
  await run('drop trigger page_cache_user_name')
  await run(`create trigger page_cache_user_name after update of name on "user"
    when old.name is not new.name begin ${BUMP}; end`)
}
