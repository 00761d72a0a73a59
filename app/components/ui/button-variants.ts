import { cva, type VariantProps } from 'class-variance-authority'

/**
 * The app's buttons by weight and size. Links styled as buttons use `buttonVariants()` on
 * their own `<Link>`, so there is one list of the classes either way.
 *
 * No two classes here set the same property (each size carries its own gap, corners and
 * weight), so the classes are right without `cn()`'s merging: the storefront's shell uses these
 * without loading tailwind-merge (bench/README.md, Lighthouse).
 */
export const buttonVariants = cva('inline-flex items-center justify-center disabled:opacity-70', {
  variants: {
    variant: {
      primary: 'bg-brand-600 text-white shadow-sm hover:bg-brand-700',
      secondary:
        'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
      outline:
        'border border-slate-300 text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800',
      danger: 'bg-rose-600 text-white shadow-sm hover:bg-rose-700',
      /** A destructive action in a list row, quieter than `danger`. */
      dangerOutline:
        'border border-rose-200 text-rose-700 hover:bg-rose-50 dark:border-rose-900 dark:text-rose-400 dark:hover:bg-rose-950',
      /** The one action of a toolbar (a list's Search), in the page's text colour. */
      strong:
        'bg-slate-900 text-white hover:bg-slate-800 dark:bg-slate-100 dark:text-slate-900 dark:hover:bg-white',
      ghost: 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
      /** A destructive action beside a form's own buttons, with no frame (remove an image). */
      dangerGhost: 'text-rose-700 hover:bg-rose-50 dark:text-rose-400 dark:hover:bg-rose-950',
    },
    size: {
      md: 'h-11 gap-2 rounded-xl px-4 font-semibold',
      wide: 'h-11 gap-2 rounded-xl px-5 font-semibold',
      sm: 'h-10 gap-1.5 rounded-xl px-3 text-sm font-semibold',
      xs: 'h-9 gap-1.5 rounded-lg px-3 text-sm font-semibold',
      row: 'h-10 gap-1.5 rounded-lg px-3 text-sm font-medium',
      icon: 'size-10 gap-2 rounded-lg font-semibold',
    },
    block: { true: 'w-full', false: '' },
  },
  defaultVariants: { variant: 'primary', size: 'md', block: false },
})

export type ButtonVariants = VariantProps<typeof buttonVariants>
