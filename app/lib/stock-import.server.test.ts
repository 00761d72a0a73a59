import { describe, expect, it } from 'vitest'
import { parseStockInput } from './stock-import.server'
import { StockImportError } from './stock-parse'

const fields = (...pairs: Array<[string, string]>) => ({
  kind: 'fields',
  fields: pairs.map(([name, value]) => ({ name, value })),
})

describe('stock pasted as lines', () => {
  it('takes one item per line, trimmed, and skips empty lines with any line ending', () => {
    const parsed = parseStockInput('\uFEFFKEY-1\r\n\r\n  KEY-2  \rKEY-3\n', 'lines')
    expect(parsed.items).toEqual([
      { line: 1, secret: { kind: 'text', text: 'KEY-1' } },
      { line: 3, secret: { kind: 'text', text: 'KEY-2' } },
      { line: 4, secret: { kind: 'text', text: 'KEY-3' } },
    ])
    expect(parsed.invalidLines).toEqual([])
  })

  it('reports a line with control characters or over the length limit by its number', () => {
    const parsed = parseStockInput(`ok\nbad\u0001line\n${'x'.repeat(4001)}\nfine`, 'lines')
    expect(parsed.items.map((item) => item.line)).toEqual([1, 4])
    expect(parsed.invalidLines).toEqual([2, 3])
  })
})

describe('stock uploaded as CSV', () => {
  it('names fields after the header, lower-cased, and trims values inside quotes too', () => {
    const parsed = parseStockInput('Email , Password,Note\na@b.in, " p,w " ,first\n', 'csv')
    expect(parsed.items).toEqual([
      { line: 2, secret: fields(['email', 'a@b.in'], ['password', 'p,w'], ['note', 'first']) },
    ])
  })

  it('gives each record the line it starts on, across quoted line breaks and blank lines', () => {
    const csv = [
      'email,password,note',
      'a@b.in,one,"two',
      'lines"',
      '',
      '   ',
      'c@d.in,"say ""hi""",',
      'e@f.in,pa"ss,x',
    ].join('\r\n')
    const parsed = parseStockInput(csv, 'csv')
    expect(parsed.items).toEqual([
      { line: 2, secret: fields(['email', 'a@b.in'], ['password', 'one'], ['note', 'two\nlines']) },
      { line: 6, secret: fields(['email', 'c@d.in'], ['password', 'say "hi"'], ['note', '']) },
      { line: 7, secret: fields(['email', 'e@f.in'], ['password', 'pa"ss'], ['note', 'x']) },
    ])
  })

  it('reports rows with the wrong number of cells, only notes, or a bad value, and keeps the rest', () => {
    const csv = 'email,password,note\na,b\nc,d,e,f\n,,just a note\ng,h\u0002,i\nj,k,l'
    const parsed = parseStockInput(csv, 'csv')
    expect(parsed.invalidLines).toEqual([2, 3, 4, 5])
    expect(parsed.items.map((item) => item.line)).toEqual([6])
  })

  it('refuses a header that does not name each column once, or names only notes', () => {
    expect(() => parseStockInput('email,,note\nx,y,z', 'csv')).toThrow(StockImportError)
    expect(() => parseStockInput('email,EMAIL\nx,y', 'csv')).toThrow(StockImportError)
    expect(() => parseStockInput('note,remarks\nx,y', 'csv')).toThrow(/besides notes/)
  })

  it('refuses a file whose quotes are broken, naming the line, instead of guessing', () => {
    expect(() => parseStockInput('email,password\na,"open\nb,c\n', 'csv')).toThrow(/never closed/)
    expect(() => parseStockInput('email,password\na,b\nc,"d"e\n', 'csv')).toThrow(
      /^Line 3 of the CSV file has text after a closing quote/,
    )
  })

  it('reads an empty file or only a header as no items', () => {
    expect(parseStockInput('', 'csv')).toEqual({ items: [], invalidLines: [] })
    expect(parseStockInput('email,password\n\n', 'csv')).toEqual({ items: [], invalidLines: [] })
  })
})
