import { describe, expect, it } from 'vitest'
import {
  checkStockFile,
  filledOrdersText,
  importSummaryText,
  STOCK_IMPORT_MAX_BYTES,
  STOCK_MESSAGES,
} from './stock-import'

const summary = (overrides: Partial<Parameters<typeof importSummaryText>[0]> = {}) => ({
  added: 0,
  duplicates: 0,
  invalid: 0,
  duplicateLines: [],
  invalidLines: [],
  filled: 0,
  elsewhere: 0,
  elsewhereLines: [],
  elsewhereProducts: [],
  elsewhereProductCount: 0,
  ...overrides,
})

describe('the stock import summary', () => {
  it('says what was added, skipped and refused, with the line numbers', () => {
    expect(
      importSummaryText(
        summary({ added: 3, duplicates: 1, duplicateLines: [4], invalid: 1, invalidLines: [5] }),
      ),
    ).toBe('3 added, 1 duplicate skipped (line 4), 1 invalid (line 5)')
    expect(
      importSummaryText(summary({ added: 9_900, duplicates: 2, duplicateLines: [17, 1_002] })),
    ).toBe('9,900 added, 2 duplicates skipped (lines 17, 1,002), 0 invalid')
    expect(importSummaryText(summary())).toBe('0 added, 0 duplicates skipped, 0 invalid')
  })

  it('lists the first reported lines and how many more there are', () => {
    const lines = Array.from({ length: 20 }, (_, i) => i + 1)
    expect(importSummaryText(summary({ invalid: 100, invalidLines: lines }))).toBe(
      `0 added, 0 duplicates skipped, 100 invalid (lines ${lines.join(', ')} and 80 more)`,
    )
  })

  it('says how many waiting orders the import delivered', () => {
    expect(filledOrdersText(0)).toBe('No paid orders were waiting for this stock.')
    expect(filledOrdersText(1)).toBe('1 waiting order filled and delivered.')
    expect(filledOrdersText(1_200)).toBe('1,200 waiting orders filled and delivered.')
  })
})

describe('the stock file checks (both sides)', () => {
  it('takes .txt and .csv files in any case, and nothing else', () => {
    expect(checkStockFile({ name: 'keys.txt', size: 10 })).toBeNull()
    expect(checkStockFile({ name: 'Accounts.CSV', size: 10 })).toBeNull()
    for (const name of ['keys.xlsx', 'keys.txt.exe', 'keys', 'csv']) {
      expect(checkStockFile({ name, size: 10 })).toBe('Choose a .txt or .csv file')
    }
  })

  it('takes up to 5 MB (5,242,880 bytes), not one byte more', () => {
    expect(STOCK_IMPORT_MAX_BYTES).toBe(5_242_880)
    expect(checkStockFile({ name: 'a.csv', size: STOCK_IMPORT_MAX_BYTES })).toBeNull()
    expect(checkStockFile({ name: 'a.csv', size: STOCK_IMPORT_MAX_BYTES + 1 })).toBe(
      STOCK_MESSAGES.tooLarge,
    )
    expect(STOCK_MESSAGES.tooLarge).toBe(
      'Imports are limited to 5 MB at a time. Split the file into smaller ones.',
    )
  })
})
