/**
 * The query string of an admin list's URL (orders, transactions, users, the audit log): the
 * filters that are set, in the order given, then the page when it is past the first. Empty
 * values are left out, so an unfiltered first page has no query at all.
 */
export function listQuery(values: Record<string, string | null | undefined>, page = 1): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) if (value) params.set(name, value)
  if (page > 1) params.set('page', String(page))
  const query = params.toString()
  return query ? `?${query}` : ''
}
