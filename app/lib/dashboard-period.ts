/**
 * The dashboard's periods (?period=): today, or the last 7 or 30 days up to and including
 * today in the shop's time zone. Browser safe: the period switch and the data layer
 * (app/data/dashboard.server.ts) share it.
 */
export const DASHBOARD_PERIODS = ['today', '7d', '30d'] as const
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number]

export const PERIOD_DAYS: Record<DashboardPeriod, number> = { today: 1, '7d': 7, '30d': 30 }

export function isDashboardPeriod(value: unknown): value is DashboardPeriod {
  return typeof value === 'string' && (DASHBOARD_PERIODS as readonly string[]).includes(value)
}
