import ChartColumn from 'lucide-react/icons/chart-column'
import { lazy, Suspense } from 'react'
import { useHydrated } from '~/components/ui/use-hydrated'
import { formatRupees } from '~/lib/money'

/**
 * The dashboard's chart of revenue and paid orders over the period, with a table of the same
 * figures for screen readers (and for anyone without JavaScript, who sees the table instead of
 * the picture); a period with nothing sold says so instead of drawing empty axes. The picture is drawn after hydration: recharts measures its container, which
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

/** Whether the period has anything to draw: some revenue or some paid order in a bucket. */
export function chartHasData(points: readonly ChartPoint[]): boolean {
  return points.some((point) => point.revenue !== 0 || point.orders !== 0)
}

export function RevenueChart({ points, caption }: { points: ChartPoint[]; caption: string }) {
  const hydrated = useHydrated()
  if (!chartHasData(points)) {
    // Nothing was sold: an axis of ₹0 to ₹4 around a flat line would look like figures, so the
    // chart's place says so in words instead.
    return (
      <div className="flex h-64 flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-slate-300 px-4 text-center sm:h-72 dark:border-slate-700">
        <ChartColumn aria-hidden="true" className="size-10 text-slate-400" />
        <p className="font-semibold text-slate-950 dark:text-white">No revenue in this period</p>
        <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">
          Real orders paid in this period show here. Test-mode payments (the built-in simulators, a
          gateway&apos;s test environment) are not counted.
        </p>
      </div>
    )
  }
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
