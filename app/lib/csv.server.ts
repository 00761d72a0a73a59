import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { stringify } from 'csv-stringify'

/**
 * CSV downloads for spreadsheets, written by csv-stringify: RFC 4180 (comma separated, CRLF
 * line ends, quotes doubled; cells with a comma, quote, line break or edge space quoted),
 * UTF-8 with a byte order mark so Excel reads ₹ and Hindi names. A text cell a spreadsheet
 * would run as a formula (starting with = + - @, a tab or a carriage return) gets a leading
 * apostrophe, so a customer named "=HYPERLINK(...)" stays text (OWASP "CSV injection"); a plain
 * negative decimal ("-84.79", a credit) is left a number, as it runs nothing. Numbers are data
 * we wrote ourselves and are left alone.
 */
export type CsvCell = string | number | null | undefined

const FORMULA_START = /^[=+\-@\t\r]/
/** A negative amount as the exports write it ("-84.79"): a number to a spreadsheet, not a formula. */
const NEGATIVE_DECIMAL = /^-\d+(?:\.\d+)?$/

export const spreadsheetSafe = (text: string): string =>
  FORMULA_START.test(text) && !NEGATIVE_DECIMAL.test(text) ? `'${text}` : text

/** The stringifier every export uses; records are arrays of cells, the first is the header. */
export function spreadsheetCsv() {
  return stringify({
    bom: true,
    record_delimiter: 'windows',
    // csv-stringify quotes only the whole CRLF by itself; a lone CR or LF must be quoted too.
    quoted_match: /^\s|\s$|[\r\n]/,
    cast: { string: spreadsheetSafe },
  })
}

/**
 * A CSV file download, streamed: rows are pulled from `rows` only as fast as the client reads
 * (back-pressure through csv-stringify), so any number of rows is sent with a few in memory.
 * When the client goes away the source is closed (its `finally` releases the database).
 */
export function csvDownload<T>(options: {
  filename: string
  header: readonly string[]
  rows: AsyncIterable<T>
  toCells: (row: T) => CsvCell[]
}): Response {
  const { header, rows, toCells } = options
  async function* records() {
    yield [...header]
    for await (const row of rows) yield toCells(row)
  }
  const csv = spreadsheetCsv()
  const source = Readable.from(records())
  source.on('error', (error) => {
    console.error('[csv] export failed:', error)
    csv.destroy(error)
  })
  csv.on('close', () => source.destroy())
  source.pipe(csv)
  const body = Readable.toWeb(csv) as NodeReadableStream<Uint8Array>
  return new Response(body as unknown as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${options.filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
