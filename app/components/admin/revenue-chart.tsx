import { lazy, Suspense } from 'react'
import { useHydrated } from '~/components/ui/use-hydrated'
import { formatRupees } from '~/lib/money'

/**
 * The dashboard's chart of revenue and paid orders over the period, with a table of the same
 * figures for screen readers (and for anyone without JavaScript, who sees the table instead of
 * the picture). The picture is drawn after hydration: recharts measures its container, which
 * the server cannot, and it stays out of every other page's scripts.
 */
export interface ChartPoint {
  /** The hour ("14:00") or day ("5 Mar") in the shop's time zone. */
  label: string
  /** Paise. */
  revenue: number
  /** Rupees, for the axis. */
  rupees: number
  orders: number
}

const RevenueChartView = lazy(() => import('./revenue-chart-view'))

export function RevenueChart({ points, caption }: { points: ChartPoint[]; caption: string }) {
  const hydrated = useHydrated()
  return (
    <div className="[--chart-line:var(--color-amber-600)] [--chart-tooltip-bg:var(--color-white)] [--chart-tooltip-border:var(--color-slate-200)] dark:[--chart-line:var(--color-amber-400)] dark:[--chart-tooltip-bg:var(--color-slate-900)] dark:[--chart-tooltip-border:var(--color-slate-700)]">
      {hydrated ? (
        <div aria-hidden="true" className="h-64 text-slate-600 sm:h-72 dark:text-slate-300">
          <Suspense fallback={null}>
            <RevenueChartView points={points} />
          </Suspense>
        </div>
      ) : null}
      <table className={hydrated ? 'sr-only' : 'w-full text-left text-sm'}>
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-1 pr-2">
              Period
            </th>
            <th scope="col" className="px-2 py-1 text-right">
              Revenue
            </th>
            <th scope="col" className="py-1 pl-2 text-right">
              Paid orders
            </th>
          </tr>
        </thead>
        <tbody className="tabular-nums text-slate-800 dark:text-slate-200">
          {points.map((point, index) => (
            <tr key={index}>
              <th scope="row" className="py-1 pr-2 font-normal">
                {point.label}
              </th>
              <td className="px-2 py-1 text-right">{formatRupees(point.revenue)}</td>
              <td className="py-1 pl-2 text-right">{point.orders}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
