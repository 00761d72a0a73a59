import type { ButtonHTMLAttributes } from 'react'
import { buttonVariants, type ButtonVariants } from './button-variants'
import { cn } from './cn'

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
