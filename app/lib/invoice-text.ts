/**
 * The text the invoice and credit note PDFs can print (app/services/invoice.server.ts), here so
 * the forms whose details go on them (the business's legal name and address) can check it too.
 *
 * pdfkit's built-in Helvetica is written in Windows-1252 (WinAnsi): Latin-1 plus a few
 * typographic characters that pdfkit maps to their WinAnsi codes itself, so they print as typed:
 * the curly quotes and apostrophe of phone keyboards (‘ ’ “ ”), the dashes (– —), the ellipsis
 * (…), and some more.
 */
const WIN_ANSI_EXTRA =
  '\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc' + // Œ œ Š š Ÿ Ž ž ƒ ˆ ˜
  '\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e' + // – — ‘ ’ ‚ “ ” „
  '\u2020\u2021\u2022\u2026\u2030\u2039\u203a\u20ac\u2122' // † ‡ • … ‰ ‹ › € ™

/** Anything else (other scripts, emoji): one "?" each. */
const UNPRINTABLE = new RegExp(`[^\\n\\u0020-\\u007e\\u00a0-\\u00ff${WIN_ANSI_EXTRA}]`, 'gu')

/** Characters WinAnsi lacks that have a plain look-alike in it. */
const LOOK_ALIKES: Record<string, string> = {
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2212': '-', // minus sign
  '\u201b': "'", // reversed apostrophe
  '\u2032': "'", // prime
  '\u201f': '"', // reversed double quote
  '\u2033': '"', // double prime
}
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu')

/**
 * The text as it can be printed, before anything is given up: accents typed as separate marks
 * joined to their letter (NFC), a form's line ends (\r\n) as \n, tabs and the narrow and other
 * Unicode spaces as a space, invisible format characters (zero-width space, direction marks,
 * soft hyphen) dropped, and the look-alikes swapped in.
 */
function printable(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\t\u2000-\u200a\u202f\u205f\u3000]/g, ' ')
    .replace(/\p{Cf}/gu, '')
    .replace(LOOK_ALIKE, (c) => LOOK_ALIKES[c] ?? c)
}

/** Text Helvetica can print: WinAnsi only; any other character becomes "?". */
export function invoiceText(text: string): string {
  return printable(text).replace(UNPRINTABLE, '?')
}

/** Whether the text prints on an invoice as typed, with no "?" for a character it lacks. */
export function printsOnInvoice(text: string): boolean {
  return printable(text).search(UNPRINTABLE) === -1
}
