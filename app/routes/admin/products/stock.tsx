import ArrowLeft from 'lucide-react/icons/arrow-left'
import Ban from 'lucide-react/icons/ban'
import CircleAlert from 'lucide-react/icons/circle-alert'
import Clock from 'lucide-react/icons/clock'
import Eye from 'lucide-react/icons/eye'
import Info from 'lucide-react/icons/info'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import PackageCheck from 'lucide-react/icons/package-check'
import PackageOpen from 'lucide-react/icons/package-open'
import PackageX from 'lucide-react/icons/package-x'
import Pencil from 'lucide-react/icons/pencil'
import Upload from 'lucide-react/icons/upload'
import { useEffect, useState, useSyncExternalStore, type ChangeEvent, type FormEvent } from 'react'
import {
  data,
  Form,
  isRouteErrorResponse,
  Link,
  redirect,
  useNavigation,
  useSubmit,
} from 'react-router'
import { accountPageMeta } from '~/components/auth/messages'
import { Pagination } from '~/components/admin/pagination'
import { confirm } from '~/components/ui/confirm-dialog'
import { toast } from '~/components/ui/toast'
import {
  countAwaitingOrders,
  detectStockFormat,
  importStock,
  listStockItemsPage,
  MAX_IMPORT_ITEMS,
  revokeStockItem,
  StockImportError,
  stockCounts,
  type StockImportSummary,
  type StockItemStatus,
} from '~/data/stock.server'
import { getProductDelivery } from '~/data/product.server'
import { services } from '~/lib/app-context.server'
import { requirePermission } from '~/lib/permissions.server'
import { readLimitedFormData, UploadError } from '~/lib/uploads.server'
import { PRODUCT_MESSAGES } from '~/lib/validation/product'
import {
  checkStockFile,
  filledOrdersText,
  importSummaryText,
  STOCK_FILE_ACCEPT,
  STOCK_IMPORT_MAX_BYTES,
  STOCK_MESSAGES,
} from '~/lib/validation/stock-import'
import { flashHeaders, readFlash } from './flash.server'
import { requireProduct } from './product-form.server'
import type { Route } from './+types/stock'

/**
 * /admin/products/{id}/stock (issue 7): the product's stock of accounts and keys. Counts by
 * state, import by pasting lines or uploading a .txt/.csv file (de-duplicated; the summary says
 * what was added, skipped and why), the items page by page with a status filter (masked: only
 * their first characters), and revoke for an unsold item. Every form posts to this route's
 * action, so the page works without JavaScript (revoke then asks on the page itself).
 */
const STATUSES = [
  'available',
  'held',
  'delivered',
  'revoked',
] as const satisfies readonly StockItemStatus[]
/** Room for the multipart envelope and the other fields around a 5 MB file. */
const FORM_OVERHEAD_BYTES = 64 * 1024
/** Pasted text longer than this is not sent back into the page after a refused import. */
const ECHO_MAX_CHARS = 100_000

const stockPath = (id: string) => `/admin/products/${encodeURIComponent(id)}/stock`

function parseStatus(value: string | null): StockItemStatus | null {
  return STATUSES.find((status) => status === value) ?? null
}

/** Back to the page as it was (filter, page), optionally asking to confirm a revoke. */
function pageUrl(
  id: string,
  state: { status?: string | null; page?: string | number | null; confirmRevoke?: string | null },
): string {
  const params = new URLSearchParams()
  const status = parseStatus(state.status ?? null)
  if (status) params.set('status', status)
  const page = Number(state.page ?? 1)
  if (Number.isInteger(page) && page > 1) params.set('page', String(page))
  if (state.confirmRevoke) params.set('confirmRevoke', state.confirmRevoke)
  const query = params.toString()
  return query ? `${stockPath(id)}?${query}` : stockPath(id)
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePermission(request, 'canCreateProducts')
  const product = await requireProduct(params.id)
  const { db, env } = services()
  const url = new URL(request.url)
  const status = parseStatus(url.searchParams.get('status'))
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1
  const confirmId = url.searchParams.get('confirmRevoke')

  const [counts, list, awaiting, delivery, { flash, headers }] = await Promise.all([
    stockCounts(db, product.id),
    listStockItemsPage(db, env.APP_SECRET, product.id, { status: status ?? undefined, page }),
    countAwaitingOrders(db, product.id),
    getProductDelivery(db, product.id),
    readFlash(request),
  ])
  const toConfirm = confirmId
    ? list.items.find((item) => item.id === confirmId && item.status === 'available')
    : undefined
  return data(
    {
      product: { id: product.id, title: product.title, slug: product.slug },
      deliveryMode: delivery?.mode ?? 'manual',
      counts,
      awaiting,
      filter: status,
      list: {
        items: list.items.map((item) => ({
          id: item.id,
          status: item.status,
          preview: item.preview,
          orderId: item.orderId,
          addedBy: item.addedByLabel,
          revokedReason: item.revokedReason,
          createdAt: item.createdAt,
          deliveredAt: item.deliveredAt,
          revokedAt: item.revokedAt,
        })),
        total: list.total,
        page: list.page,
        pageCount: list.pageCount,
        pageSize: list.pageSize,
      },
      confirmRevoke: toConfirm ? { id: toConfirm.id, preview: toConfirm.preview } : null,
      maxItems: MAX_IMPORT_ITEMS,
      flash,
    },
    { headers },
  )
}

type ImportAnswer =
  | { intent: 'import'; ok: true; summary: StockImportSummary; at: number }
  | {
      intent: 'import'
      ok: false
      error: string
      /** The field the message belongs under; null for the whole import. */
      field: 'content' | 'file' | null
      /** The pasted text, for a page rendered without JavaScript. */
      content: string
      at: number
    }

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, 'canCreateProducts')
  const product = await requireProduct(params.id)
  const { db, env } = services()

  const refuse = (status: number, error: string, field: 'content' | 'file' | null, content = '') =>
    data<ImportAnswer>(
      {
        intent: 'import',
        ok: false,
        error,
        field,
        content: content.length <= ECHO_MAX_CHARS ? content : '',
        at: Date.now(),
      },
      { status },
    )

  let form: FormData
  try {
    form = await readLimitedFormData(request, STOCK_IMPORT_MAX_BYTES + FORM_OVERHEAD_BYTES)
  } catch (error) {
    if (error instanceof UploadError) {
      return error.status === 413
        ? refuse(413, STOCK_MESSAGES.tooLarge, null)
        : refuse(400, STOCK_MESSAGES.unreadable, null)
    }
    throw error
  }
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  const intent = text('intent')

  if (intent === 'revoke') {
    const itemId = text('itemId')
    const back = { status: text('status'), page: text('page') }
    // Without JavaScript there was no dialog yet: ask on the page first.
    if (text('confirmed') !== 'yes') {
      throw redirect(pageUrl(product.id, { ...back, confirmRevoke: itemId }))
    }
    const result = await revokeStockItem(db, {
      itemId,
      productId: product.id,
      reason: `by ${user.email} on the stock page`,
    })
    const headers = result.revoked
      ? await flashHeaders('success', STOCK_MESSAGES.revoked)
      : await flashHeaders(
          'error',
          result.status === null ? STOCK_MESSAGES.revokeMissing : STOCK_MESSAGES.revokeNotAvailable,
        )
    throw redirect(pageUrl(product.id, back), { headers })
  }

  if (intent !== 'import') throw data('Unknown action', { status: 400 })

  const pasted = text('content')
  const entry = form.get('file')
  // A file input left empty still sends a part, with no name and no bytes.
  const file = entry instanceof File && (entry.size > 0 || entry.name !== '') ? entry : null
  const hasPaste = pasted.trim() !== ''
  if (file && hasPaste) return refuse(400, STOCK_MESSAGES.both, 'file', pasted)
  if (!file && !hasPaste) return refuse(400, STOCK_MESSAGES.nothing, 'content')

  let content = pasted
  let format: 'lines' | 'csv' = 'lines'
  if (file) {
    const problem = checkStockFile(file)
    if (problem) return refuse(problem === STOCK_MESSAGES.tooLarge ? 413 : 400, problem, 'file')
    try {
      content = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer())
    } catch {
      return refuse(400, STOCK_MESSAGES.notText, 'file')
    }
    format = detectStockFormat(file.name)
  } else if (Buffer.byteLength(pasted) > STOCK_IMPORT_MAX_BYTES) {
    return refuse(413, STOCK_MESSAGES.tooLarge, 'content')
  }

  try {
    const summary = await importStock(db, {
      productId: product.id,
      content,
      format,
      appSecret: env.APP_SECRET,
      addedBy: `user:${user.id}`,
    })
    if (summary.added + summary.duplicates + summary.invalid === 0) {
      return refuse(400, STOCK_MESSAGES.empty, file ? 'file' : 'content', pasted)
    }
    return data<ImportAnswer>({ intent: 'import', ok: true, summary, at: Date.now() })
  } catch (error) {
    if (error instanceof StockImportError) {
      return refuse(400, error.message, file ? 'file' : 'content', pasted)
    }
    console.error(`[admin] importing stock for product ${product.id} failed:`, error)
    return refuse(500, STOCK_MESSAGES.failed, null, pasted)
  }
}

// ---------------------------------------------------------------------------------------

const subscribeNothing = () => () => {}
const number = new Intl.NumberFormat('en-IN')
const dateFormat = new Intl.DateTimeFormat('en-IN', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Asia/Kolkata',
})
const formatDate = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '')

type LoaderData = Route.ComponentProps['loaderData']
type StockItem = LoaderData['list']['items'][number]

const STATUS_LABELS: Record<StockItemStatus, string> = {
  available: 'Available',
  held: 'Held',
  delivered: 'Delivered',
  revoked: 'Revoked',
}
const STATUS_STYLES: Record<StockItemStatus, string> = {
  available: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  held: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300',
  delivered: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300',
  revoked: 'bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
}
const MODE_NAMES = { shared: 'as one shared secret', manual: 'by hand (manual)' } as const

function StatusBadge({ status }: { status: StockItemStatus }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[status]}`}
    >
      {STATUS_LABELS[status]}
    </span>
  )
}

function StatCard({
  label,
  value,
  hint,
  icon: Icon,
}: {
  label: string
  value: number
  hint: string
  icon: typeof PackageCheck
}) {
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex items-center justify-between gap-2 text-sm font-medium text-slate-600 dark:text-slate-300">
        <span>{label}</span>
        <Icon aria-hidden="true" className="size-5 text-brand-600 dark:text-brand-400" />
      </div>
      <p className="mt-2 text-2xl font-bold tabular-nums text-slate-950 dark:text-white">
        {number.format(value)}
      </p>
      <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{hint}</p>
    </li>
  )
}

const fieldClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-400 aria-[invalid=true]:border-rose-500 dark:border-slate-600 dark:bg-slate-950 dark:text-white'

function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p
      id={id}
      className="flex items-center gap-1 text-sm font-medium text-rose-700 dark:text-rose-400"
    >
      <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
      {message}
    </p>
  )
}

function ImportForm({
  productId,
  maxItems,
  answer,
}: {
  productId: string
  maxItems: number
  answer: ImportAnswer | undefined
}) {
  const navigation = useNavigation()
  const importing =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'import'
  const [errors, setErrors] = useState<{ content?: string; file?: string; form?: string }>({})
  // A new answer from the server replaces the browser's own messages.
  const [answered, setAnswered] = useState(answer)
  if (answer !== answered) {
    setAnswered(answer)
    setErrors(
      answer && !answer.ok
        ? answer.field
          ? { [answer.field]: answer.error }
          : { form: answer.error }
        : {},
    )
  }
  // A successful import empties the form; a refused one keeps what was pasted.
  const resetKey = answer?.ok ? answer.at : 0

  function onFileChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0]
    const problem = file ? checkStockFile(file) : null
    setErrors((current) => ({ ...current, file: problem ?? undefined, form: undefined }))
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget)
    const content = String(form.get('content') ?? '')
    const file = form.get('file')
    const hasFile = file instanceof File && file.size > 0
    const hasPaste = content.trim() !== ''
    let found: typeof errors = {}
    if (hasFile && hasPaste) found = { file: STOCK_MESSAGES.both }
    else if (!hasFile && !hasPaste) found = { content: STOCK_MESSAGES.nothing }
    else if (hasFile) {
      const problem = checkStockFile(file)
      if (problem) found = { file: problem }
    } else if (new Blob([content]).size > STOCK_IMPORT_MAX_BYTES) {
      found = { content: STOCK_MESSAGES.tooLarge }
    }
    setErrors(found)
    if (found.content || found.file) {
      event.preventDefault()
      document.getElementById(found.content ? 'stock-content' : 'stock-file')?.focus()
    }
  }

  const describe = (name: 'content' | 'file') =>
    errors[name] ? `stock-${name}-error` : `stock-${name}-hint`

  return (
    <section
      aria-labelledby="import-heading"
      className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="import-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
        Add stock
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Paste items or upload a file. Duplicates are skipped, within the import and against every
        item this product ever had (sold and revoked ones included), so an item is never sold twice.
        Up to 5 MB and {number.format(maxItems)} items at a time.
      </p>

      <Form
        method="post"
        action={stockPath(productId)}
        encType="multipart/form-data"
        noValidate
        onSubmit={onSubmit}
        aria-labelledby="import-heading"
        className="mt-5 space-y-5"
      >
        <input type="hidden" name="intent" value="import" />
        <div className="space-y-1.5">
          <label
            htmlFor="stock-content"
            className="block text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            Paste items
          </label>
          <textarea
            key={`content-${resetKey}`}
            id="stock-content"
            name="content"
            rows={6}
            defaultValue={answer && !answer.ok ? answer.content : ''}
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="none"
            placeholder={'LICENCE-KEY-0001\nuser@example.com / password'}
            aria-invalid={errors.content ? true : undefined}
            aria-describedby={describe('content')}
            onInput={() => setErrors((current) => ({ ...current, content: undefined }))}
            className={`${fieldClass} py-2.5 font-mono text-sm`}
          />
          {errors.content ? (
            <FieldError id="stock-content-error" message={errors.content} />
          ) : (
            <p id="stock-content-hint" className="text-xs text-slate-600 dark:text-slate-400">
              One item per line: a licence key, or an account such as user@example.com / password.
              Empty lines are skipped.
            </p>
          )}
        </div>

        <div className="flex items-center gap-3 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
          <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
          or
          <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        </div>

        <div className="space-y-1.5">
          <label
            htmlFor="stock-file"
            className="block text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            Upload a file
          </label>
          <input
            key={`file-${resetKey}`}
            id="stock-file"
            type="file"
            name="file"
            accept={STOCK_FILE_ACCEPT}
            aria-invalid={errors.file ? true : undefined}
            aria-describedby={describe('file')}
            onChange={onFileChange}
            className="block w-full rounded-xl border border-slate-300 bg-white text-sm text-slate-700 file:mr-3 file:h-11 file:border-0 file:bg-slate-100 file:px-4 file:font-semibold file:text-slate-800 hover:file:bg-slate-200 aria-[invalid=true]:border-rose-500 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-200 dark:file:bg-slate-800 dark:file:text-slate-100"
          />
          {errors.file ? (
            <FieldError id="stock-file-error" message={errors.file} />
          ) : (
            <p id="stock-file-hint" className="text-xs text-slate-600 dark:text-slate-400">
              .txt: one item per line. .csv: the first line names the columns, such as{' '}
              <code className="font-semibold">email,password,note</code> (a different note does not
              make a different item). UTF-8, at most 5 MB.
            </p>
          )}
        </div>

        {errors.form ? (
          <div
            role="alert"
            className="flex items-start gap-2 rounded-xl border border-rose-300 bg-rose-50 p-3 text-sm font-medium text-rose-900 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-200"
          >
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {errors.form}
          </div>
        ) : null}

        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            disabled={importing}
            className="inline-flex h-11 items-center gap-2 rounded-xl bg-brand-600 px-5 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
          >
            {importing ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <Upload aria-hidden="true" className="size-4" />
            )}
            {importing ? 'Importing…' : 'Import items'}
          </button>
        </div>
      </Form>

      <div aria-live="polite" className="mt-4 empty:hidden">
        {answer?.ok ? (
          <div
            role="status"
            className="rounded-xl border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100"
          >
            <p className="font-semibold">Import finished: {importSummaryText(answer.summary)}.</p>
            <p className="mt-0.5">{filledOrdersText(answer.summary.filled)}</p>
          </div>
        ) : null}
      </div>
    </section>
  )
}

function RevokeButton({
  item,
  filter,
  page,
  productId,
  compact,
}: {
  item: StockItem
  filter: StockItemStatus | null
  page: number
  productId: string
  compact: boolean
}) {
  const submit = useSubmit()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('itemId') === item.id

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const ok = await confirm({
      title: STOCK_MESSAGES.revokeTitle,
      description: `${STOCK_MESSAGES.revokeQuestion} (${item.preview})`,
      confirmLabel: 'Revoke',
      destructive: true,
    })
    if (!ok) return
    const formData = new FormData(form)
    formData.set('confirmed', 'yes')
    void submit(formData, { method: 'post', action: stockPath(productId) })
  }

  return (
    <Form method="post" action={stockPath(productId)} onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="revoke" />
      <input type="hidden" name="itemId" value={item.id} />
      {filter ? <input type="hidden" name="status" value={filter} /> : null}
      {page > 1 ? <input type="hidden" name="page" value={page} /> : null}
      <button
        type="submit"
        disabled={busy}
        aria-label={`Revoke item ${item.preview}`}
        className={`inline-flex h-10 items-center justify-center gap-1.5 rounded-lg border border-rose-200 px-3 text-sm font-medium text-rose-700 hover:bg-rose-50 disabled:opacity-50 dark:border-rose-900 dark:text-rose-400 dark:hover:bg-rose-950 ${compact ? '' : 'w-full'}`}
      >
        <Ban aria-hidden="true" className="size-4" />
        Revoke
      </button>
    </Form>
  )
}

/** The dates and the order of an item, in words. */
function ItemDetails({ item }: { item: StockItem }) {
  return (
    <>
      <span className="block">
        Added {formatDate(item.createdAt)} by {item.addedBy}
      </span>
      {item.orderId ? (
        <span className="block">
          Order <code className="text-xs">{item.orderId}</code>
          {item.deliveredAt ? `, delivered ${formatDate(item.deliveredAt)}` : ''}
        </span>
      ) : null}
      {item.status === 'revoked' ? (
        <span className="block">
          Revoked {formatDate(item.revokedAt)}
          {item.revokedReason ? ` (${item.revokedReason})` : ''}
        </span>
      ) : null}
    </>
  )
}

export default function ProductStock({ loaderData, actionData }: Route.ComponentProps) {
  const { product, deliveryMode, counts, awaiting, filter, list, confirmRevoke, maxItems, flash } =
    loaderData
  const hydrated = useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  )
  useEffect(() => {
    if (flash) toast[flash.type](flash.message, { id: flash.id })
  }, [flash])

  const all = counts.available + counts.held + counts.delivered + counts.revoked
  const filters: Array<{ status: StockItemStatus | null; label: string; count: number }> = [
    { status: null, label: 'All', count: all },
    ...STATUSES.map((status) => ({ status, label: STATUS_LABELS[status], count: counts[status] })),
  ]
  const first = list.total === 0 ? 0 : (list.page - 1) * list.pageSize + 1
  const last = Math.min(list.page * list.pageSize, list.total)

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="space-y-3">
        <Link
          to="/admin/products"
          className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          {PRODUCT_MESSAGES.backToProducts}
        </Link>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
              Stock: {product.title}
            </h1>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              The accounts and keys this product delivers, one per order. They are stored encrypted;
              this page shows only their first characters.
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Link
              to={`/admin/products/edit/${product.id}`}
              className="inline-flex h-10 items-center gap-1.5 rounded-xl border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <Pencil aria-hidden="true" className="size-4" />
              Edit product
            </Link>
            <Link
              to={`/product/${product.slug}`}
              className="inline-flex h-10 items-center gap-1.5 rounded-xl border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <Eye aria-hidden="true" className="size-4" />
              View in shop
            </Link>
          </div>
        </div>
      </div>

      {deliveryMode !== 'stock' ? (
        <div
          role="note"
          className="flex items-start gap-2 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p>
            This product is delivered {MODE_NAMES[deliveryMode]}, so its orders do not take items
            from this stock.{' '}
            <Link
              to={`/admin/products/edit/${product.id}#section-delivery`}
              className="font-semibold underline"
            >
              Change the delivery mode
            </Link>{' '}
            to sell from stock.
          </p>
        </div>
      ) : null}

      {awaiting > 0 ? (
        <div
          role="note"
          className="flex items-start gap-2 rounded-2xl border border-sky-300 bg-sky-50 p-4 text-sm text-sky-900 dark:border-sky-800 dark:bg-sky-950/40 dark:text-sky-100"
        >
          <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p>
            <span className="font-semibold">
              {awaiting === 1
                ? '1 paid order is waiting for stock.'
                : `${number.format(awaiting)} paid orders are waiting for stock.`}
            </span>{' '}
            Adding items delivers them at once, oldest first.
          </p>
        </div>
      ) : null}

      {flash && !hydrated ? (
        // With JavaScript the message is a toast; before (or without) it, this line says it.
        <p
          role="status"
          className={`rounded-2xl border p-4 text-sm font-medium ${
            flash.type === 'success'
              ? 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200'
              : 'border-rose-300 bg-rose-50 text-rose-900 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-200'
          }`}
        >
          {flash.message}
        </p>
      ) : null}

      <ul aria-label="Stock figures" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          label="Available"
          value={counts.available}
          hint="Ready to sell"
          icon={PackageCheck}
        />
        <StatCard label="Held" value={counts.held} hint="Set aside for an order" icon={Clock} />
        <StatCard
          label="Delivered"
          value={counts.delivered}
          hint="Sold to a buyer"
          icon={PackageOpen}
        />
        <StatCard label="Revoked" value={counts.revoked} hint="Never to be sold" icon={PackageX} />
      </ul>

      <ImportForm
        productId={product.id}
        maxItems={maxItems}
        answer={actionData && 'intent' in actionData ? actionData : undefined}
      />

      {confirmRevoke ? (
        <section
          aria-labelledby="confirm-revoke-title"
          className="rounded-2xl border border-rose-300 bg-rose-50 p-4 dark:border-rose-900 dark:bg-rose-950/40"
        >
          <h2 id="confirm-revoke-title" className="font-semibold text-rose-900 dark:text-rose-200">
            {STOCK_MESSAGES.revokeTitle}
          </h2>
          <p className="mt-1 text-sm text-rose-900 dark:text-rose-200">
            {STOCK_MESSAGES.revokeQuestion} (
            <code className="font-mono">{confirmRevoke.preview}</code>)
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Form method="post" action={stockPath(product.id)}>
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="itemId" value={confirmRevoke.id} />
              <input type="hidden" name="confirmed" value="yes" />
              {filter ? <input type="hidden" name="status" value={filter} /> : null}
              {list.page > 1 ? <input type="hidden" name="page" value={list.page} /> : null}
              <button
                type="submit"
                className="inline-flex h-10 items-center rounded-xl bg-rose-600 px-4 font-semibold text-white hover:bg-rose-700"
              >
                Revoke
              </button>
            </Form>
            <Link
              to={pageUrl(product.id, { status: filter, page: list.page })}
              className="inline-flex h-10 items-center rounded-xl border border-slate-300 bg-white px-4 font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
            >
              Cancel
            </Link>
          </div>
        </section>
      ) : null}

      <section
        aria-labelledby="items-heading"
        className="rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="space-y-3 border-b border-slate-200 p-4 dark:border-slate-800">
          <h2 id="items-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
            Items
          </h2>
          <nav aria-label="Filter items by status">
            <ul className="flex flex-wrap gap-2">
              {filters.map((entry) => {
                const current = entry.status === filter
                return (
                  <li key={entry.label}>
                    <Link
                      to={pageUrl(product.id, { status: entry.status })}
                      aria-current={current ? 'page' : undefined}
                      className={`inline-flex h-10 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium ${
                        current
                          ? 'border-brand-600 bg-brand-600 text-white'
                          : 'border-slate-300 text-slate-700 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800'
                      }`}
                    >
                      {entry.label}
                      <span className="tabular-nums opacity-80">{number.format(entry.count)}</span>
                    </Link>
                  </li>
                )
              })}
            </ul>
          </nav>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {list.total === 0
              ? ''
              : `Showing ${number.format(first)}–${number.format(last)} of ${number.format(list.total)} ${list.total === 1 ? 'item' : 'items'}, newest first`}
          </p>
        </div>

        {list.items.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-4 py-12 text-center">
            <PackageOpen aria-hidden="true" className="size-10 text-slate-400" />
            <p className="font-semibold text-slate-950 dark:text-white">
              {filter ? `No ${STATUS_LABELS[filter].toLowerCase()} items` : 'No items yet'}
            </p>
            <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">
              {filter
                ? 'Choose another status to see the other items.'
                : 'Paste lines or upload a file above to add the first items.'}
            </p>
          </div>
        ) : (
          <>
            <div className="hidden overflow-x-auto lg:block">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Stock items, newest first</caption>
                <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                  <tr className="border-b border-slate-200 dark:border-slate-800">
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Item
                    </th>
                    <th scope="col" className="px-2 py-3 font-semibold">
                      Status
                    </th>
                    <th scope="col" className="px-2 py-3 font-semibold">
                      Details
                    </th>
                    <th scope="col" className="py-3 pl-2 pr-4 text-right font-semibold">
                      Actions
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {list.items.map((item) => (
                    <tr key={item.id}>
                      <th scope="row" className="px-4 py-3 font-normal">
                        <code className="font-mono text-slate-900 dark:text-slate-100">
                          {item.preview}
                        </code>
                      </th>
                      <td className="px-2 py-3">
                        <StatusBadge status={item.status} />
                      </td>
                      <td className="px-2 py-3 text-slate-600 dark:text-slate-300">
                        <ItemDetails item={item} />
                      </td>
                      <td className="py-3 pl-2 pr-4 text-right">
                        {item.status === 'available' ? (
                          <div className="flex justify-end">
                            <RevokeButton
                              item={item}
                              filter={filter}
                              page={list.page}
                              productId={product.id}
                              compact
                            />
                          </div>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ul
              aria-label="Stock items, newest first"
              className="divide-y divide-slate-100 lg:hidden dark:divide-slate-800"
            >
              {list.items.map((item) => (
                <li key={item.id} className="space-y-2 p-4">
                  <div className="flex items-start justify-between gap-3">
                    <code className="min-w-0 break-all font-mono text-sm text-slate-900 dark:text-slate-100">
                      {item.preview}
                    </code>
                    <StatusBadge status={item.status} />
                  </div>
                  <p className="text-xs text-slate-600 dark:text-slate-300">
                    <ItemDetails item={item} />
                  </p>
                  {item.status === 'available' ? (
                    <RevokeButton
                      item={item}
                      filter={filter}
                      page={list.page}
                      productId={product.id}
                      compact={false}
                    />
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        )}

        {list.pageCount > 1 ? (
          <div className="border-t border-slate-200 p-4 dark:border-slate-800">
            <Pagination
              page={list.page}
              pageCount={list.pageCount}
              href={(n) => pageUrl(product.id, { status: filter, page: n })}
            />
          </div>
        ) : null}
      </section>
    </div>
  )
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return accountPageMeta(
    matches,
    loaderData ? `Stock: ${loaderData.product.title}` : PRODUCT_MESSAGES.notFoundTitle,
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // A 403 goes to the admin layout's Access Denied page.
  if (isRouteErrorResponse(error) && error.status === 403) throw error
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
      <PackageX aria-hidden="true" className="size-14 text-slate-400" />
      <h1 className="text-2xl font-bold text-slate-950 dark:text-white">
        {notFound ? PRODUCT_MESSAGES.notFoundTitle : 'Something went wrong'}
      </h1>
      <p className="text-slate-600 dark:text-slate-300">
        {notFound
          ? `${PRODUCT_MESSAGES.notFound}. It may have been deleted.`
          : 'The stock could not be loaded. Please try again in a moment.'}
      </p>
      <Link
        to="/admin/products"
        className="inline-flex h-11 items-center rounded-xl bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700"
      >
        {PRODUCT_MESSAGES.backToProducts}
      </Link>
    </div>
  )
}
