import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'

/**
 * The server's side of StaticMarkup (app/components/ui/static-markup.tsx): the HTML of
 * visitor-independent parts of pages, rendered once per key and reused by every page that
 * shows them. A key names everything its HTML shows, so a copy is never wrong, only unused;
 * copies are dropped all at once when the shop's data changes (server/index.ts, with the page
 * cache's version) or when they hold more than MAX_BYTES.
 */
const MAX_BYTES = 8 * 1024 * 1024

const copies = new Map<string, string>()
let bytes = 0

export function renderStaticMarkup(key: string, node: ReactNode): string {
  let html = copies.get(key)
  if (html === undefined) {
    html = renderToString(node)
    const size = key.length + html.length
    if (bytes + size > MAX_BYTES) forgetStaticMarkup()
    copies.set(key, html)
    bytes += size
  }
  return html
}

export function forgetStaticMarkup(): void {
  copies.clear()
  bytes = 0
}
