import { CsvError, parse } from 'csv-parse/sync'
import {
  NOTE_COLUMNS,
  splitLines,
  StockImportError,
  validText,
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
  const lines = splitLines(content)
  return format === 'lines' ? parseLines(lines) : parseCsv(lines.join('\n'))
}

function parseLines(lines: string[]): ParsedInput {
  const items: ParsedItem[] = []
  const invalidLines: number[] = []
  lines.forEach((raw, index) => {
    const value = raw.trim()
    if (value === '') return
    if (validText(value)) items.push({ line: index + 1, secret: { kind: 'text', text: value } })
    else invalidLines.push(index + 1)
  })
  return { items, invalidLines }
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

function parseCsv(text: string): ParsedInput {
  const items: ParsedItem[] = []
  const invalidLines: number[] = []
  const records = csvRecords(text).filter((record) => record.cells.some((cell) => cell !== ''))
  const [header, ...rows] = records
  if (!header) return { items, invalidLines }
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
    if (cells.length !== names.length || !identifying || !cells.every(validText)) {
      invalidLines.push(line)
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
  return { items, invalidLines }
}
