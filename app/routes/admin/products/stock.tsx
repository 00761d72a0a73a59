import { shopDateTime } from '~/lib/date-format'
import Ban from 'lucide-react/icons/ban'
import Clock from 'lucide-react/icons/clock'
import Eye from 'lucide-react/icons/eye'
import Info from 'lucide-react/icons/info'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import PackageCheck from 'lucide-react/icons/package-check'
import PackageOpen from 'lucide-react/icons/package-open'
import PackageX from 'lucide-react/icons/package-x'
import Pencil from 'lucide-react/icons/pencil'
import Upload from 'lucide-react/icons/upload'
import { useState, type ChangeEvent, type FormEvent } from 'react'
import { data, Form, isRouteErrorResponse, Link, redirect, useNavigation } from 'react-router'
import { accountPageMeta } from '~/components/auth/messages'
import { Badge, type BadgeTone } from '~/components/admin/badge'
import { adminButton } from '~/components/admin/buttons'
import { ConfirmPanel, useConfirmedSubmit } from '~/components/admin/confirm'
import { EmptyState } from '~/components/admin/empty-state'
import { AdminErrorPage } from '~/components/admin/error-page'
import { FlashNotice } from '~/components/admin/flash-notice'
import { adminInputClass, FieldError, FormError } from '~/components/admin/form-parts'
import { FilterChips, rangeText } from '~/components/admin/list-filters'
import { ListTable } from '~/components/admin/list-table'
import { BackLink, PageHeader } from '~/components/admin/page-header'
import { ListPagination } from '~/components/admin/pagination'
import { StatCard } from '~/components/admin/stat-card'
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

const number = new Intl.NumberFormat('en-IN')
const dateFormat = shopDateTime('Asia/Kolkata')
const formatDate = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '')

type LoaderData = Route.ComponentProps['loaderData']
type StockItem = LoaderData['list']['items'][number]

const STATUS_LABELS: Record<StockItemStatus, string> = {
  available: 'Available',
  held: 'Held',
  delivered: 'Delivered',
  revoked: 'Revoked',
}
const STATUS_TONES: Record<StockItemStatus, BadgeTone> = {
  available: 'success',
  held: 'warning',
  delivered: 'info',
  revoked: 'muted',
}
const FIGURES: Record<StockItemStatus, { hint: string; icon: typeof PackageCheck }> = {
  available: { hint: 'Ready to sell', icon: PackageCheck },
  held: { hint: 'Set aside for an order', icon: Clock },
  delivered: { hint: 'Sold to a buyer', icon: PackageOpen },
  revoked: { hint: 'Never to be sold', icon: PackageX },
}
const MODE_NAMES = { shared: 'as one shared secret', manual: 'by hand (manual)' } as const

function StatusBadge({ status }: { status: StockItemStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>
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
            className={`${adminInputClass} py-2.5 font-mono text-sm`}
          />
          {errors.content ? (
            <FieldError id="stock-content-error">{errors.content}</FieldError>
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
            <FieldError id="stock-file-error">{errors.file}</FieldError>
          ) : (
            <p id="stock-file-hint" className="text-xs text-slate-600 dark:text-slate-400">
              .txt: one item per line. .csv: the first line names the columns, such as{' '}
              <code className="font-semibold">email,password,note</code> (a different note does not
              make a different item). UTF-8, at most 5 MB.
            </p>
          )}
        </div>

        {errors.form ? <FormError>{errors.form}</FormError> : null}

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
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('itemId') === item.id
  const onSubmit = useConfirmedSubmit(
    {
      title: STOCK_MESSAGES.revokeTitle,
      description: `${STOCK_MESSAGES.revokeQuestion} (${item.preview})`,
      confirmLabel: 'Revoke',
      destructive: true,
    },
    { action: stockPath(productId) },
  )

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
  const all = counts.available + counts.held + counts.delivered + counts.revoked
  const chips = [
    { status: null, label: 'All', count: all },
    ...STATUSES.map((status) => ({ status, label: STATUS_LABELS[status], count: counts[status] })),
  ].map((chip) => ({
    ...chip,
    href: pageUrl(product.id, { status: chip.status }),
    active: chip.status === filter,
  }))
  const range = rangeText(
    { number: list.page, size: list.pageSize, total: list.total },
    { one: 'item', many: 'items' },
  )

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="space-y-3">
        <BackLink to="/admin/products">{PRODUCT_MESSAGES.backToProducts}</BackLink>
        <PageHeader
          title={`Stock: ${product.title}`}
          description="The accounts and keys this product delivers, one per order. They are stored encrypted; this page shows only their first characters."
        >
          <Link to={`/admin/products/edit/${product.id}`} className={adminButton.small}>
            <Pencil aria-hidden="true" className="size-4" />
            Edit product
          </Link>
          <Link to={`/product/${product.slug}`} className={adminButton.small}>
            <Eye aria-hidden="true" className="size-4" />
            View in shop
          </Link>
        </PageHeader>
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

      <FlashNotice flash={flash} />

      <ul aria-label="Stock figures" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {STATUSES.map((status) => (
          <StatCard
            key={status}
            label={STATUS_LABELS[status]}
            value={number.format(counts[status])}
            hint={FIGURES[status].hint}
            icon={FIGURES[status].icon}
          />
        ))}
      </ul>

      <ImportForm
        productId={product.id}
        maxItems={maxItems}
        answer={actionData && 'intent' in actionData ? actionData : undefined}
      />

      {confirmRevoke ? (
        // Without JavaScript, revoke asks here instead of in a dialog.
        <ConfirmPanel
          id="confirm-revoke-title"
          title={STOCK_MESSAGES.revokeTitle}
          action={stockPath(product.id)}
          fields={{
            intent: 'revoke',
            itemId: confirmRevoke.id,
            status: filter,
            page: list.page > 1 ? list.page : null,
          }}
          confirmLabel="Revoke"
          cancelTo={pageUrl(product.id, { status: filter, page: list.page })}
        >
          {STOCK_MESSAGES.revokeQuestion} (
          <code className="font-mono">{confirmRevoke.preview}</code>)
        </ConfirmPanel>
      ) : null}

      <section
        aria-labelledby="items-heading"
        className="rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="space-y-3 border-b border-slate-200 p-4 dark:border-slate-800">
          <h2 id="items-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
            Items
          </h2>
          <FilterChips label="Filter items by status" chips={chips} />
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {range ? `${range}, newest first` : ''}
          </p>
        </div>

        {list.items.length === 0 ? (
          <EmptyState
            icon={PackageOpen}
            titleAs="p"
            title={filter ? `No ${STATUS_LABELS[filter].toLowerCase()} items` : 'No items yet'}
          >
            {filter
              ? 'Choose another status to see the other items.'
              : 'Paste lines or upload a file above to add the first items.'}
          </EmptyState>
        ) : (
          <>
            <ListTable
              caption="Stock items, newest first"
              shownFrom="lg"
              columns={[
                { label: 'Item' },
                { label: 'Status' },
                { label: 'Details' },
                { label: 'Actions', align: 'right' },
              ]}
            >
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
            </ListTable>
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

        <ListPagination
          page={list.page}
          pageCount={list.pageCount}
          href={(n) => pageUrl(product.id, { status: filter, page: n })}
        />
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
    <AdminErrorPage
      icon={PackageX}
      title={notFound ? PRODUCT_MESSAGES.notFoundTitle : 'Something went wrong'}
      backTo="/admin/products"
      backLabel={PRODUCT_MESSAGES.backToProducts}
    >
      {notFound
        ? `${PRODUCT_MESSAGES.notFound}. It may have been deleted.`
        : 'The stock could not be loaded. Please try again in a moment.'}
    </AdminErrorPage>
  )
}
