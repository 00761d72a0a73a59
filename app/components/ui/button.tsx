import { cva, type VariantProps } from 'class-variance-authority'
import type { ButtonHTMLAttributes } from 'react'
import { cn } from './cn'

/**
 * The app's buttons by weight and size. Links styled as buttons use `buttonVariants()` on
 * their own `<Link>`, so there is one list of the classes either way.
 */
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-xl font-semibold disabled:opacity-70',
  {
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
        md: 'h-11 px-4',
        wide: 'h-11 px-5',
        sm: 'h-10 gap-1.5 px-3 text-sm',
        xs: 'h-9 gap-1.5 rounded-lg px-3 text-sm',
        row: 'h-10 gap-1.5 rounded-lg px-3 text-sm font-medium',
        icon: 'size-10 rounded-lg',
      },
      block: { true: 'w-full', false: '' },
    },
    defaultVariants: { variant: 'primary', size: 'md', block: false },
  },
)

export type ButtonVariants = VariantProps<typeof buttonVariants>

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonVariants {
  /** Shown instead of the children while the form is being sent (also disables the button). */
  pending?: boolean
  pendingLabel?: string
}

export function Button({
  variant,
  size,
  block,
  className,
  type = 'button',
  pending = false,
  pendingLabel,
  disabled,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || pending}
      className={cn(buttonVariants({ variant, size, block }), pending && 'cursor-wait', className)}
      {...props}
    >
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  )
}
