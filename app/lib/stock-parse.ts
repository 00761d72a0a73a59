/**
 * Stock items as an admin types or uploads them (docs/delivery.md): one item per line, or a
 * .csv file whose first line names the columns, and the details of an item delivered by hand.
 * Browser safe (no server imports), so a page can check what the action checks again.
 */
/** One item as the buyer sees it: a line (a licence key) or named fields (email, password, note). */
export type StockSecret =
  | { kind: 'text'; text: string }
  | { kind: 'fields'; fields: Array<{ name: string; value: string }> }

export type StockFormat = 'lines' | 'csv'

/** An import the admin must fix as a whole; `message` is fit to show. */
export class StockImportError extends Error {
  override name = 'StockImportError'
}

export const MAX_IMPORT_ITEMS = 50_000
export const MAX_ITEM_LENGTH = 4_000
/** Columns that describe an item rather than identify it: a new note does not make a new account. */
export const NOTE_COLUMNS = new Set(['note', 'notes', 'comment', 'comments', 'remark', 'remarks'])
// Control characters other than tab mean a binary file or a broken paste, not a credential.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/

export interface ParsedItem {
  line: number
  secret: StockSecret
}

export interface ParsedInput {
  items: ParsedItem[]
  invalidLines: number[]
}

/** .csv files have a header row naming the columns; anything else is one item per line. */
export function detectStockFormat(fileName: string | null | undefined): StockFormat {
  return fileName && /\.csv$/i.test(fileName) ? 'csv' : 'lines'
}

function splitLines(content: string): string[] {
  return content.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)
}

export function validText(text: string): boolean {
  return text.length <= MAX_ITEM_LENGTH && !CONTROL_CHARACTERS.test(text)
}

/** RFC 4180 records with the line each starts on (quoted fields may span lines). */
function parseCsvRecords(content: string): Array<{ line: number; cells: string[] }> {
  const text = content.replace(/^\uFEFF/, '')
  const records: Array<{ line: number; cells: string[] }> = []
  let cells: string[] = []
  let cell = ''
  let quoted = false
  let line = 1
  let recordLine = 1
  const endRecord = () => {
    cells.push(cell)
    records.push({ line: recordLine, cells })
    cells = []
    cell = ''
  }
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else {
        if (char === '\n') line++
        cell += char
      }
    } else if (char === '"' && cell.trim() === '') {
      cell = ''
      quoted = true
    } else if (char === ',') {
      cells.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      endRecord()
      line++
      recordLine = line
    } else cell += char
  }
  if (cell !== '' || cells.length > 0) endRecord()
  return records
}

/** Turns pasted or uploaded text into items; empty lines are skipped, bad ones reported. */
export function parseStockInput(content: string, format: StockFormat): ParsedInput {
  const items: ParsedItem[] = []
  const invalidLines: number[] = []
  if (format === 'lines') {
    splitLines(content).forEach((raw, index) => {
      const text = raw.trim()
      if (text === '') return
      if (validText(text)) items.push({ line: index + 1, secret: { kind: 'text', text } })
      else invalidLines.push(index + 1)
    })
    return { items, invalidLines }
  }
  const records = parseCsvRecords(content).filter((record) =>
    record.cells.some((cell) => cell.trim() !== ''),
  )
  const [header, ...rows] = records
  if (!header) return { items, invalidLines }
  const names = header.cells.map((cell) => cell.trim().toLowerCase())
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
  for (const row of rows) {
    const values = row.cells.map((cell) => cell.trim())
    const identifying = names.some(
      (name, index) => !NOTE_COLUMNS.has(name) && (values[index] ?? '') !== '',
    )
    if (values.length !== names.length || !identifying || !values.every(validText)) {
      invalidLines.push(row.line)
      continue
    }
    items.push({
      line: row.line,
      secret: {
        kind: 'fields',
        fields: names.map((name, index) => ({ name, value: values[index] ?? '' })),
      },
    })
  }
  return { items, invalidLines }
}

export const MANUAL_SECRET_MESSAGES = {
  empty: 'Enter the account details or licence key to deliver.',
  tooLong: `Please keep the details under ${MAX_ITEM_LENGTH.toLocaleString('en-IN')} characters.`,
  invalid: 'The details contain control characters; paste them as plain text.',
} as const

/** "Email: a@b.in": a name (no slashes, so "https://..." stays text), a colon, a value. */
const FIELD_LINE = /^([A-Za-z][A-Za-z0-9 _.()-]{0,39}?)\s*:(?!\/\/)\s*(\S.*)$/

/**
 * What an admin types to deliver an order by hand: when every line is "name: value"
 * (Email: ..., Password: ...) the item has named fields, like a CSV stock item; anything
 * else is kept as text, line by line. Empty lines are dropped.
 */
export function parseManualSecret(
  input: string,
): { ok: true; secret: StockSecret } | { ok: false; error: string } {
  const lines = splitLines(input)
    .map((line) => line.trim())
    .filter(Boolean)
  const text = lines.join('\n')
  if (text === '') return { ok: false, error: MANUAL_SECRET_MESSAGES.empty }
  if (text.length > MAX_ITEM_LENGTH) return { ok: false, error: MANUAL_SECRET_MESSAGES.tooLong }
  if (CONTROL_CHARACTERS.test(text)) return { ok: false, error: MANUAL_SECRET_MESSAGES.invalid }
  const matches = lines.map((line) => FIELD_LINE.exec(line))
  if (matches.every((match) => match !== null)) {
    return {
      ok: true,
      secret: {
        kind: 'fields',
        fields: matches.map((match) => ({ name: match[1]!.trim(), value: match[2]!.trim() })),
      },
    }
  }
  return { ok: true, secret: { kind: 'text', text } }
}
