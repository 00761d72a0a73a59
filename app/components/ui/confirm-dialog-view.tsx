import * as Dialog from '@radix-ui/react-dialog'
import { Button } from './button'

/** What the dialog asks; confirm.tsx queues these (and re-exports the type). */
export interface ConfirmOptions {
  title: string
  description?: string
  confirmLabel?: string
  cancelLabel?: string
  /** Shows the confirm button in red, for destructive actions. */
  destructive?: boolean
}

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
              <Button variant="outline">{request?.cancelLabel ?? 'Cancel'}</Button>
            </Dialog.Close>
            <Button
              variant={request?.destructive ? 'danger' : 'primary'}
              onClick={() => onSettle(true)}
            >
              {request?.confirmLabel ?? 'Confirm'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
