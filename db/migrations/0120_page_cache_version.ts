import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * The page cache's version (docs/page-cache.md): one row whose number goes up whenever
 * something an anonymous page shows changes, so every process drops its cached pages within
 * a fraction of a second. Triggers do the counting, so no write path (a service, a script, a
 * psql session) can forget it:
 *
 * - product, category, review, review_vote and payment_gateway: any change;
 * - site_setting: any change but the internal `marker.*` rows;
 * - user: a changed name (reviews show the reviewer's name);
 * - stock_item: an item entering or leaving `available` only while the product has at most
 *   11 available items afterwards. The product page says "Only N left" from 10 down and the
 *   home page says In/Out of Stock, so that is when the shown state can change; a sale out of
 *   plentiful stock leaves the cache alone. (FEW_LEFT in app/routes/shop/product.tsx is 10:
 *   raise the 11 here with a new migration if it grows.)
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.

const PLAIN_TABLES = ['product', 'category', 'review', 'review_vote', 'payment_gateway']

/** Counting stops at 12: enough to know whether at most 11 are left. */
const FEW_AVAILABLE = (product: string) =>
  `(select count(*) from (select 1 from stock_item where product_id = ${product} and status = 'available' limit 12) as few) <= 11`

const BUMP = 'update cache_version set version = version + 1 where id = 1'

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  await db.schema
    .createTable('cache_version')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('version', 'bigint', (col) => col.notNull())
    .execute()
  await db.insertInto('cache_version').values({ id: 1, version: 1 }).execute()

  const run = (statement: string) => sql.raw(statement).execute(db)
  if (postgres) {
    await run(`create function page_cache_bump() returns trigger language plpgsql as $$
      begin ${BUMP}; return null; end $$`)
    // A row trigger runs after its whole statement here, so it counts what the statement left:
    // right for an item leaving `available` (fewer left), not for items arriving (an import of
    // many rows); arrivals therefore always count.
    await run(`create function page_cache_bump_stock() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and new.status = 'available' then ${BUMP};
        elsif ${FEW_AVAILABLE('old.product_id')} then ${BUMP};
        end if;
        return null;
      end $$`)
    await run(`create function page_cache_bump_stock_added() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from added where status = 'available') then ${BUMP}; end if;
        return null;
      end $$`)
    for (const table of PLAIN_TABLES) {
      await run(`create trigger page_cache_${table} after insert or update or delete on ${table}
        for each statement execute function page_cache_bump()`)
    }
    await run(`create trigger page_cache_site_setting after insert or update on site_setting
      for each row when (new.key not like 'marker.%') execute function page_cache_bump()`)
    await run(`create trigger page_cache_site_setting_delete after delete on site_setting
      for each row when (old.key not like 'marker.%') execute function page_cache_bump()`)
    await run(`create trigger page_cache_user_name after update of name on "user"
      for each row when (old.name is distinct from new.name) execute function page_cache_bump()`)
    await run(`create trigger page_cache_stock_insert after insert on stock_item
      referencing new table as added for each statement execute function page_cache_bump_stock_added()`)
    await run(`create trigger page_cache_stock_update after update of status on stock_item
      for each row when ((old.status = 'available') <> (new.status = 'available'))
      execute function page_cache_bump_stock()`)
    await run(`create trigger page_cache_stock_delete after delete on stock_item
      for each row when (old.status = 'available') execute function page_cache_bump_stock()`)
    return
  }
  for (const table of PLAIN_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await run(`create trigger page_cache_${table}_${event} after ${event} on ${table}
        begin ${BUMP}; end`)
    }
  }
  await run(`create trigger page_cache_site_setting_insert after insert on site_setting
    when new.key not like 'marker.%' begin ${BUMP}; end`)
  await run(`create trigger page_cache_site_setting_update after update on site_setting
    when new.key not like 'marker.%' begin ${BUMP}; end`)
  await run(`create trigger page_cache_site_setting_delete after delete on site_setting
    when old.key not like 'marker.%' begin ${BUMP}; end`)
  await run(`create trigger page_cache_user_name after update of name on "user"
    when old.name is not new.name begin ${BUMP}; end`)
  await run(`create trigger page_cache_stock_insert after insert on stock_item
    when new.status = 'available' and ${FEW_AVAILABLE('new.product_id')} begin ${BUMP}; end`)
  await run(`create trigger page_cache_stock_update after update of status on stock_item
    when (old.status = 'available') <> (new.status = 'available') and ${FEW_AVAILABLE('new.product_id')}
    begin ${BUMP}; end`)
  await run(`create trigger page_cache_stock_delete after delete on stock_item
    when old.status = 'available' and ${FEW_AVAILABLE('old.product_id')} begin ${BUMP}; end`)
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  const run = (statement: string) => sql.raw(statement).execute(db)
  if (postgres) {
    // Dropping the functions drops every trigger that calls them.
    await run('drop function page_cache_bump() cascade')
    await run('drop function page_cache_bump_stock() cascade')
    await run('drop function page_cache_bump_stock_added() cascade')
  } else {
    const triggers = await sql<{ name: string }>`select name from sqlite_master
      where type = 'trigger' and name like 'page_cache_%'`.execute(db)
    for (const { name } of triggers.rows) await run(`drop trigger ${name}`)
  }
  await db.schema.dropTable('cache_version').execute()
}
