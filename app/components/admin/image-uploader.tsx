import { href } from 'react-router'
import ImageUp from 'lucide-react/icons/image-up'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import Trash2 from 'lucide-react/icons/trash-2'
import { useId, useRef, useState, type DragEvent } from 'react'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { cn } from '~/components/ui/cn'
import { toast } from '~/components/ui/toast'
import {
  checkImageFile,
  IMAGE_ACCEPT,
  IMAGE_MESSAGES,
  IMAGE_SIGNATURE_BYTES,
} from '~/lib/validation/product'

/**
 * The product image uploader: checks type (by the file's first bytes)
 * and size before sending, shows a preview at once and a progress bar while the file goes up
 * (XMLHttpRequest: fetch has no upload progress), and reverts the preview when the upload fails.
 * The server checks everything again and stores a re-encoded copy.
 *
 * Without JavaScript the same file input is submitted with the form (name "imageFile").
 */
export const UPLOAD_URL = href('/admin/api/uploads')

export type UploadResponse =
  | { ok: true; key: string; previewUrl: string; width: number; height: number }
  | { ok: false; error: string }
export type DeleteUploadResponse = { ok: true; deleted: boolean } | { ok: false; error: string }

function isUploadResponse(value: unknown): value is UploadResponse {
  const body = value as UploadResponse | null
  return (
    typeof body === 'object' &&
    body !== null &&
    (body.ok === true ? typeof body.key === 'string' : typeof body.error === 'string')
  )
}

/** Sends the file, reporting progress 0-100; never rejects. */
export function uploadImage(
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadResponse> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', UPLOAD_URL)
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable)
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)))
    }
    xhr.onload = () =>
      resolve(
        isUploadResponse(xhr.response)
          ? xhr.response
          : { ok: false, error: IMAGE_MESSAGES.uploadFailed },
      )
    xhr.onerror =
      xhr.onabort =
      xhr.ontimeout =
        () => resolve({ ok: false, error: IMAGE_MESSAGES.uploadFailed })
    const body = new FormData()
    body.append('file', file)
    xhr.send(body)
  })
}

/** Removes an upload that no product uses (the server checks that); fire and forget. */
export function discardUpload(key: string): void {
  const body = new FormData()
  body.append('intent', 'delete')
  body.append('url', key)
  void fetch(UPLOAD_URL, { method: 'POST', body, keepalive: true }).catch(() => {})
}

/** The messages the server may answer with that the person can act on; anything else is the generic one. */
const SPECIFIC = new Set<string>([IMAGE_MESSAGES.invalidType, IMAGE_MESSAGES.tooLarge])

export interface ImageUploaderProps {
  id: string
  /** The storage key (or absolute URL) in the form, '' for none. */
  value: string
  /** Preview of `value` (a sized URL), or null. */
  previewUrl: string | null
  /** The product's saved image: never discarded from here (the server removes it on save). */
  savedValue: string
  error?: string
  describedBy?: string
  hydrated: boolean
  onChange(value: string, previewUrl: string | null): void
  onError(message: string | null): void
  onBusyChange(busy: boolean): void
}

export function ImageUploader({
  id,
  value,
  previewUrl,
  savedValue,
  error,
  describedBy,
  hydrated,
  onChange,
  onError,
  onBusyChange,
}: ImageUploaderProps) {
  const inputRef = useRef<HTMLInputElement>(null)
  const statusId = useId()
  const [uploading, setUploading] = useState<{ objectUrl: string; progress: number } | null>(null)
  const [dragging, setDragging] = useState(false)

  async function take(file: File) {
    const head = new Uint8Array(await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer())
    const problem = checkImageFile(file, head)
    if (inputRef.current) inputRef.current.value = ''
    if (problem) {
      onError(problem)
      return
    }
    onError(null)
    const objectUrl = URL.createObjectURL(file)
    setUploading({ objectUrl, progress: 0 })
    onBusyChange(true)
    const result = await uploadImage(file, (progress) => setUploading({ objectUrl, progress }))
    onBusyChange(false)
    setUploading(null)
    URL.revokeObjectURL(objectUrl)
    if (result.ok) {
      // The upload it replaces was never saved with a product: remove it now.
      if (value && value !== savedValue) discardUpload(value)
      onChange(result.key, result.previewUrl)
      return
    }
    // The preview goes back to the image the form had.
    const message = SPECIFIC.has(result.error) ? result.error : IMAGE_MESSAGES.uploadFailed
    onError(message)
    if (message === IMAGE_MESSAGES.uploadFailed) toast.error(message)
  }

  function remove() {
    if (value && value !== savedValue) discardUpload(value)
    onChange('', null)
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault()
    setDragging(false)
    const file = event.dataTransfer.files[0]
    if (file && !uploading) void take(file)
  }

  const shown = uploading?.objectUrl ?? previewUrl
  const describedByIds = [describedBy, error ? `${id}-error` : `${id}-hint`]
    .filter(Boolean)
    .join(' ')

  return (
    <div className="space-y-3">
      <div
        onDragOver={(event) => {
          event.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`relative flex aspect-[4/3] w-full max-w-sm items-center justify-center overflow-hidden rounded-2xl border-2 border-dashed ${
          error
            ? 'border-rose-500'
            : dragging
              ? 'border-brand-500 bg-brand-50 dark:bg-brand-950'
              : 'border-slate-300 bg-slate-50 dark:border-slate-600 dark:bg-slate-950'
        }`}
      >
        {shown ? (
          <img src={shown} alt="Product image preview" className="size-full object-cover" />
        ) : (
          <div className="flex flex-col items-center gap-2 p-4 text-center text-sm text-slate-600 dark:text-slate-300">
            <ImageUp aria-hidden="true" className="size-10 text-slate-400" />
            <span>No image yet</span>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              JPEG, PNG or WebP, up to 5 MB. Drop a file here or use the button.
            </span>
          </div>
        )}
        {uploading ? (
          <div className="absolute inset-x-0 bottom-0 bg-slate-950/70 p-3 text-white">
            <div className="flex items-center gap-2 text-sm font-medium">
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              <span id={statusId}>Uploading... {uploading.progress}%</span>
            </div>
            <div
              role="progressbar"
              aria-labelledby={statusId}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={uploading.progress}
              className="mt-2 h-2 overflow-hidden rounded-full bg-white/30"
            >
              <div
                className="h-full rounded-full bg-white transition-[width]"
                style={{ width: `${uploading.progress}%` }}
              />
            </div>
          </div>
        ) : null}
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={inputRef}
          id={id}
          type="file"
          // Without JavaScript the file goes with the form; with it, it is uploaded on its own.
          name={hydrated ? undefined : 'imageFile'}
          accept={IMAGE_ACCEPT}
          disabled={Boolean(uploading)}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByIds}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0]
            if (file && hydrated) void take(file)
          }}
          className={
            hydrated
              ? 'peer sr-only'
              : 'block w-full text-sm text-slate-700 file:mr-3 file:h-10 file:rounded-xl file:border-0 file:bg-brand-600 file:px-4 file:font-semibold file:text-white dark:text-slate-200'
          }
        />
        {hydrated ? (
          <label
            htmlFor={id}
            className={cn(
              buttonVariants({ variant: 'secondary' }),
              'cursor-pointer peer-focus-visible:outline peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 peer-disabled:cursor-not-allowed peer-disabled:opacity-60',
            )}
          >
            <ImageUp aria-hidden="true" className="size-5" />
            {value ? 'Change image' : 'Upload image'}
          </label>
        ) : null}
        {hydrated && value && !uploading ? (
          <Button variant="dangerGhost" onClick={remove}>
            <Trash2 aria-hidden="true" className="size-4" />
            Remove image
          </Button>
        ) : null}
      </div>
    </div>
  )
}
