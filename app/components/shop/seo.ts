import type { MetaDescriptor } from 'react-router'

/**
 * Page metadata for crawlers and link previews (WhatsApp, search engines do not run
 * JavaScript, so all of this is in the server-rendered HTML). URLs must be absolute.
 */
/** schema.org data as React Router's meta accepts it. */
export type JsonLd = Extract<MetaDescriptor, { 'script:ld+json': unknown }>['script:ld+json']

export interface SeoInput {
  title: string
  description: string
  siteName: string
  canonicalUrl: string
  imageUrl?: string | null
  keywords?: readonly string[]
  type?: 'website' | 'product'
  noIndex?: boolean
  jsonLd?: JsonLd
}

export function seoMeta(input: SeoInput): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [
    { title: input.title },
    { name: 'description', content: input.description },
    { tagName: 'link', rel: 'canonical', href: input.canonicalUrl },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:site_name', content: input.siteName },
    { property: 'og:locale', content: 'en_IN' },
    { property: 'og:title', content: input.title },
    { property: 'og:description', content: input.description },
    { property: 'og:url', content: input.canonicalUrl },
    { name: 'twitter:card', content: input.imageUrl ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: input.title },
    { name: 'twitter:description', content: input.description },
  ]
  const keywords = uniqueWords(input.keywords ?? [])
  if (keywords.length) tags.push({ name: 'keywords', content: keywords.join(', ') })
  if (input.imageUrl) {
    tags.push(
      { property: 'og:image', content: input.imageUrl },
      { property: 'og:image:width', content: '1200' },
      { property: 'og:image:height', content: '900' },
      { name: 'twitter:image', content: input.imageUrl },
    )
  }
  if (input.noIndex) tags.push({ name: 'robots', content: 'noindex' })
  if (input.jsonLd) tags.push({ 'script:ld+json': input.jsonLd })
  return tags
}

function uniqueWords(words: readonly string[]): string[] {
  const seen = new Set<string>()
  return words
    .map((word) => word.trim())
    .filter((word) => {
      const key = word.toLocaleLowerCase('en-IN')
      if (!word || seen.has(key)) return false
      seen.add(key)
      return true
    })
}

/** Shortens text for a meta description (160 characters, the spec's counter), on a word. */
export function metaDescription(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= max) return clean
  const cut = clean.slice(0, max - 1)
  const lastSpace = cut.lastIndexOf(' ')
  return `${(lastSpace > max * 0.6 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:]+$/, '')}…`
}
