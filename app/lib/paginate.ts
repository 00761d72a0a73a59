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
