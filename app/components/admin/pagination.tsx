import ChevronLeft from 'lucide-react/icons/chevron-left'
import ChevronRight from 'lucide-react/icons/chevron-right'
import { Link } from 'react-router'

/**
 * The pages to offer around the current one: first, last, and two either side, with gaps
 * (null) between: 1 … 4 5 [6] 7 8 … 250.
 */
export function pageWindow(page: number, pageCount: number, around = 2): (number | null)[] {
  const pages = new Set<number>([1, pageCount])
  for (let n = page - around; n <= page + around; n += 1) if (n >= 1 && n <= pageCount) pages.add(n)
  const sorted = [...pages].sort((a, b) => a - b)
  const out: (number | null)[] = []
  for (const [index, n] of sorted.entries()) {
    const previous = sorted[index - 1]
    if (previous !== undefined && n - previous > 1)
      out.push(previous + 1 === n - 1 ? previous + 1 : null)
    out.push(n)
  }
  return out
}

const cell =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-lg px-2 text-sm font-medium'

/** Links to pages (plain links: they work without JavaScript and can be bookmarked). */
export function Pagination({
  page,
  pageCount,
  href,
}: {
  page: number
  pageCount: number
  href: (page: number) => string
}) {
  const link = `${cell} text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800`
  const off = `${cell} cursor-not-allowed text-slate-400 dark:text-slate-600`
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Page {page} of {pageCount}
      </p>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          {page > 1 ? (
            <Link to={href(page - 1)} className={link} rel="prev">
              <ChevronLeft aria-hidden="true" className="size-4" />
              <span className="sr-only sm:not-sr-only">Previous</span>
            </Link>
          ) : (
            <span aria-disabled="true" className={off}>
              <ChevronLeft aria-hidden="true" className="size-4" />
              <span className="sr-only sm:not-sr-only">Previous</span>
            </span>
          )}
        </li>
        {pageWindow(page, pageCount).map((n, index) =>
          n === null ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-slate-400">
              …
            </li>
          ) : (
            <li
              key={n}
              className={n === page || n === 1 || n === pageCount ? '' : 'hidden sm:block'}
            >
              {n === page ? (
                <span aria-current="page" className={`${cell} bg-brand-600 text-white`}>
                  <span className="sr-only">Page </span>
                  {n}
                </span>
              ) : (
                <Link to={href(n)} className={link}>
                  <span className="sr-only">Page </span>
                  {n}
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          {page < pageCount ? (
            <Link to={href(page + 1)} className={link} rel="next">
              <span className="sr-only sm:not-sr-only">Next</span>
              <ChevronRight aria-hidden="true" className="size-4" />
            </Link>
          ) : (
            <span aria-disabled="true" className={off}>
              <span className="sr-only sm:not-sr-only">Next</span>
              <ChevronRight aria-hidden="true" className="size-4" />
            </span>
          )}
        </li>
      </ul>
    </nav>
  )
}

/** The pages at the foot of an admin list's card; nothing when everything fits on one. */
export function ListPagination(props: {
  page: number
  pageCount: number
  href: (page: number) => string
}) {
  if (props.pageCount <= 1) return null
  return (
    <div className="border-t border-slate-200 p-4 dark:border-slate-800">
      <Pagination {...props} />
    </div>
  )
}
