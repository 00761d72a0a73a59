import { sql } from 'kysely'
import { engineOf, type DB } from '~/lib/db.server'

/**
 * Runs `fn` while the database answers an update of the product titled `title` (its new title)
 * in a way the app cannot prevent: `'ignore'` changes no row and reports no error (a trigger
 * or rule an operator added), `'fail'` throws. The trigger is removed afterwards.
 */
export async function whileProductUpdates<T>(
  db: DB,
  title: string,
  answer: 'ignore' | 'fail',
  fn: () => Promise<T>,
): Promise<T> {
  const postgres = engineOf(db) === 'postgres'
  const name = sql.raw(`kb_test_product_${answer}`)
  if (postgres) {
    const body =
      answer === 'ignore' ? sql.raw('return null;') : sql.raw(`raise exception 'product locked';`)
    await sql`create function ${name}() returns trigger language plpgsql as $$ begin ${body} end $$`.execute(
      db,
    )
    await sql`create trigger ${name} before update on product for each row when (new.title = ${sql.lit(title)}) execute function ${name}()`.execute(
      db,
    )
  } else {
    const raise =
      answer === 'ignore' ? sql.raw('raise(ignore)') : sql.raw(`raise(abort, 'product locked')`)
    await sql`create trigger ${name} before update on product when new.title = ${sql.lit(title)} begin select ${raise}; end`.execute(
      db,
    )
  }
  try {
    return await fn()
  } finally {
    await sql`drop trigger ${name}${postgres ? sql` on product` : sql``}`.execute(db)
    if (postgres) await sql`drop function ${name}()`.execute(db)
  }
}
