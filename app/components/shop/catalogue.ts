/**
 * Filtering of the services section: by category chip (compared case-insensitively, as the
 * spec says) and by a search text matched against title, category and tags. Runs on the server
 * for the first render and in the browser after, from the same URL parameters.
 */
export interface Filterable {
  title: string
  category: string
  tags: readonly string[]
}

export const CATEGORY_PARAM = 'category'
export const SEARCH_PARAM = 'q'

export function sameCategory(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase('en-IN') === b.trim().toLocaleLowerCase('en-IN')
}

function words(text: string): string[] {
  return text.toLocaleLowerCase('en-IN').split(/\s+/).filter(Boolean)
}

/** Every word of the search must appear in the title, the category or a tag. */
export function matchesSearch(product: Filterable, search: string): boolean {
  const wanted = words(search)
  if (wanted.length === 0) return true
  const haystack = [product.title, product.category, ...product.tags]
    .join(' \n ')
    .toLocaleLowerCase('en-IN')
  return wanted.every((word) => haystack.includes(word))
}

export function filterProducts<T extends Filterable>(
  products: readonly T[],
  filter: { category?: string | null; search?: string | null },
): T[] {
  const category = filter.category?.trim()
  return products.filter(
    (product) =>
      (!category || sameCategory(product.category, category)) &&
      matchesSearch(product, filter.search ?? ''),
  )
}

/**
 * The chips: the known categories in their display order, then any other category a product
 * uses; only categories with at least one product (an empty chip would lead nowhere).
 */
export function categoryChips(known: readonly string[], products: readonly Filterable[]): string[] {
  const used = new Set(products.map((product) => product.category.toLocaleLowerCase('en-IN')))
  const chips = known.filter((name) => used.has(name.toLocaleLowerCase('en-IN')))
  for (const product of products) {
    if (!chips.some((chip) => sameCategory(chip, product.category))) chips.push(product.category)
  }
  return chips
}
