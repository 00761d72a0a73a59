import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import type { AuthUser } from '~/services/auth.server'
import { csvDownload, type CsvCell } from '~/lib/csv.server'
import type { DB } from '~/lib/db.server'
import { shopDateTime } from '~/lib/date-format'
import { clientIp } from '~/lib/rate-limit.server'
import { isoDate, localDateOf } from '~/lib/shop-time'
import { recordAdminChange } from '~/services/audit.server'

/** A CSV column: its heading, and its cell for a row (dates are en-IN in the shop's time zone). */
export type ExportColumn<Row> = readonly [
  heading: string,
  cell: (row: Row, date: Intl.DateTimeFormat) => CsvCell,
]

/**
 * An admin list's export (orders, transactions): every row its filters match, streamed from
 * the database as `{name}-{YYYY-MM-DD}.csv` (today in the shop's time zone) by
 * app/lib/csv.server.ts, so an export of any size starts at once and holds a few rows in
 * memory. The caller has checked the permission and read the filters.
 */
export async function listExport<Row>({
  name,
  columns,
  rows,
}: {
  name: string
  columns: ReadonlyArray<ExportColumn<Row>>
  /** The rows, given the database and the shop's time zone (for date filters). */
  rows: (db: DB, timezone: string) => AsyncIterable<Row>
}): Promise<Response> {
  const { db } = services()
  const { timezone } = await getSiteSettings(db)
  const date = shopDateTime(timezone)
  return csvDownload({
    filename: `${name}-${isoDate(localDateOf(new Date(), timezone))}.csv`,
    header: columns.map(([heading]) => heading),
    rows: rows(db, timezone),
    toCells: (row) => columns.map(([, cell]) => cell(row, date)),
  })
}

/**
 * Records an export in the audit log (`export.{name}`, docs/audit.md): the file names buyers
 * (a list's: every listed buyer's name, e-mail and phone), so who took it, from where and with
 * what is kept. `fields` are the entry's changes: for a list, the filters that were set, and the
 * summary names them unless `summary` is given (the GST register's, with its month, report and
 * documents read: app/routes/admin/transactions/gst-register.ts). Written before the file
 * starts (a list's rows stream and their count is not known); an entry that cannot be written
 * sends no file.
 */
export async function recordExport(
  admin: Pick<AuthUser, 'id' | 'name' | 'email'>,
  context: { clientIp?: string } | undefined,
  name: string,
  fields: Record<string, string | boolean | number>,
  summary?: string,
): Promise<void> {
  const described = Object.entries(fields)
    .map(([filter, value]) => (value === true ? filter : `${filter} ${String(value)}`))
    .join(', ')
  await recordAdminChange(services().db, {
    actor: { id: admin.id, name: admin.name, email: admin.email },
    ip: clientIp(context),
    action: `export.${name}`,
    target: { type: 'export' },
    summary:
      summary ?? `Exported the ${name} CSV (${described || `every ${name.replace(/s$/, '')}`})`,
    after: fields,
  })
}

/** The filters set, by name: those empty or off are left out of an export's audit entry. */
export const filtersSet = (filters: Record<string, string | boolean | null>) =>
  Object.fromEntries(
    Object.entries(filters).filter((entry): entry is [string, string | boolean] => !!entry[1]),
  )
