import { cva, type VariantProps } from 'class-variance-authority'
import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react'
import { cn } from './cn'

/**
 * Text controls: one look for inputs, text areas and selects. `surface` picks the background
 * the control sits on (the storefront's cards, or the back office's darker panels).
 */
export const controlVariants = cva(
  'block w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-400 focus:border-brand-500 aria-[invalid=true]:border-rose-500 disabled:bg-slate-100 dark:border-slate-600 dark:text-white dark:disabled:bg-slate-800',
  {
    variants: {
      surface: { shop: 'dark:bg-slate-900', admin: 'dark:bg-slate-950' },
    },
    defaultVariants: { surface: 'shop' },
  },
)

export type ControlVariants = VariantProps<typeof controlVariants>

export function Input({
  surface,
  className,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & ControlVariants) {
  return <input className={cn(controlVariants({ surface }), 'h-11', className)} {...props} />
}

export function Textarea({
  surface,
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & ControlVariants) {
  return <textarea className={cn(controlVariants({ surface }), 'py-2', className)} {...props} />
}

export function Select({
  surface,
  className,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & ControlVariants) {
  return <select className={cn(controlVariants({ surface }), 'h-11', className)} {...props} />
}

/** A checkbox; its label is the caller's (usually wrapping it, so the whole line is clickable). */
export function Checkbox({
  className,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <input
      type="checkbox"
      className={cn('size-4 rounded border-slate-300 accent-brand-600', className)}
      {...props}
    />
  )
}
