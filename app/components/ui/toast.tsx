import { lazy, Suspense, useSyncExternalStore } from 'react'
import type { ExternalToast } from 'sonner'
import type { Theme } from '~/lib/theme'

/**
 * App-wide toasts (spec: success, error, warning, info; auto-dismiss after 5000 ms).
 * `toast.success('Saved')` from any client code. sonner is loaded on the first toast, not with
 * the page, so pages that never toast do not pay for it (the storefront's JavaScript budget).
 */
export const TOAST_DURATION_MS = 5000
export type ToastType = 'success' | 'error' | 'warning' | 'info'
export type ToastOptions = Pick<ExternalToast, 'description' | 'id' | 'duration' | 'action'>

let wanted = false
const listeners = new Set<() => void>()

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

function show(type: ToastType, message: string, options?: ToastOptions): void {
  if (typeof window === 'undefined') return
  if (!wanted) {
    wanted = true
    for (const listener of listeners) listener()
  }
  // sonner keeps toasts raised before its <Toaster> subscribes and shows them once it does.
  void import('sonner').then(({ toast }) =>
    toast[type](message, { duration: TOAST_DURATION_MS, ...options }),
  )
}

export const toast = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  warning: (message: string, options?: ToastOptions) => show('warning', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
}

const SonnerToaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })))

/** Mounted once in the root layout; renders nothing until the first toast. */
export function Toaster({ theme }: { theme: Theme }) {
  const mounted = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  )
  if (!mounted) return null
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        theme={theme}
        duration={TOAST_DURATION_MS}
        position="top-center"
        richColors
        closeButton
      />
    </Suspense>
  )
}
