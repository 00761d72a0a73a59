/**
 * Constraint violations as both engines report them: PostgreSQL by SQLSTATE (and the
 * constraint's name), better-sqlite3 by an extended result code naming only the kind.
 */
interface DriverError {
  code?: unknown
  constraint?: unknown
}

/** A unique constraint refused the row. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE'
}

/**
 * The foreign key `constraint` (PostgreSQL's name, e.g. order_product_id_fkey) refused the row:
 * the row it points to was deleted meanwhile. SQLite does not say which key failed, so any
 * foreign-key failure there counts.
 */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const e = error as DriverError | null
  if (e?.code === '23503') return e.constraint === constraint
  return e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
}
