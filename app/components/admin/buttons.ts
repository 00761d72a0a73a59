/** The back office's full-size buttons (and links styled as them), by weight. */
export const adminButton = {
  primary:
    'inline-flex h-11 items-center justify-center gap-2 rounded-xl bg-brand-600 px-4 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-70',
  secondary:
    'inline-flex h-11 items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-70 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
  danger:
    'inline-flex h-11 items-center justify-center gap-2 rounded-xl bg-rose-600 px-4 font-semibold text-white shadow-sm hover:bg-rose-700 disabled:opacity-70',
  /** A smaller outlined link beside a page's title (Edit product, Manage stock). */
  small:
    'inline-flex h-10 items-center gap-1.5 rounded-xl border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800',
} as const
