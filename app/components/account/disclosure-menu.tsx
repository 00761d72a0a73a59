import { useEffect, useRef, type ReactNode } from 'react'
import { useLocation } from 'react-router'
import { cn } from '~/components/ui/cn'

/**
 * A menu that opens under its button: a native <details>, so it opens and its links work
 * without JavaScript. With JavaScript it also closes on Escape (focus back on the button), on a
 * click outside it, and when the page changes.
 */
export function DisclosureMenu({
  summary,
  summaryLabel,
  summaryClassName,
  className,
  panelClassName,
  children,
}: {
  summary: ReactNode
  /** The button's accessible name when its content is not words enough. */
  summaryLabel?: string
  summaryClassName?: string
  className?: string
  panelClassName?: string
  children: ReactNode
}) {
  const ref = useRef<HTMLDetailsElement>(null)
  const { pathname, search } = useLocation()

  useEffect(() => {
    // A new page (a link in the menu was followed) closes it.
    if (ref.current) ref.current.open = false
  }, [pathname, search])

  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const details = ref.current
      if (details?.open && event.target instanceof Node && !details.contains(event.target)) {
        details.open = false
      }
    }
    const onKey = (event: KeyboardEvent) => {
      const details = ref.current
      if (event.key !== 'Escape' || !details?.open) return
      details.open = false
      details.querySelector('summary')?.focus()
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [])

  return (
    <details ref={ref} className={cn('group relative', className)}>
      <summary
        aria-label={summaryLabel}
        className={cn(
          'flex cursor-pointer list-none items-center gap-2 rounded-xl [&::-webkit-details-marker]:hidden',
          summaryClassName,
        )}
      >
        {summary}
      </summary>
      <div
        className={cn(
          'absolute z-50 mt-2 rounded-xl border border-slate-200 bg-white p-1.5 shadow-xl dark:border-slate-700 dark:bg-slate-900',
          panelClassName,
        )}
      >
        {children}
      </div>
    </details>
  )
}
