import { describe, expect, it } from 'vitest'
import {
  invalidLinesText,
  invalidStockLines,
  parseStockInput,
  PASTED_HEADER_MESSAGE,
} from './stock-import.server'
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

describe('a CSV header pasted as lines', () => {
  it('refuses the whole paste when its first line names only known columns', () => {
    for (const content of [
      'email,password,note\nalpha@example.test,Alpha-Pass-1,first',
      '\n  Email , PASSWORD\na@b.in,pw',
      '"username";"password";"remarks"\nu;p;r',
      'Licence Key\tnotes\nKEY-1\tfirst',
      'key\nKEY-1\nKEY-2',
      'email:password\na@b.in:pw',
      'Email Address,Password\na@b.in,pw',
      'login | pass\nu | p',
    ]) {
      expect(() => parseStockInput(content, 'lines'), content).toThrow(PASTED_HEADER_MESSAGE)
    }
  })

  it('takes a first line with anything besides column names as an item', () => {
    for (const content of [
      'user@example.com / password',
      'email: a@b.in, password: pw',
      'KEY-1,KEY-2',
      'alpha@example.test,Alpha-Pass-1,first\nemail,password',
    ]) {
      expect(parseStockInput(content, 'lines').items[0]!.secret, content).toEqual({
        kind: 'text',
        text: content.split('\n')[0],
      })
    }
  })

  it('reads a header in a .csv file as its columns', () => {
    expect(parseStockInput('key,note\nKEY-1,first', 'csv').items).toEqual([
      { line: 2, secret: fields(['key', 'KEY-1'], ['note', 'first']) },
    ])
  })
})

describe('the lines an import leaves out, with why', () => {
  it('gives each invalid line its reason, as the import counts them', () => {
    const pasted = `ok\nbad\u0001line\n${'x'.repeat(4001)}\nfine\n${'y'.repeat(4001)}\u0002`
    expect(invalidStockLines(pasted, 'lines')).toEqual([
      { line: 2, reason: 'control' },
      { line: 3, reason: 'tooLong' },
      { line: 5, reason: 'tooLong' },
    ])
    expect(parseStockInput(pasted, 'lines').invalidLines).toEqual([2, 3, 5])

    const csv = `email,password,note\na,b\nc,d,e,f\n,,just a note\ng,h\u0002,i\nj,${'k'.repeat(4001)},l\nm,n,o`
    expect(invalidStockLines(csv, 'csv')).toEqual([
      { line: 2, reason: 'columns' },
      { line: 3, reason: 'columns' },
      { line: 4, reason: 'noValue' },
      { line: 5, reason: 'control' },
      { line: 6, reason: 'valueTooLong' },
    ])
    expect(parseStockInput(csv, 'csv').invalidLines).toEqual([2, 3, 4, 5, 6])
  })

  it('puts them in words by reason, naming the first ten lines of each', () => {
    const tooLong = Array.from({ length: 12 }, (_, i) => ({
      line: i + 1,
      reason: 'tooLong' as const,
    }))
    expect(
      invalidLinesText([
        { line: 1, reason: 'tooLong' },
        { line: 2, reason: 'tooLong' },
        { line: 3, reason: 'tooLong' },
        { line: 1_004, reason: 'control' },
        { line: 5, reason: 'columns' },
        { line: 6, reason: 'columns' },
        { line: 7, reason: 'noValue' },
        { line: 8, reason: 'valueTooLong' },
      ]),
    ).toBe(
      '8 lines not imported: lines 1, 2 and 3 are longer than 4,000 characters; line 8 has a value ' +
        'longer than 4,000 characters; line 1,004 contains control characters; lines 5 and 6 have ' +
        'the wrong number of columns; line 7 has only empty values or notes',
    )
    expect(invalidLinesText(tooLong)).toBe(
      '12 lines not imported: lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more are longer than 4,000 characters',
    )
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
