/**
 * Stock items as an admin types or uploads them (docs/delivery.md): their shape and limits, and
 * the details of an item delivered by hand. Browser safe (no server imports), so a page can check
 * what the action checks again; reading an import is app/lib/stock-import.server.ts.
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

/** The lines of pasted or uploaded text, whatever its line endings, without a byte order mark. */
export function splitLines(content: string): string[] {
  return content.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)
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
