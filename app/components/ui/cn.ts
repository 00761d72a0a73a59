import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

/**
 * Joins class names and lets a later Tailwind class win over an earlier one of the same kind,
 * so a caller's `className="w-auto"` replaces a primitive's `w-full` instead of fighting it.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs))
}
