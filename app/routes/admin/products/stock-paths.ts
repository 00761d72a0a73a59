import { adminStockPath } from '~/lib/paths'
import type { StockItemStatus } from '~/data/stock.server'

/** The stock page's filters and URLs, shared by its loader, its action and its component. */
export const STATUSES = [
  'available',
  'held',
  'delivered',
  'revoked',
] as const satisfies readonly StockItemStatus[]

export function parseStatus(value: string | null): StockItemStatus | null {
  return STATUSES.find((status) => status === value) ?? null
}

/** Back to the page as it was (filter, page), optionally asking to confirm a revoke. */
export function pageUrl(
  id: string,
  state: { status?: string | null; page?: string | number | null; confirmRevoke?: string | null },
): string {
  const params = new URLSearchParams()
  const status = parseStatus(state.status ?? null)
  if (status) params.set('status', status)
  const page = Number(state.page ?? 1)
  if (Number.isInteger(page) && page > 1) params.set('page', String(page))
  if (state.confirmRevoke) params.set('confirmRevoke', state.confirmRevoke)
  const query = params.toString()
  return query ? `${adminStockPath(id)}?${query}` : adminStockPath(id)
}
