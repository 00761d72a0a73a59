import { sql, type RawBuilder } from 'kysely'

/**
 * The admin lists' search boxes: "contains", in any case, with the admin's own `%` and `_`
 * taken literally (LIKE with `!` as the escape character), the same on SQLite and PostgreSQL.
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[!%_]/g, (char) => `!${char}`)}%`
}

/**
 * True where any of the columns contains the text. Columns are given as the SQL to compare,
 * lowered by the caller where the column keeps capitals (`sql\`lower(name)\``).
 */
export function containsAny(columns: RawBuilder<unknown>[], text: string): RawBuilder<boolean> {
  const pattern = containsPattern(text)
  return sql<boolean>`(${sql.join(
    columns.map((column) => sql`${column} like ${pattern} escape '!'`),
    sql` or `,
  )})`
}
