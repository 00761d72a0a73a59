import { describe, expect, it } from 'vitest'
import { csvDownload, spreadsheetCsv, type CsvCell } from './csv.server'

/** What csv-stringify, configured as every export uses it, writes for these records. */
async function csvOf(...records: CsvCell[][]): Promise<string> {
  const csv = spreadsheetCsv()
  let out = ''
  csv.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
  const done = new Promise((resolve) => csv.on('end', resolve))
  for (const record of records) csv.write(record)
  csv.end()
  await done
  // The byte order mark leads the file.
  expect(out.startsWith('\uFEFF')).toBe(true)
  return out.slice(1)
}

describe('spreadsheet CSV', () => {
  it('quotes commas, quotes and line breaks, and leaves plain text alone', async () => {
    expect(
      await csvOf(
        ['ORD_1_2', 'Asha Verma', 'a,b', 'say "hi"', 'two\nlines', '', null],
        [' padded '],
      ),
    ).toBe('ORD_1_2,Asha Verma,"a,b","say ""hi""","two\nlines",,\r\n" padded "\r\n')
  })

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    expect(await csvOf(['=HYPERLINK("http://evil.test","Click")'])).toBe(
      `"'=HYPERLINK(""http://evil.test"",""Click"")"\r\n`,
    )
    expect(
      await csvOf(['+91 98765 43210', '-2+3', '@SUM(A1:A2)', '\tcmd', '\r=1', -5, '1499.00']),
    ).toBe(`'+91 98765 43210,'-2+3,'@SUM(A1:A2),'\tcmd,"'\r=1",-5,1499.00\r\n`)
    // A negative amount written as text stays a number a column sums; anything more is text.
    expect(await csvOf(['-84.79', '-100', '-1e3', '-84.79+1', '- 5', '-0x1F'])).toBe(
      `-84.79,-100,'-1e3,'-84.79+1,'- 5,'-0x1F\r\n`,
    )
  })

  it('sends a download with the header first, as the client reads', async () => {
    async function* rows() {
      yield { name: 'Asha, Verma', paise: 149900 }
      yield { name: '=cmd', paise: 0 }
    }
    const response = csvDownload({
      filename: 'orders-2026-05-01.csv',
      header: ['Name', 'Amount'],
      rows: rows(),
      toCells: (row) => [row.name, row.paise],
    })
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="orders-2026-05-01.csv"',
    )
    // response.text() would drop the byte order mark; the file must keep it.
    const bytes = await response.arrayBuffer()
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(
      `\uFEFFName,Amount\r\n"Asha, Verma",149900\r\n'=cmd,0\r\n`,
    )
  })
})
