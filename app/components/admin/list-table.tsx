import type { ReactNode } from 'react'

/**
 * The table of an admin list on wide screens (phones get a list of cards instead, which each
 * page draws itself): a caption for screen readers, column headings, and the rows, whose first
 * cell is a <th scope="row"> naming the row.
 */
const SHOWN_FROM = { lg: 'hidden overflow-x-auto lg:block', xl: 'hidden overflow-x-auto xl:block' }

export function ListTable({
  caption,
  columns,
  shownFrom,
  children,
}: {
  caption: string
  columns: ReadonlyArray<{ label: string; align?: 'right' }>
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
            {columns.map((column, index) => {
              const edge =
                index === 0 ? 'px-4' : index === columns.length - 1 ? 'pl-2 pr-4' : 'px-2'
              return (
                <th
                  key={column.label}
                  scope="col"
                  className={`${edge} py-3 font-semibold ${column.align === 'right' ? 'text-right' : ''}`}
                >
                  {column.label}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  )
}
