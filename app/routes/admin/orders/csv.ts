/**
 * CSV for spreadsheets (RFC 4180: comma separated, CRLF line ends, quotes doubled), safe to
 * open in Excel, LibreOffice or Google Sheets: a cell a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) gets a leading apostrophe, so a customer
 * named "=HYPERLINK(...)" stays text (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  // Numbers we write ourselves (amounts) are data, not formulas; only text is guarded.
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text
}

export function csvLine(
  cells: ReadonlyArray<string | number | boolean | null | undefined>,
): string {
  return `${cells.map(csvCell).join(',')}\r\n`
}
