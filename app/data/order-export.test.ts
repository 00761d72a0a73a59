import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import v8 from 'node:v8'
import vm from 'node:vm'
import { parse } from 'csv-parse'
import { beforeAll, describe, expect, it } from 'vitest'
import { csvDownload, spreadsheetSafe } from '~/lib/csv.server'
import { fileTestDb } from '../../tests/helpers/db'
import { exportAdminOrders, type AdminOrderRow } from './order-admin.server'

/**
 * The orders export at size: 100,000 orders streamed from the database through csv-stringify,
 * on both engines, with memory that does not grow with the number of rows, and a file that
 * csv-parse reads back to exactly the rows.
 */
const ROWS = 100_000

// A real collection in the middle of the stream measures what the export holds, not garbage.
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

const t = fileTestDb()

/** A few customers whose names a CSV writer gets wrong easily. */
const NAMES = [
  'Asha Verma',
  'Verma, Asha',
  'Ravi "RK" Kumar',
  'दीपिका पादुकोण',
  '=HYPERLINK("x")',
  'two\nlines',
]

beforeAll(async () => {
  // Written in bulk: 100,000 checkouts through createOrder would take minutes, and the rows
  // only need the columns the export reads.
  const start = Date.parse('2026-01-01T00:00:00.000Z')
  for (let offset = 0; offset < ROWS; offset += 1000) {
    const values = Array.from({ length: 1000 }, (_, i) => {
      const n = offset + i
      const at = new Date(start + Math.floor(n / 2) * 1000).toISOString()
      return {
        id: `ORD_${start + n}_${n % 1000}`,
        status: n % 3 === 0 ? ('paid' as const) : ('pending' as const),
        productName: n % 2 ? 'Netflix Premium ₹649' : 'Office 365, 1 year',
        amount: 64_900 + n,
        customerName: NAMES[n % NAMES.length] ?? '',
        customerEmail: `buyer${n}@example.test`,
        customerPhone: `+91 98${String(n).padStart(8, '0')}`,
        gatewayTxnId: n % 3 === 0 ? `TXN${n}` : null,
        accessTokenHash: crypto.createHash('sha256').update(String(n)).digest('hex'),
        createdAt: at,
        updatedAt: at,
      }
    })
    await t.db.insertInto('order').values(values).execute()
  }
}, 120_000)

const cellsOf = (row: AdminOrderRow) => [
  row.id,
  row.createdAt,
  row.customerName,
  row.customerEmail,
  row.customerPhone,
  row.productName,
  row.amount,
  row.status,
  row.gatewayTxnId ?? '',
]

const digest = () => crypto.createHash('sha256')

describe('orders CSV export at 100,000 rows', () => {
  it('lets the shop read and write while a download is under way, and lets go when it is dropped', async () => {
    const rows = exportAdminOrders(t.db, {})
    expect((await rows.next()).done).toBe(false)
    // The export is mid-stream; a payment callback must not wait for the download to end.
    await t.db
      .updateTable('order')
      .set({ status: 'paid' })
      .where('id', '=', `ORD_${Date.parse('2026-01-01T00:00:00.000Z') + 1}_1`)
      .execute()
    const { count } = await t.db
      .selectFrom('order')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow()
    expect(Number(count)).toBe(ROWS)
    await rows.return(undefined)
  })

  it('streams every row with memory that does not grow with the rows, and parses back to them', async () => {
    gc()
    const baseline = process.memoryUsage().heapUsed
    let held = 0
    let converted = 0
    const response = csvDownload({
      filename: 'orders.csv',
      header: [
        'Order ID',
        'Date',
        'Customer Name',
        'Email',
        'Phone',
        'Product',
        'Amount',
        'Status',
        'Transaction ID',
      ],
      rows: exportAdminOrders(t.db, {}),
      toCells: (row) => {
        converted += 1
        if (converted % 10_000 === 0) {
          gc()
          held = Math.max(held, process.memoryUsage().heapUsed - baseline)
        }
        return cellsOf(row)
      },
    })

    // Read as a client would, keeping only a running digest of the parsed records.
    const parser = Readable.fromWeb(
      response.body as unknown as NodeReadableStream<Uint8Array>,
    ).pipe(parse({ bom: true, relax_column_count: false }))
    const parsed = digest()
    let records = 0
    let header: string[] = []
    for await (const record of parser as AsyncIterable<string[]>) {
      if (records === 0) header = record
      else parsed.update(JSON.stringify(record))
      records += 1
    }
    expect(header[0]).toBe('Order ID')
    expect(records).toBe(ROWS + 1)

    // The same rows read at once, as plain text the way a spreadsheet shows them.
    const all = await t.db
      .selectFrom('order')
      .select([
        'id',
        'createdAt',
        'customerName',
        'customerEmail',
        'customerPhone',
        'productName',
        'amount',
        'status',
        'gatewayTxnId',
      ])
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute()
    gc()
    const allRowsHeld = process.memoryUsage().heapUsed - baseline
    const expected = digest()
    for (const row of all) {
      const cells = cellsOf({
        ...row,
        amount: Number(row.amount),
        gateway: '',
        testMode: false,
        hasOpenReport: false,
        refunded: 0,
        partRefunded: false,
        refundPending: false,
        refundProblem: false,
      })
      expected.update(
        JSON.stringify(
          cells.map((cell) => (typeof cell === 'string' ? spreadsheetSafe(cell) : String(cell))),
        ),
      )
    }
    expect(parsed.digest('hex')).toBe(expected.digest('hex'))

    // Mid-export the process held far less than the rows themselves take.
    expect(allRowsHeld).toBeGreaterThan(10 * 1024 * 1024)
    expect(held).toBeLessThan(allRowsHeld / 5)
  }, 180_000)
})
