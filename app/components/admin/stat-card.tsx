import type Package from 'lucide-react/icons/package'

/**
 * One figure at the top of an admin page (the dashboard, the catalogue, a product's stock).
 * Meant for a <ul aria-label="..."> of them, so each figure is read with its label.
 */
export function StatCard({
  label,
  value,
  hint,
  icon: Icon,
  valueTestId,
}: {
  label: string
  /** Already formatted (en-IN digits, a rating, rupees). */
  value: string
  hint?: string
  /** Left out where a row of figures speaks for itself. */
  icon?: typeof Package
  /** For a figure the browser tests read. */
  valueTestId?: string
}) {
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex items-center justify-between gap-2 text-sm font-medium text-slate-600 dark:text-slate-300">
        <span>{label}</span>
        {Icon ? (
          <Icon aria-hidden="true" className="size-5 text-brand-600 dark:text-brand-400" />
        ) : null}
      </div>
      <p
        data-testid={valueTestId}
        className="mt-2 text-2xl font-bold tabular-nums text-slate-950 dark:text-white"
      >
        {value}
      </p>
      {hint ? <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{hint}</p> : null}
    </li>
  )
}
