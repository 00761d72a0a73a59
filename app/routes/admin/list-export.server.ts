import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { csvDownload, type CsvCell } from '~/lib/csv.server'
import type { DB } from '~/lib/db.server'
import { shopDateTime } from '~/lib/date-format'
import { isoDate, localDateOf } from '~/lib/shop-time'

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
