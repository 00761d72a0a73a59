import * as Dialog from '@radix-ui/react-dialog'
import type { ConfirmOptions } from './confirm-dialog'

/** The dialog itself (loaded on first use by ConfirmDialogHost). */
export default function ConfirmDialogView({
  request,
  onSettle,
}: {
  request: ConfirmOptions | null
  onSettle: (confirmed: boolean) => void
}) {
  return (
    <Dialog.Root
      open={request !== null}
      onOpenChange={(open) => (open ? undefined : onSettle(false))}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-sm" />
        <Dialog.Content
          role="alertdialog"
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 bg-white p-6 shadow-2xl dark:border-slate-700 dark:bg-slate-900"
          {...(request?.description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title className="text-lg font-semibold text-slate-900 dark:text-white">
            {request?.title}
          </Dialog.Title>
          {request?.description ? (
            <Dialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-300">
              {request.description}
            </Dialog.Description>
          ) : null}
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <button
                type="button"
                className="inline-flex h-11 items-center justify-center rounded-xl border border-slate-300 px-4 font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                {request?.cancelLabel ?? 'Cancel'}
              </button>
            </Dialog.Close>
            <button
              type="button"
              onClick={() => onSettle(true)}
              className={`inline-flex h-11 items-center justify-center rounded-xl px-4 font-semibold text-white ${
                request?.destructive
                  ? 'bg-rose-600 hover:bg-rose-700'
                  : 'bg-brand-600 hover:bg-brand-700'
              }`}
            >
              {request?.confirmLabel ?? 'Confirm'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
