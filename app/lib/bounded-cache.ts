/**
 * A process-wide cache with a ceiling: `make()`'s value for `key`, made once and then kept in
 * `cache`. When more than `limit` entries are kept, the cache is emptied before the next one is
 * added, so a stream of distinct keys (a rotated secret, another merchant's settings) cannot
 * grow it without end, while the few keys a shop really uses stay found.
 */
export function cachedUpTo<V>(cache: Map<string, V>, limit: number, key: string, make: () => V): V {
  const known = cache.get(key)
  if (known !== undefined) return known
  const value = make()
  if (cache.size > limit) cache.clear()
  cache.set(key, value)
  return value
}
