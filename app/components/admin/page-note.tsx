import type Info from 'lucide-react/icons/info'
import type { ReactNode } from 'react'

const TONES = {
  /** Something the admin should know before acting (test mode, a delivery mode). */
  amber:
    'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100',
  /** Work under way (orders waiting for stock). */
  sky: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950/40 dark:text-sky-100',
}

/** A note across an admin page, above its content: an icon and a paragraph. */
export function PageNote({
  tone,
  icon: Icon,
  label,
  children,
}: {
  tone: keyof typeof TONES
  icon: typeof Info
  /** The note's accessible name, where the page has more than one kind of note. */
  label?: string
  /** The paragraph's content. */
  children: ReactNode
}) {
  return (
    <div
      role="note"
      aria-label={label}
      className={`flex items-start gap-2 rounded-2xl border p-4 text-sm ${TONES[tone]}`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>{children}</p>
    </div>
  )
}
