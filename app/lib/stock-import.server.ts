import { CsvError, parse } from 'csv-parse/sync'
import {
  CONTROL_CHARACTERS,
  MAX_ITEM_LENGTH,
  NOTE_COLUMNS,
  splitLines,
  StockImportError,
  type ParsedInput,
  type ParsedItem,
  type StockFormat,
} from './stock-parse'

/**
 * Turns pasted or uploaded stock (docs/delivery.md) into items: one item per line, or a .csv
 * file whose first line names the columns. Empty lines are skipped; a line that is not a valid
 * item is reported by its number so the admin can fix it. CSV is read by `csv-parse`
 * (docs/decisions/0010-infrastructure-libraries.md).
 */
export function parseStockInput(content: string, format: StockFormat): ParsedInput {
  const { items, invalid } = readStock(content, format)
  return { items, invalidLines: invalid.map((entry) => entry.line) }
}

/** Why a line is not an item; invalidLinesText puts it in words. */
export type InvalidReason = 'tooLong' | 'valueTooLong' | 'control' | 'columns' | 'noValue'

export interface InvalidLine {
  line: number
  reason: InvalidReason
}

/**
 * The lines of `content` that are not items, each with its reason, in line order: what the stock
 * page tells the admin after an import (the import itself keeps only their numbers).
 */
export function invalidStockLines(content: string, format: StockFormat): InvalidLine[] {
  return readStock(content, format).invalid
}

const count = new Intl.NumberFormat('en-IN')
/** Line numbers named in a message, per reason: the rest are counted. */
const NAMED_LINES = 10

/** "line 4", "lines 1, 2 and 3", "lines 1, 2, ..., 10 and 90 more": the first `lines` of `total`. */
export function lineWords(lines: readonly number[], total = lines.length): string {
  const shown = lines.slice(0, NAMED_LINES).map((line) => count.format(line))
  const more = total - shown.length
  if (total === 1) return `line ${shown[0]}`
  if (more > 0) return `lines ${shown.join(', ')} and ${count.format(more)} more`
  return `lines ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
}

const REASON_WORDS: Record<InvalidReason, { one: string; many: string }> = {
  tooLong: {
    one: `is longer than ${count.format(MAX_ITEM_LENGTH)} characters`,
    many: `are longer than ${count.format(MAX_ITEM_LENGTH)} characters`,
  },
  valueTooLong: {
    one: `has a value longer than ${count.format(MAX_ITEM_LENGTH)} characters`,
    many: `have a value longer than ${count.format(MAX_ITEM_LENGTH)} characters`,
  },
  control: { one: 'contains control characters', many: 'contain control characters' },
  columns: { one: 'has the wrong number of columns', many: 'have the wrong number of columns' },
  noValue: { one: 'has only empty values or notes', many: 'have only empty values or notes' },
}

/**
 * "12 lines not imported: lines 1, 2 and 3 are longer than 4,000 characters; line 7 contains
 * control characters; ...": what the stock page says of the lines an import left out, by reason.
 */
export function invalidLinesText(invalid: readonly InvalidLine[]): string {
  const byReason = new Map<InvalidReason, number[]>()
  for (const { line, reason } of invalid) {
    const lines = byReason.get(reason)
    if (lines) lines.push(line)
    else byReason.set(reason, [line])
  }
  const parts = (Object.keys(REASON_WORDS) as InvalidReason[]).flatMap((reason) => {
    const lines = byReason.get(reason)
    if (!lines) return []
    const words = REASON_WORDS[reason]
    return [`${lineWords(lines)} ${lines.length === 1 ? words.one : words.many}`]
  })
  const total = invalid.length
  return `${count.format(total)} ${total === 1 ? 'line' : 'lines'} not imported: ${parts.join('; ')}`
}

/** The reason a value (a line, or a CSV cell) cannot be an item, or null when it can. */
function valueProblem(value: string): 'tooLong' | 'control' | null {
  if (value.length > MAX_ITEM_LENGTH) return 'tooLong'
  return CONTROL_CHARACTERS.test(value) ? 'control' : null
}

function readStock(
  content: string,
  format: StockFormat,
): { items: ParsedItem[]; invalid: InvalidLine[] } {
  const lines = splitLines(content)
  return format === 'lines' ? parseLines(lines) : parseCsv(lines.join('\n'))
}

/** The column names a CSV header of stock is made of, besides the notes (NOTE_COLUMNS). */
const KNOWN_COLUMNS = new Set([
  'email',
  'e-mail',
  'mail',
  'email address',
  'e-mail address',
  'username',
  'user',
  'user name',
  'login',
  'account',
  'password',
  'pass',
  'pwd',
  'pin',
  'key',
  'licence',
  'license',
  'licence key',
  'license key',
  'serial',
  'code',
  'token',
  'url',
  'expiry',
  ...NOTE_COLUMNS,
])

/** Refuses lines whose first one is a CSV header (docs/delivery.md, "Stock items"). */
export const PASTED_HEADER_MESSAGE =
  'This looks like a CSV header. Upload the file as .csv, or remove the first line.'

/**
 * Whether a line is a CSV header rather than an item: known column names only, separated by
 * commas as in a .csv file (or semicolons or tabs, as spreadsheets copy them, or the colon or bar
 * of "email:password" lists). Pasted as one item per line, such a header would be sold to the
 * first buyer.
 */
function looksLikeHeader(line: string): boolean {
  const names = line.split(/[,;:|\t]/).map((name) =>
    name
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim()
      .toLowerCase()
      .replace(/[_\s]+/g, ' '),
  )
  return names.every((name) => KNOWN_COLUMNS.has(name))
}

function parseLines(lines: string[]): { items: ParsedItem[]; invalid: InvalidLine[] } {
  const items: ParsedItem[] = []
  const invalid: InvalidLine[] = []
  const first = lines.find((raw) => raw.trim() !== '')
  if (first !== undefined && looksLikeHeader(first))
    throw new StockImportError(PASTED_HEADER_MESSAGE)
  lines.forEach((raw, index) => {
    const value = raw.trim()
    if (value === '') return
    const problem = valueProblem(value)
    if (problem) invalid.push({ line: index + 1, reason: problem })
    else items.push({ line: index + 1, secret: { kind: 'text', text: value } })
  })
  return { items, invalid }
}

interface CsvRecord {
  line: number
  cells: string[]
}

/**
 * RFC 4180 records with the line each starts on. Line endings are made "\n" first, so a file
 * that mixes Windows, Unix and old Mac endings reads as the admin sees it, and a value spread over
 * lines keeps "\n" between them. Quotes inside an unquoted value are kept (passwords contain them);
 * a quote left open, or text after a closing quote, refuses the whole file with its line.
 */
function csvRecords(text: string): CsvRecord[] {
  let rows: Array<{ record: string[]; raw: string; info: { lines: number } }>
  try {
    rows = parse(text, {
      record_delimiter: '\n',
      relax_column_count: true,
      relax_quotes: true,
      trim: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
    }) as unknown as typeof rows // with `info` and `raw`, each record comes as { record, raw, info }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error
    throw new StockImportError(csvErrorMessage(error))
  }
  return rows.map(({ record, raw, info }) => {
    // `info.lines` is the line the record ends on; its start is that less the line breaks
    // inside it (the skipped blank lines before it and the delimiter after it do not count).
    const body = raw.replace(/^(?:[ \t]*\n)+/, '').replace(/\n$/, '')
    // Values are trimmed inside quotes too, as an item typed by hand would be.
    const cells = record.map((cell) => cell.trim())
    return { line: info.lines - (body.match(/\n/g)?.length ?? 0), cells }
  })
}

function csvErrorMessage(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines
  const where = line ? `Line ${line.toLocaleString('en-IN')} of the CSV file` : 'The CSV file'
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `${where} opens a quoted value that is never closed; close the quote or remove it`
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `${where} has text after a closing quote; write a quote inside a quoted value as two quotes ("")`
    default:
      return `${where} could not be read as CSV; check its quotes and commas`
  }
}

function parseCsv(text: string): { items: ParsedItem[]; invalid: InvalidLine[] } {
  const items: ParsedItem[] = []
  const invalid: InvalidLine[] = []
  const records = csvRecords(text).filter((record) => record.cells.some((cell) => cell !== ''))
  const [header, ...rows] = records
  if (!header) return { items, invalid }
  const names = header.cells.map((cell) => cell.toLowerCase())
  if (
    names.some((name) => name === '' || name.length > 40) ||
    new Set(names).size !== names.length
  ) {
    throw new StockImportError(
      'The first line of a CSV file must name each column once, such as email,password,note',
    )
  }
  if (names.every((name) => NOTE_COLUMNS.has(name))) {
    throw new StockImportError(
      'The CSV file needs at least one column besides notes, such as email,password',
    )
  }
  for (const { line, cells } of rows) {
    const identifying = names.some(
      (name, index) => !NOTE_COLUMNS.has(name) && (cells[index] ?? '') !== '',
    )
    const problem =
      cells.length !== names.length
        ? 'columns'
        : !identifying
          ? 'noValue'
          : cells.map(valueProblem).find((found) => found !== null)
    if (problem) {
      invalid.push({ line, reason: problem === 'tooLong' ? 'valueTooLong' : problem })
      continue
    }
    items.push({
      line,
      secret: {
        kind: 'fields',
        fields: names.map((name, index) => ({ name, value: cells[index] ?? '' })),
      },
    })
  }
  return { items, invalid }
}
