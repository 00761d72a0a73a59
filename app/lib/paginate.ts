/**
 * Which page of a list to show, the same way in every paged list (products, orders, stock,
 * a customer's orders): the page size is the default when not given and kept within
 * [1, maxSize]; the page is kept within [1, pageCount], so a page past the end shows the last
 * one and a page that is not a number shows the first; `offset` is its first row.
 */
export interface Pagination {
  page: number
  pageSize: number
  pageCount: number
  offset: number
}

export function paginate(
  total: number,
  request: { page?: number; pageSize?: number },
  sizes: { defaultSize: number; maxSize: number },
): Pagination {
  const wanted = request.pageSize ?? sizes.defaultSize
  const pageSize = Number.isFinite(wanted)
    ? Math.min(Math.max(Math.trunc(wanted), 1), sizes.maxSize)
    : sizes.defaultSize
  const pageCount = Math.max(1, Math.ceil(total / pageSize))
  const page = Math.min(Math.max(Math.trunc(request.page ?? 1) || 1, 1), pageCount)
  return { page, pageSize, pageCount, offset: (page - 1) * pageSize }
}

/** The page a list's URL asks for (`?page=`); anything but a number is the first (paginate clamps the rest). */
export function pageParam(url: URL): number {
  return Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1
}

/** What a paged list's page shows about its paging: the page on screen, how many, their size, all rows. */
export interface PageView {
  number: number
  count: number
  size: number
  total: number
}

export function pageView(
  result: Pick<Pagination, 'page' | 'pageCount' | 'pageSize'>,
  total: number,
): PageView {
  return { number: result.page, count: result.pageCount, size: result.pageSize, total }
}
