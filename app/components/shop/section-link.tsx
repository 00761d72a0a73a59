import type { ReactNode } from 'react'
import { href, Link, useLocation } from 'react-router'

export type HomeSection = 'services' | 'process' | 'whatsapp' | 'featured'

/**
 * A link to a section of the home page. On the home page it scrolls there (keeping the current
 * filter); from any other page it goes to / first and React Router scrolls to the hash.
 */
/** What section links' targets depend on (the query on the home page), for a StaticMarkup key. */
export function useSectionLinksKey(): string {
  const location = useLocation()
  return location.pathname === '/' ? `/${location.search}` : ''
}

export function SectionLink({
  section,
  className,
  children,
}: {
  section: HomeSection
  className?: string
  children: ReactNode
}) {
  const location = useLocation()
  const onHome = location.pathname === '/'
  return (
    <Link
      to={{ pathname: href('/'), search: onHome ? location.search : '', hash: `#${section}` }}
      className={className}
    >
      {children}
    </Link>
  )
}
