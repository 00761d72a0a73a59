/**
 * The search box of the back-office lists (orders, transactions, users, products): how long a
 * search may be, the same in the box, in the URL and in the query that runs it.
 */
export const SEARCH_MAX = 100

/** The search a list's URL asks for (`?q=`): trimmed, and cut at SEARCH_MAX characters. */
export function searchParam(url: URL): string {
  return (url.searchParams.get('q') ?? '').trim().slice(0, SEARCH_MAX)
}
