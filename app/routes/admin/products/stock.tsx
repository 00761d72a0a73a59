import { mayConfigureShop } from '~/lib/shop-configuration'
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
import { getFormProps, getInputProps } from '@conform-to/react'
import { data, Form, href, isRouteErrorResponse, Link, useNavigation } from 'react-router'
import { accountPageMeta } from '~/components/auth/messages'
import { Badge, type BadgeTone } from '~/components/admin/badge'
import { ConfirmPanel } from '~/components/ui/confirm-panel'
import { useConfirmedSubmit } from '~/components/ui/confirm'
import { ListCards } from '~/components/admin/admin-list'
import { EmptyState } from '~/components/ui/empty-state'
import { AdminErrorPage } from '~/components/admin/error-page'
import { FlashNotice } from '~/components/admin/flash-notice'
import { FormErrors, TextareaField, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { Card } from '~/components/ui/card'
import { Field } from '~/components/ui/field'
import { FilterChips, rangeText } from '~/components/admin/list-filters'
import { ListTableFrame } from '~/components/admin/list-table'
import { BackLink, PageHeader } from '~/components/admin/page-header'
import { PageNote } from '~/components/admin/page-note'
import { ListPagination } from '~/components/admin/pagination'
import { StatCard } from '~/components/admin/stat-card'
import {
  countAwaitingOrders,
  listStockItemsPage,
  stockCounts,
  type StockItemStatus,
} from '~/data/stock.server'
import { MAX_IMPORT_ITEMS } from '~/lib/stock-parse'
import { getProductDelivery } from '~/data/product.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { PRODUCT_MESSAGES } from '~/lib/validation/product'
import {
  filledOrdersText,
  importSummaryText,
  STOCK_FILE_ACCEPT,
  STOCK_MESSAGES,
  stockImportSchema,
} from '~/lib/validation/stock-import'
import { readFlash } from '~/lib/flash.server'
import { requireEditableProduct } from './product-form.server'
import { stockAction, type ImportAnswer } from './stock.server'
import { pageUrl, parseStatus, STATUSES } from './stock-paths'
import { stockKindsOnSale, testModeOnly } from '~/services/payment/offered-gateways.server'
import { countedText, forSale, statusLines } from '~/lib/stock-status'
import type { AdminPageHandle } from '~/components/admin/admin-shell'
import type { Route } from './+types/stock'
import { cn } from '~/components/ui/cn'
import { adminProductEditPath, adminStockPath, productPath } from '~/lib/paths'

/**
 * /admin/products/{id}/stock: the product's stock of accounts and keys. How it stands in the
 * shop now (as the Products list says), counts by state, import by pasting lines or uploading a
 * .txt/.csv file (de-duplicated; the summary says what was added, skipped and why), the items
 * page by page with a status filter (masked: a few of their characters, maskStockSecret), and
 * revoke for an unsold item. Every form posts to this route's action, so the page works without
 * JavaScript (revoke then asks on the page itself).
 */
/** This page says what test mode means here; the admin shell leaves its own banner out. */
export const handle: AdminPageHandle = { ownTestModeNote: true }

export async function loader({ request, params }: Route.LoaderArgs) {
  const { product, user } = await requireEditableProduct(request, params.id)
  const { db, env } = services()
  const url = new URL(request.url)
  const status = parseStatus(url.searchParams.get('status'))
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1
  const confirmId = url.searchParams.get('confirmRevoke')

  const [counts, list, awaiting, delivery, { flash, headers }, testMode, settings, kinds] =
    await Promise.all([
      stockCounts(db, product.id),
      listStockItemsPage(db, env.APP_SECRET, product.id, { status: status ?? undefined, page }),
      countAwaitingOrders(db, product.id),
      getProductDelivery(db, product.id),
      readFlash(request),
      testModeOnly(db, env),
      getSiteSettings(db),
      stockKindsOnSale(db, env),
    ])
  // Active or Out of Stock by the rule of the Products list and the dashboard.
  const facts = {
    inStock: product.inStock,
    deliveryMode: delivery?.mode ?? 'manual',
    buyNowLink: product.buyNowLink,
  }
  const date = shopDateTime(settings.timezone)
  const formatDate = (iso: string | null) => (iso ? date.format(new Date(iso)) : '')
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
          testItem: item.testItem,
          preview: item.preview,
          orderId: item.orderId,
          addedBy: item.addedByLabel,
          revokedReason: item.revokedReason,
          createdAt: formatDate(item.createdAt),
          deliveredAt: formatDate(item.deliveredAt),
          revokedAt: formatDate(item.revokedAt),
        })),
        total: list.total,
        page: list.page,
        pageCount: list.pageCount,
        pageSize: list.pageSize,
      },
      confirmRevoke: toConfirm ? { id: toConfirm.id, preview: toConfirm.preview } : null,
      maxItems: MAX_IMPORT_ITEMS,
      flash,
      testMode,
      // Payment Gateways is for admins with Can Manage Users (docs/decisions/0019).
      canConfigureGateways: mayConfigureShop(user.permissions),
      available: counts.availableByKind,
      sale: {
        sellable: forSale(facts, counts.availableByKind, kinds).sellable,
        lines: statusLines(facts, counts.availableByKind, kinds),
        counted: countedText(kinds),
      },
    },
    { headers },
  )
}

export async function action(args: Route.ActionArgs) {
  return stockAction(args)
}

// ---------------------------------------------------------------------------------------

const number = new Intl.NumberFormat('en-IN')

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
// Available's hint counts real and test items apart (availableHint).
const FIGURES: Record<StockItemStatus, { hint?: string; icon: typeof PackageCheck }> = {
  available: { icon: PackageCheck },
  held: { hint: 'Set aside for an order', icon: Clock },
  delivered: { hint: 'Sold to a buyer', icon: PackageOpen },
  revoked: { hint: 'Never to be sold', icon: PackageX },
}
const MODE_NAMES = { shared: 'as one shared secret', manual: 'by hand (manual)' } as const

/** An item's status, and whether it is a test item (sold only for test-mode payments). */
function StatusBadges({ item }: { item: StockItem }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      <Badge tone={STATUS_TONES[item.status]}>{STATUS_LABELS[item.status]}</Badge>
      {item.testItem ? (
        <Badge tone="violet" title="Delivered only for test-mode payments, never for real ones">
          Test
        </Badge>
      ) : null}
    </span>
  )
}

/**
 * What the Available figure is made of. Real items are ready to sell through a live gateway; test
 * items only ever go to test-mode payments, so a live shop holding only those is out of stock
 * (docs/delivery.md, "Test mode").
 */
function availableHint(available: { real: number; test: number }, testMode: boolean): string {
  const real = number.format(available.real)
  const test = number.format(available.test)
  return testMode
    ? `${real} real, kept for real payments; ${test} test, ready for test payments`
    : `${real} real, ready to sell; ${test} test, for test payments only`
}

/**
 * How the product stands in the shop now, as the Products list shows it (Active or Out of
 * Stock, and why), and which items that counts.
 */
function SaleLine({ sale }: { sale: LoaderData['sale'] }) {
  return (
    <section
      aria-label="In the shop now"
      className="rounded-2xl border border-slate-200 bg-white px-4 py-3 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-800 dark:text-slate-200">
        <span className="font-semibold text-slate-950 dark:text-white">In the shop now:</span>{' '}
        {sale.sellable ? (
          <Badge tone="success">Active</Badge>
        ) : (
          <Badge tone="danger">Out of Stock</Badge>
        )}{' '}
        <span>{sale.lines.join(' · ')}</span>
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{sale.counted}</p>
    </section>
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
  // A chosen file is checked at once (type, size), before the form is sent.
  const [form, fields] = useAppForm({
    schema: stockImportSchema,
    lastResult: answer?.result,
    shouldValidate: 'onInput',
  })
  const { key: fileKey, ...fileProps } = getInputProps(fields.file, {
    type: 'file',
    ariaAttributes: false,
  })

  return (
    <Card as="section" padding="responsive" aria-labelledby="import-heading">
      <h2 id="import-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
        Add stock
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Paste items or upload a file. Duplicates are skipped, within the import and against every
        item this product ever had (sold and revoked ones included), and so is an item another
        product has or had, so an item is never sold twice. Up to 5 MB and {number.format(maxItems)}{' '}
        items at a time.
      </p>

      <Form
        method="post"
        action={adminStockPath(productId)}
        encType="multipart/form-data"
        {...getFormProps(form)}
        aria-labelledby="import-heading"
        className="mt-5 space-y-5"
      >
        <input type="hidden" name="intent" value="import" />
        <TextareaField
          label="Paste items"
          field={fields.content}
          raw
          rows={6}
          surface="admin"
          placeholder={'LICENCE-KEY-0001\nuser@example.com / password'}
          textareaClassName="py-2.5 font-mono text-sm"
          hint="One item per line: a licence key, or an account such as user@example.com / password. Empty lines are skipped."
        />

        <div className="flex items-center gap-3 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
          <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
          or
          <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        </div>

        <Field
          label="Upload a file"
          id={fields.file.id}
          errors={fields.file.errors}
          hint={
            <>
              .txt: one item per line. .csv: the first line names the columns, such as{' '}
              <code className="font-semibold">email,password,note</code> (a different note does not
              make a different item). UTF-8, at most 5 MB.
            </>
          }
        >
          {(control) => (
            <input
              key={fileKey}
              {...fileProps}
              {...control}
              accept={STOCK_FILE_ACCEPT}
              className="block w-full rounded-xl border border-slate-300 bg-white text-sm text-slate-700 file:mr-3 file:h-11 file:border-0 file:bg-slate-100 file:px-4 file:font-semibold file:text-slate-800 hover:file:bg-slate-200 aria-[invalid=true]:border-rose-500 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-200 dark:file:bg-slate-800 dark:file:text-slate-100"
            />
          )}
        </Field>

        <div className="flex items-start gap-3">
          <input
            key={`test-${fileKey}`}
            id="stock-test-items"
            type="checkbox"
            name="testItems"
            value="yes"
            // A refused import keeps it as posted (the page is drawn anew without JavaScript).
            defaultChecked={answer?.testItems ?? false}
            aria-describedby="stock-test-items-hint"
            className="mt-0.5 size-5 shrink-0 rounded border-slate-300 text-brand-600 dark:border-slate-600"
          />
          <div className="space-y-0.5">
            <label
              htmlFor="stock-test-items"
              className="block text-sm font-medium text-slate-800 dark:text-slate-200"
            >
              These are test items
            </label>
            <p id="stock-test-items-hint" className="text-xs text-slate-600 dark:text-slate-400">
              Test items are delivered only for test-mode payments (the built-in simulators, a
              gateway&apos;s test environment), never for real ones. Leave this off for real
              accounts and keys: they are sold only through a real payment gateway.
            </p>
          </div>
        </div>

        <FormErrors id={form.errorId} errors={form.errors} />

        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" size="wide" disabled={importing}>
            {importing ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <Upload aria-hidden="true" className="size-4" />
            )}
            {importing ? 'Importing…' : 'Import items'}
          </Button>
        </div>
      </Form>

      <div aria-live="polite" className="mt-4 empty:hidden">
        {answer?.summary ? (
          <div
            role="status"
            className="rounded-xl border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100"
          >
            <p className="font-semibold">Import finished: {importSummaryText(answer.summary)}.</p>
            {answer.skipped ? <p className="mt-0.5">{answer.skipped}.</p> : null}
            <p className="mt-0.5">{filledOrdersText(answer.summary.filled)}</p>
          </div>
        ) : null}
      </div>
    </Card>
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
    { action: adminStockPath(productId) },
  )

  return (
    <Form method="post" action={adminStockPath(productId)} onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="revoke" />
      <input type="hidden" name="itemId" value={item.id} />
      {filter ? <input type="hidden" name="status" value={filter} /> : null}
      {page > 1 ? <input type="hidden" name="page" value={page} /> : null}
      <button
        type="submit"
        disabled={busy}
        aria-label={`Revoke item ${item.preview}`}
        className={buttonVariants({ variant: 'dangerOutline', size: 'row', block: !compact })}
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
        Added {item.createdAt} by {item.addedBy}
      </span>
      {item.orderId ? (
        <span className="block">
          Order <code className="text-xs">{item.orderId}</code>
          {item.deliveredAt ? `, delivered ${item.deliveredAt}` : ''}
        </span>
      ) : null}
      {item.status === 'revoked' ? (
        <span className="block">
          Revoked {item.revokedAt}
          {item.revokedReason ? ` (${item.revokedReason})` : ''}
        </span>
      ) : null}
    </>
  )
}

export default function ProductStock({ loaderData, actionData }: Route.ComponentProps) {
  const {
    product,
    deliveryMode,
    counts,
    awaiting,
    filter,
    list,
    confirmRevoke,
    maxItems,
    flash,
    testMode,
    available,
  } = loaderData
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
        <BackLink to={href('/admin/products')}>{PRODUCT_MESSAGES.backToProducts}</BackLink>
        <PageHeader
          title={`Stock: ${product.title}`}
          description="The accounts and keys this product delivers, one per order. They are stored encrypted; this page shows only a few of their characters, enough to tell them apart."
        >
          <Link
            to={adminProductEditPath(product.id)}
            className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'font-medium')}
          >
            <Pencil aria-hidden="true" className="size-4" />
            Edit product
          </Link>
          <Link
            to={productPath(product.slug)}
            className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'font-medium')}
          >
            <Eye aria-hidden="true" className="size-4" />
            View in shop
          </Link>
        </PageHeader>
      </div>

      <SaleLine sale={loaderData.sale} />

      {deliveryMode !== 'stock' ? (
        <PageNote tone="amber" icon={Info}>
          This product is delivered {MODE_NAMES[deliveryMode]}, so its orders do not take items from
          this stock.{' '}
          <Link
            to={`${adminProductEditPath(product.id)}#section-delivery`}
            className="font-semibold underline"
          >
            Change the delivery mode
          </Link>{' '}
          to sell from stock.
        </PageNote>
      ) : null}

      {testMode ? (
        <PageNote tone="amber" icon={Info} label="Test mode stock">
          <span className="font-semibold">
            Test mode: real stock is not sold while no live payment gateway is configured.
          </span>{' '}
          Available now: {number.format(available.real)} real (kept for real payments),{' '}
          {number.format(available.test)} test (delivered for test payments).{' '}
          {loaderData.canConfigureGateways ? (
            <Link to={href('/admin/gateways')} className="font-semibold underline">
              Configure a gateway in Payment Gateways
            </Link>
          ) : (
            'An admin with Can Manage Users configures a gateway in Payment Gateways'
          )}{' '}
          to sell the real ones.
        </PageNote>
      ) : null}

      {awaiting > 0 ? (
        <PageNote tone="sky" icon={Clock}>
          <span className="font-semibold">
            {awaiting === 1
              ? '1 paid order is waiting for stock.'
              : `${number.format(awaiting)} paid orders are waiting for stock.`}
          </span>{' '}
          Adding items delivers them at once, oldest first.
        </PageNote>
      ) : null}

      <FlashNotice flash={flash} />

      <ul aria-label="Stock figures" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {STATUSES.map((status) => (
          <StatCard
            key={status}
            label={STATUS_LABELS[status]}
            value={number.format(counts[status])}
            hint={
              status === 'available'
                ? availableHint(counts.availableByKind, testMode)
                : FIGURES[status].hint
            }
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
          action={adminStockPath(product.id)}
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
            <ListTableFrame
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
                    <StatusBadges item={item} />
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
            </ListTableFrame>
            <ListCards label="Stock items, newest first" hiddenFrom="lg">
              {list.items.map((item) => (
                <li key={item.id} className="space-y-2 p-4">
                  <div className="flex items-start justify-between gap-3">
                    <code className="min-w-0 break-all font-mono text-sm text-slate-900 dark:text-slate-100">
                      {item.preview}
                    </code>
                    <StatusBadges item={item} />
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
            </ListCards>
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
