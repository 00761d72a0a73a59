import { useSyncExternalStore } from 'react'

const subscribeNothing = () => () => {}

/**
 * False in the server's HTML and during hydration, true once React runs in the browser: for
 * what only JavaScript can do (toasts, copy buttons, dialogs) and its no-JavaScript fallback.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  )
}
