import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import type { ChartPoint } from './revenue-chart'

/**
 * The dashboard's revenue (bars, rupees, left axis) and paid orders (line, right axis) per hour
 * or day, drawn by recharts in the browser only (app/components/admin/revenue-chart.tsx loads it
 * after hydration). Colours come from the theme's CSS variables and `currentColor`, so the
 * chart follows light and dark mode.
 */
const rupeesShort = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  notation: 'compact',
  maximumFractionDigits: 1,
})
const rupees = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 2,
})

export default function RevenueChartView({ points }: { points: ChartPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={points} margin={{ top: 8, right: 4, bottom: 0, left: 4 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
        <XAxis
          dataKey="label"
          tick={{ fill: 'currentColor', fontSize: 12 }}
          stroke="currentColor"
          strokeOpacity={0.4}
          minTickGap={12}
        />
        <YAxis
          yAxisId="revenue"
          tick={{ fill: 'currentColor', fontSize: 12 }}
          stroke="currentColor"
          strokeOpacity={0.4}
          tickFormatter={(value: number) => rupeesShort.format(value)}
          width={64}
        />
        <YAxis
          yAxisId="orders"
          orientation="right"
          allowDecimals={false}
          tick={{ fill: 'currentColor', fontSize: 12 }}
          stroke="currentColor"
          strokeOpacity={0.4}
          width={32}
        />
        <Tooltip
          cursor={{ fill: 'currentColor', fillOpacity: 0.08 }}
          contentStyle={{
            background: 'var(--chart-tooltip-bg)',
            border: '1px solid var(--chart-tooltip-border)',
            borderRadius: 12,
            color: 'inherit',
          }}
          formatter={(value, name) =>
            name === 'Revenue' ? rupees.format(Number(value)) : String(value)
          }
        />
        <Legend wrapperStyle={{ fontSize: 13 }} />
        <Bar
          yAxisId="revenue"
          dataKey="rupees"
          name="Revenue"
          fill="var(--color-brand-500)"
          radius={[4, 4, 0, 0]}
          isAnimationActive={false}
        />
        <Line
          yAxisId="orders"
          dataKey="orders"
          name="Paid orders"
          type="linear"
          stroke="var(--chart-line)"
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  )
}
