import { describe, expect, it } from 'vitest'
import { csvCell, csvLine } from './csv'

describe('csv', () => {
  it('quotes commas, quotes and line breaks, and leaves plain text alone', () => {
    expect(csvLine(['ORD_1_2', 'Asha Verma', 'a,b', 'say "hi"', 'two\nlines', '', null])).toBe(
      'ORD_1_2,Asha Verma,"a,b","say ""hi""","two\nlines",,\r\n',
    )
    expect(csvCell(' padded ')).toBe('" padded "')
  })

  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil.test","Click")')).toBe(
      `"'=HYPERLINK(""http://evil.test"",""Click"")"`,
    )
    expect(csvCell('+91 98765 43210')).toBe("'+91 98765 43210")
    expect(csvCell('-2+3')).toBe("'-2+3")
    expect(csvCell('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)")
    expect(csvCell('\tcmd')).toBe("'\tcmd")
    expect(csvCell('\r=1')).toBe(`"'\r=1"`)
    // Our own numbers are data.
    expect(csvCell(-5)).toBe('-5')
    expect(csvCell('1499.00')).toBe('1499.00')
  })
})
