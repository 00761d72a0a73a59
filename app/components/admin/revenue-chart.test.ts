import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { chartHasData, RevenueChart, type ChartPoint } from './revenue-chart'

const point = (label: string, revenue: number, orders: number): ChartPoint => ({
  label,
  revenue,
  rupees: revenue / 100,
  orders,
})

const render = (points: ChartPoint[]) =>
  renderToString(createElement(RevenueChart, { points, caption: 'Revenue, last 7 days' }))

describe("the dashboard's revenue chart", () => {
  it('says a period without revenue or paid orders is empty, instead of drawing a scale', () => {
    const empty = [point('5 Mar', 0, 0), point('6 Mar', 0, 0), point('7 Mar', 0, 0)]
    expect(chartHasData(empty)).toBe(false)
    const html = render(empty)
    expect(html).toContain('No revenue in this period')
    // No table of zeros either (the table stands in for the picture without JavaScript).
    expect(html).not.toContain('<table')
  })

  it('draws a period with one paid order, with its table', () => {
    const points = [point('5 Mar', 0, 0), point('6 Mar', 49_900, 1)]
    expect(chartHasData(points)).toBe(true)
    const html = render(points)
    expect(html).not.toContain('No revenue in this period')
    expect(html).toContain('<table')
    expect(html).toContain('₹499')
  })
})
