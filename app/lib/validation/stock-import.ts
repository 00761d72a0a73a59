import { z } from '~/lib/validation/zod'

/**
 * The admin stock page's import rules and messages, shared by the browser (checks
 * before uploading) and the action (the same checks again). Browser-safe: no server imports.
 */

/** 5 MB: a file (or pasted text) of exactly this many bytes is accepted, one byte more is not. */
export const STOCK_IMPORT_MAX_BYTES = 5 * 1024 * 1024
export const STOCK_FILE_EXTENSIONS = ['.txt', '.csv'] as const
/** For <input type="file" accept>. */
export const STOCK_FILE_ACCEPT = '.txt,.csv,text/plain,text/csv'

export const STOCK_MESSAGES = {
  nothing: 'Paste at least one line or choose a file to import',
  both: 'Paste lines or choose a file, not both',
  fileType: 'Choose a .txt or .csv file',
  tooLarge: 'Imports are limited to 5 MB at a time. Split the file into smaller ones.',
  notText: 'The file is not UTF-8 text. Save it as plain text or CSV (UTF-8) and try again.',
  unreadable: 'The import could not be read. Please try again.',
  failed: 'The import failed and nothing was added. Please try again.',
  empty: 'No items found: the import has only empty lines.',
  revoked: 'Item revoked. It will never be sold.',
  revokeNotAvailable:
    'This item is no longer available (sold or already revoked), so it was left as it is.',
  revokeMissing: 'Item not found',
  revokeTitle: 'Revoke item',
  revokeQuestion: 'Revoke this item? It will never be sold, and this cannot be undone.',
} as const

/** The checks both sides make on a chosen file: its name's extension, then its size. */
export function checkStockFile(file: { name: string; size: number }): string | null {
  const name = file.name.toLowerCase()
  if (!STOCK_FILE_EXTENSIONS.some((extension) => name.endsWith(extension)))
    return STOCK_MESSAGES.fileType
  if (file.size > STOCK_IMPORT_MAX_BYTES) return STOCK_MESSAGES.tooLarge
  return null
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')
/** A file input left empty still sends a part, with no name and no bytes: that is no file. */
const chosenFile = (value: unknown) =>
  typeof File !== 'undefined' && value instanceof File && (value.size > 0 || value.name !== '')
    ? value
    : undefined

/** Import: pasted lines or one file (not both, not neither), within the type and size limits. */
export const stockImportSchema = z
  .object({
    intent: z.literal('import'),
    content: z.preprocess(text, z.string()),
    file: z.preprocess(chosenFile, z.custom<File>().optional()),
  })
  .superRefine(({ content, file }, context) => {
    const hasPaste = content.trim() !== ''
    const problem = (path: 'content' | 'file', message: string) =>
      context.addIssue({ code: 'custom', path: [path], message })
    if (file && hasPaste) problem('file', STOCK_MESSAGES.both)
    else if (!file && !hasPaste) problem('content', STOCK_MESSAGES.nothing)
    else if (file) {
      const found = checkStockFile(file)
      if (found) problem('file', found)
    } else if (new TextEncoder().encode(content).length > STOCK_IMPORT_MAX_BYTES) {
      problem('content', STOCK_MESSAGES.tooLarge)
    }
  })

/** Revoke one item (asked first: `confirmed=yes` once the admin has said yes). */
export const stockRevokeSchema = z.object({
  intent: z.literal('revoke'),
  itemId: z.preprocess(text, z.string()),
  status: z.preprocess(text, z.string()),
  page: z.preprocess(text, z.string()),
  confirmed: z.preprocess(text, z.string()),
})

/** Every form the stock page posts, told apart by its intent. */
export const stockActionSchema = z.discriminatedUnion('intent', [
  stockImportSchema,
  stockRevokeSchema,
])

const count = new Intl.NumberFormat('en-IN')
const plural = (n: number, one: string, many: string) =>
  `${count.format(n)} ${n === 1 ? one : many}`

/** "(line 4)", "(lines 4, 9)", "(lines 1, 2, … and 80 more)": the reported ones of `total`. */
function lineList(lines: readonly number[], total: number): string {
  if (total === 0) return ''
  const shown = lines.map((line) => count.format(line)).join(', ')
  const more = total - lines.length
  const label = total === 1 ? 'line' : 'lines'
  return more > 0 ? ` (${label} ${shown} and ${count.format(more)} more)` : ` (${label} ${shown})`
}

/** What importStock reports; importSummaryText puts it in the admin's words. */
export interface StockImportSummary {
  added: number
  duplicates: number
  invalid: number
  /** Line numbers (1-based) of the first few duplicates and invalid lines, for the admin. */
  duplicateLines: number[]
  invalidLines: number[]
  /** Orders waiting for stock that the new items filled. */
  filled: number
  /**
   * Items skipped because another product holds them (any status): each item goes to one buyer
   * only (docs/delivery.md, "One product per item"). Counted apart from `duplicates`.
   */
  elsewhere: number
  /** The first few of their line numbers. */
  elsewhereLines: number[]
  /** The titles of the products holding them (the first few; ELSEWHERE_NOT_NAMED for a deleted one). */
  elsewhereProducts: string[]
  /** How many products hold them, named or not. */
  elsewhereProductCount: number
}

/** How a product that held an item and was deleted since is named (its sold items remain). */
export const DELETED_PRODUCT = 'a deleted product'

/** "StreamVerse Premium 1 Month", "A and B", "A, B and 3 other products". */
export function productNames(
  summary: Pick<StockImportSummary, 'elsewhereProducts' | 'elsewhereProductCount'>,
): string {
  const names = summary.elsewhereProducts
  const more = summary.elsewhereProductCount - names.length
  if (more > 0) return `${names.join(', ')} and ${plural(more, 'other product', 'other products')}`
  if (names.length <= 1) return names[0] ?? ''
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/** "2 skipped: already in stock under StreamVerse Premium 1 Month (lines 4, 5)" */
export function elsewhereText(summary: StockImportSummary): string {
  return `${count.format(summary.elsewhere)} skipped: already in stock under ${productNames(summary)}${lineList(summary.elsewhereLines, summary.elsewhere)}`
}

/** "3 added, 1 duplicate skipped (line 4), 1 invalid (line 5)" */
export function importSummaryText(summary: StockImportSummary): string {
  return [
    `${count.format(summary.added)} added`,
    `${plural(summary.duplicates, 'duplicate', 'duplicates')} skipped${lineList(summary.duplicateLines, summary.duplicates)}`,
    ...(summary.elsewhere > 0 ? [elsewhereText(summary)] : []),
    `${count.format(summary.invalid)} invalid${lineList(summary.invalidLines, summary.invalid)}`,
  ].join(', ')
}

/** How many orders waiting for stock the import delivered. */
export function filledOrdersText(filled: number): string {
  if (filled === 0) return 'No paid orders were waiting for this stock.'
  return `${plural(filled, 'waiting order', 'waiting orders')} filled and delivered.`
}
