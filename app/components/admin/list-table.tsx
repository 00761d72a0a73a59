import { cva } from 'class-variance-authority'
import type { ReactNode } from 'react'

/**
 * The table of an admin list on wide screens (phones get a list of cards instead, which each
 * page draws itself): a caption for screen readers, column headings, and the rows, whose first
 * cell is a <th scope="row"> naming the row.
 */
const SHOWN_FROM = { lg: 'hidden overflow-x-auto lg:block', xl: 'hidden overflow-x-auto xl:block' }

/** The outer columns line up with the card's padding; the others keep a small gap. */
const edge = (index: number, count: number) =>
  index === 0 ? 'first' : index === count - 1 ? 'last' : 'middle'

const headingVariants = cva('py-3 font-semibold', {
  variants: {
    edge: { first: 'px-4', middle: 'px-2', last: 'pl-2 pr-4' },
    align: { left: '', right: 'text-right' },
  },
})

const cellVariants = cva('py-3', {
  variants: {
    edge: { first: '', middle: 'px-2', last: 'pl-2 pr-4' },
    align: { left: '', right: 'text-right' },
    look: {
      /** The cell's content brings its own look (badges, links, actions). */
      plain: '',
      text: 'text-slate-700 dark:text-slate-300',
      /** Text kept on one line (dates, a category). */
      line: 'whitespace-nowrap text-slate-700 dark:text-slate-300',
      count: 'tabular-nums text-slate-700 dark:text-slate-300',
      /** An amount in rupees, already formatted. */
      amount: 'whitespace-nowrap font-semibold tabular-nums text-slate-950 dark:text-white',
      code: 'font-mono text-xs text-slate-700 dark:text-slate-300',
    },
  },
})

type Align = 'left' | 'right'

/**
 * One column of an admin list's table: its heading and what each row shows in it, so that a
 * column's heading, alignment and cell are written once, side by side.
 */
export interface Column<Row> {
  label: string
  align?: Align
  /** How the cell's text looks (the first column names the row and keeps its own). */
  look?: 'plain' | 'text' | 'line' | 'count' | 'amount' | 'code'
  cell: (row: Row) => ReactNode
}

/** The table's frame for rows a page draws by hand (the stock items): caption and headings. */
export function ListTableFrame({
  caption,
  columns,
  shownFrom,
  children,
}: {
  caption: string
  columns: ReadonlyArray<{ label: string; align?: Align }>
  /** The width from which the table replaces the phone layout. */
  shownFrom: keyof typeof SHOWN_FROM
  /** The <tr> rows. */
  children: ReactNode
}) {
  return (
    <div className={SHOWN_FROM[shownFrom]}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
          <tr className="border-b border-slate-200 dark:border-slate-800">
            {columns.map((column, index) => (
              <th
                key={column.label}
                scope="col"
                className={headingVariants({
                  edge: edge(index, columns.length),
                  align: column.align,
                })}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  )
}

/** The table of an admin list, one row per item, drawn from its column definitions. */
export function ListTable<Row>({
  caption,
  columns,
  shownFrom,
  rows,
  rowKey,
}: {
  caption: string
  columns: ReadonlyArray<Column<Row>>
  shownFrom: keyof typeof SHOWN_FROM
  rows: readonly Row[]
  rowKey: (row: Row) => string
}) {
  return (
    <ListTableFrame caption={caption} columns={columns} shownFrom={shownFrom}>
      {rows.map((row) => (
        <tr key={rowKey(row)} className="hover:bg-slate-50 dark:hover:bg-slate-800/50">
          {columns.map((column, index) =>
            index === 0 ? (
              <th key={column.label} scope="row" className="py-3 pl-4 pr-2 text-left font-normal">
                {column.cell(row)}
              </th>
            ) : (
              <td
                key={column.label}
                className={cellVariants({
                  edge: edge(index, columns.length),
                  align: column.align,
                  look: column.look,
                })}
              >
                {column.cell(row)}
              </td>
            ),
          )}
        </tr>
      ))}
    </ListTableFrame>
  )
}
