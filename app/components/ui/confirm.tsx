import { lazy, Suspense, useSyncExternalStore, type FormEvent } from 'react'
import { useSubmit, type SubmitOptions } from 'react-router'
import type { ConfirmOptions } from './confirm-dialog-view'

/**
 * The one way the app asks before an action (deleting a product, revoking an item, an order's
 * recovery actions): a POST form whose action decides only on `confirmed=yes`.
 * - With JavaScript, `useConfirmedSubmit` asks in the app's dialog (`confirm()`, a Radix dialog
 *   loaded on first use and mounted once by `ConfirmDialogHost`; requests made while one is
 *   open wait their turn) and sends the form with `confirmed=yes`.
 * - Without it the form goes as it is, the action answers with the question (in the URL or in
 *   its data), and the page shows a `ConfirmPanel` whose button sends `confirmed=yes`.
 */
export type { ConfirmOptions }

interface ConfirmRequest {
  options: ConfirmOptions
  resolve: (confirmed: boolean) => void
}

const waiting: ConfirmRequest[] = []
let shown: ConfirmRequest | null = null
let everShown = false
const listeners = new Set<() => void>()

function emit() {
  for (const listener of listeners) listener()
}

function showNext() {
  if (shown) return
  shown = waiting.shift() ?? null
  if (shown) everShown = true
  emit()
}

export function confirm(options: ConfirmOptions): Promise<boolean> {
  // Only a browser can ask; on the server the answer is no.
  if (typeof window === 'undefined') return Promise.resolve(false)
  return new Promise<boolean>((resolve) => {
    waiting.push({ options, resolve })
    showNext()
  })
}

/** Answers the request on screen (the dialog's buttons, Escape and the overlay call this). */
export function settleConfirm(confirmed: boolean): void {
  const request = shown
  if (!request) return
  shown = null
  request.resolve(confirmed)
  showNext()
  emit()
}

/** The request on screen, for the host (and tests). */
export function shownConfirm(): ConfirmOptions | null {
  return shown?.options ?? null
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

const ConfirmDialogView = lazy(() => import('./confirm-dialog-view'))

/** Mounted once in the root layout; renders nothing until the first confirmation. */
export function ConfirmDialogHost() {
  const request = useSyncExternalStore(subscribe, shownConfirm, () => null)
  const loaded = useSyncExternalStore(
    subscribe,
    () => everShown,
    () => false,
  )
  if (!loaded) return null
  return (
    <Suspense fallback={null}>
      <ConfirmDialogView request={request} onSettle={settleConfirm} />
    </Suspense>
  )
}

/**
 * What a form asks before it is sent: fixed words, or words made from what the form is about
 * to send (the amount typed into a refund form, say).
 */
export type ConfirmQuestion = ConfirmOptions | ((formData: FormData) => ConfirmOptions)

/**
 * A form's onSubmit that asks first (the dialog) and then sends the form with `confirmed=yes`.
 */
export function useConfirmedSubmit(
  question: ConfirmQuestion,
  {
    validate,
    ...submitOptions
  }: Omit<SubmitOptions, 'method'> & {
    /** The form's own check (Conform's `form.onSubmit`): a form it refuses is not asked about. */
    validate?: (event: FormEvent<HTMLFormElement>) => void
  } = {},
) {
  const submit = useSubmit()
  return async function onSubmit(event: FormEvent<HTMLFormElement>) {
    validate?.(event)
    if (event.defaultPrevented) return
    event.preventDefault()
    // Read before the dialog: what is asked about is what is sent.
    const formData = new FormData(event.currentTarget)
    const options = typeof question === 'function' ? question(formData) : question
    if (!(await confirm(options))) return
    formData.set('confirmed', 'yes')
    void submit(formData, { method: 'post', ...submitOptions })
  }
}
