import Boxes from 'lucide-react/icons/boxes'
import Copy from 'lucide-react/icons/copy'
import Eye from 'lucide-react/icons/eye'
import MessageSquareText from 'lucide-react/icons/message-square-text'
import Package from 'lucide-react/icons/package'
import PackageCheck from 'lucide-react/icons/package-check'
import Pencil from 'lucide-react/icons/pencil'
import Plus from 'lucide-react/icons/plus'
import Star from 'lucide-react/icons/star'
import Trash2 from 'lucide-react/icons/trash-2'
import { data, Form, href, Link, redirect, useNavigation } from 'react-router'
import { accountPageMeta } from '~/components/auth/messages'
import { Badge } from '~/components/admin/badge'
import { ConfirmPanel } from '~/components/ui/confirm-panel'
import { useConfirmedSubmit } from '~/components/ui/confirm'
import { AdminList } from '~/components/admin/admin-list'
import { FlashNotice } from '~/components/admin/flash-notice'
import { optionsOf, SearchField, SelectField } from '~/components/admin/list-filters'
import { StatCard } from '~/components/admin/stat-card'
import { PageHeader } from '~/components/admin/page-header'
import {
  getProductById,
  listCategories,
  listProductsPage,
  productStats,
  stockByKind,
} from '~/data/product.server'
import { services } from '~/lib/app-context.server'
import { imageRefs } from '~/lib/images.server'
import { imageVariantUrl, type ImageRef } from '~/lib/images'
import { formatRupees } from '~/lib/money'
import { searchParam } from '~/lib/list-search'
import { pageParam, pageView } from '~/lib/paginate'
import { requirePermission } from '~/services/permissions.server'
import { copyProductImage, imageCacheDir } from '~/lib/uploads.server'
import { removeProductImage } from '~/services/product-images.server'
import { storefrontReviewScope } from '~/services/reviews.server'
import { stockKindsOnSale } from '~/services/payment/offered-gateways.server'
import { countedShort, forSale, statusLines } from '~/lib/stock-status'
import {
  deleteProductAudited,
  duplicateProductAudited,
  reviewCounts,
} from '~/services/product-admin.server'
import { clientIp } from '~/lib/rate-limit.server'
import {
  deleteConfirmation,
  duplicatedMessage,
  openSalesMessage,
  PRODUCT_MESSAGES,
} from '~/lib/validation/product'
import { flashHeaders, readFlash } from '~/lib/flash.server'
import type { Route } from './+types/list'
import { readFormData } from '~/lib/form-data.server'
import { buttonVariants } from '~/components/ui/button-variants'
import { cn } from '~/components/ui/cn'
import { adminProductEditPath, adminStockPath, productPath } from '~/lib/paths'

/**
 * /admin/products: figures over the whole catalogue, search by title and a
 * category filter in the URL, a server-side page of the table, and the row actions. Delete and
 * duplicate are POST forms answered with a redirect back and a one-time toast, so they work
 * without JavaScript too (delete then asks on the page itself instead of in a dialog).
 */
const LIST_PATH = href('/admin/products')

/** Back to the list as it was (search, category, page); nothing else is accepted. */
function listUrl(source: URLSearchParams, overrides: Record<string, string | null> = {}): string {
  const params = new URLSearchParams()
  for (const name of ['q', 'category', 'page', 'confirmDelete']) {
    const value = name in overrides ? overrides[name] : source.get(name)
    if (value) params.set(name, value)
  }
  const query = params.toString()
  return query ? `${LIST_PATH}?${query}` : LIST_PATH
}

function returnParams(value: FormDataEntryValue | null): URLSearchParams {
  return new URLSearchParams(typeof value === 'string' ? value.replace(/^\?/, '') : '')
}

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canCreateProducts')
  const { db, env } = services()
  const url = new URL(request.url)
  const search = searchParam(url)
  const categories = await listCategories(db)
  const requestedCategory = url.searchParams.get('category') ?? ''
  const category = categories.includes(requestedCategory) ? requestedCategory : ''
  const confirmId = url.searchParams.get('confirmDelete')
  // The ratings buyers see: test orders' reviews leave them once a live gateway is on.
  const reviewScope = await storefrontReviewScope(db, env)

  // What buyers can buy now decides Active and the stock shown: test items in test mode, real
  // ones with live gateways (app/lib/stock-status.ts), as on the dashboard and the Stock page.
  const kinds = await stockKindsOnSale(db, env)
  const [stats, result, toConfirm, confirmReviews, { flash, headers }] = await Promise.all([
    productStats(db, reviewScope, kinds),
    listProductsPage(db, { search, category, page: pageParam(url) }, reviewScope),
    confirmId ? getProductById(db, confirmId) : null,
    confirmId ? reviewCounts(db, [confirmId]) : null,
    readFlash(request),
  ])
  const [images, stock, reviews] = await Promise.all([
    imageRefs(result.items.map((item) => item.image)),
    stockByKind(
      db,
      result.items.map((item) => item.id),
    ),
    // Hidden ones included: the delete question says how many go with the product.
    reviewCounts(
      db,
      result.items.map((item) => item.id),
    ),
  ])
  return data(
    {
      stats,
      categories,
      filters: { search, category },
      page: pageView(result, result.total),
      kinds,
      products: result.items.map((item, index) => {
        const available = stock.get(item.id) ?? null
        return {
          ...item,
          image: images[index] ?? null,
          // Active (buyers can order it now) or Out of Stock, and the lines that say why.
          forSale: forSale(item, available, kinds).sellable,
          statusLines: statusLines(item, available, kinds),
          // Every review of it (`reviews` counts the visible ones): deleted with it.
          allReviews: reviews.get(item.id) ?? 0,
        }
      }),
      confirmDelete: toConfirm
        ? {
            id: toConfirm.id,
            title: toConfirm.title,
            reviews: confirmReviews?.get(toConfirm.id) ?? 0,
          }
        : null,
      flash,
    },
    { headers },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requirePermission(request, 'canCreateProducts')
  const { db, storage, env } = services()
  const form = await readFormData(request)
  const intent = form.get('intent')
  const id = String(form.get('id') ?? '')
  const back = returnParams(form.get('returnTo'))

  if (intent === 'delete') {
    // Without JavaScript there was no dialog yet: ask on the page first.
    if (form.get('confirmed') !== 'yes') throw redirect(listUrl(back, { confirmDelete: id }))
    let headers: Headers
    try {
      const result = await deleteProductAudited(db, env.APP_SECRET, id, {
        actor: user,
        ip: clientIp(context),
      })
      if (result.status === 'deleted') {
        await removeProductImage(db, storage, result.product.image, { cacheDir: imageCacheDir() })
        headers = await flashHeaders('success', PRODUCT_MESSAGES.deleted)
      } else if (result.status === 'open-sales') {
        headers = await flashHeaders('error', openSalesMessage(result.title, result))
      } else {
        headers = await flashHeaders('error', PRODUCT_MESSAGES.deleteGone)
      }
    } catch (error) {
      console.error('[admin] deleting a product failed:', error)
      headers = await flashHeaders('error', PRODUCT_MESSAGES.deleteFailed)
    }
    throw redirect(listUrl(back, { confirmDelete: null }), { headers })
  }

  if (intent === 'duplicate') {
    let headers: Headers
    try {
      const source = await getProductById(db, id)
      if (!source) {
        headers = await flashHeaders('error', PRODUCT_MESSAGES.duplicateSourceMissing)
      } else {
        // The copy gets its own image file, so deleting either product keeps the other's.
        const image = await copyProductImage(storage, source.image)
        const copy = await duplicateProductAudited(
          db,
          { source, image, appSecret: env.APP_SECRET },
          { actor: user, ip: clientIp(context) },
        )
        if (copy) {
          headers = await flashHeaders('success', duplicatedMessage(source.title))
        } else {
          if (image !== source.image) await storage.delete(image)
          headers = await flashHeaders('error', PRODUCT_MESSAGES.duplicateSourceMissing)
        }
      }
    } catch (error) {
      console.error('[admin] duplicating a product failed:', error)
      headers = await flashHeaders('error', PRODUCT_MESSAGES.duplicateFailed)
    }
    // The copy is the newest product: show the first page, where it is.
    throw redirect(listUrl(back, { page: null, confirmDelete: null }), { headers })
  }

  throw data('Unknown action', { status: 400 })
}

const number = new Intl.NumberFormat('en-IN')
const rating = new Intl.NumberFormat('en-IN', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
})

type ListProduct = Route.ComponentProps['loaderData']['products'][number]

function Thumbnail({ image, className = '' }: { image: ImageRef | null; className?: string }) {
  if (!image) {
    return (
      <span
        aria-hidden="true"
        className={`flex aspect-[4/3] items-center justify-center rounded-lg bg-slate-100 text-slate-400 dark:bg-slate-800 ${className}`}
      >
        <Package className="size-5" />
      </span>
    )
  }
  return (
    <img
      src={imageVariantUrl(image, 320)}
      alt=""
      width={320}
      height={240}
      loading="lazy"
      decoding="async"
      className={`aspect-[4/3] rounded-lg bg-slate-100 object-cover dark:bg-slate-800 ${className}`}
    />
  )
}

/**
 * Active or Out of Stock as buyers find it now, with what decides it under the badge: marked
 * out of stock, a buy now link, and the stock of the kind that sells (app/lib/stock-status.ts).
 */
function SaleStatus({ product, narrow }: { product: ListProduct; narrow: boolean }) {
  return (
    <>
      {product.forSale ? (
        <Badge tone="success">Active</Badge>
      ) : (
        <Badge tone="danger">Out of Stock</Badge>
      )}
      <span
        className={`mt-1 block text-xs text-slate-600 dark:text-slate-400 ${narrow ? 'min-w-32 max-w-40' : ''}`}
      >
        {product.statusLines.map((line) => (
          <span key={line} className="block">
            {line}
          </span>
        ))}
      </span>
    </>
  )
}

// A little smaller than the usual icon button, so the five fit beside the table's other columns.
const iconButton = cn(buttonVariants({ variant: 'ghost', size: 'icon' }), 'size-9')
const textButton = cn(buttonVariants({ variant: 'outline', size: 'row' }), 'flex-1 px-2')

/** View, edit, duplicate, delete: icon buttons in the table, labelled buttons on phones. */
function RowActions({
  product,
  returnTo,
  compact,
}: {
  product: ListProduct
  returnTo: string
  compact: boolean
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('id') === product.id
  const button = compact ? iconButton : textButton
  const label = (text: string) => (compact ? <span className="sr-only">{text}</span> : text)
  const onDelete = useConfirmedSubmit(
    {
      title: 'Delete product',
      description: deleteConfirmation(product.title, product.allReviews),
      confirmLabel: 'Delete',
      destructive: true,
    },
    { action: LIST_PATH },
  )

  return (
    <div
      className={
        compact
          ? // Three a row beside a 1280 px laptop's sidebar, all five where the table has room.
            'ml-auto flex w-28 flex-wrap justify-end gap-0.5 min-[1360px]:w-auto min-[1360px]:flex-nowrap'
          : 'grid grid-cols-3 gap-2 sm:grid-cols-5'
      }
    >
      <Link
        to={productPath(product.slug)}
        className={button}
        title={compact ? 'View in the shop' : undefined}
        aria-label={`View ${product.title}`}
      >
        <Eye aria-hidden="true" className="size-4" />
        {label('View')}
      </Link>
      <Link
        to={adminProductEditPath(product.id)}
        className={button}
        title={compact ? 'Edit' : undefined}
        aria-label={`Edit ${product.title}`}
      >
        <Pencil aria-hidden="true" className="size-4" />
        {label('Edit')}
      </Link>
      <Link
        to={adminStockPath(product.id)}
        className={button}
        title={compact ? 'Stock' : undefined}
        aria-label={`Stock of ${product.title}`}
      >
        <Boxes aria-hidden="true" className="size-4" />
        {label('Stock')}
      </Link>
      <Form method="post" action={LIST_PATH} className={compact ? '' : 'flex'}>
        <input type="hidden" name="intent" value="duplicate" />
        <input type="hidden" name="id" value={product.id} />
        <input type="hidden" name="returnTo" value={returnTo} />
        <button
          type="submit"
          disabled={busy}
          className={compact ? button : `${button} w-full`}
          title={compact ? 'Duplicate' : undefined}
          aria-label={`Duplicate ${product.title}`}
        >
          <Copy aria-hidden="true" className="size-4" />
          {label('Duplicate')}
        </button>
      </Form>
      <Form method="post" action={LIST_PATH} onSubmit={onDelete} className={compact ? '' : 'flex'}>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={product.id} />
        <input type="hidden" name="returnTo" value={returnTo} />
        <button
          type="submit"
          disabled={busy}
          className={`${button} ${compact ? '' : 'w-full'} text-rose-700 hover:text-rose-800 dark:text-rose-400 dark:hover:text-rose-300`}
          title={compact ? 'Delete' : undefined}
          aria-label={`Delete ${product.title}`}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          {label('Delete')}
        </button>
      </Form>
    </div>
  )
}

function AddProductLink() {
  return (
    <Link to={href('/admin/products/add')} className={buttonVariants()}>
      <Plus aria-hidden="true" className="size-5" />
      Add Product
    </Link>
  )
}

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { stats, categories, filters, page, products, confirmDelete, flash } = loaderData
  const returnTo = new URLSearchParams({
    ...(filters.search ? { q: filters.search } : {}),
    ...(filters.category ? { category: filters.category } : {}),
    ...(page.number > 1 ? { page: String(page.number) } : {}),
  }).toString()
  const filtered = Boolean(filters.search || filters.category)

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Products"
        description="Manage your catalogue: prices, images, stock status and visibility."
      >
        <AddProductLink />
      </PageHeader>

      <ul aria-label="Catalogue figures" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Total Products" value={number.format(stats.total)} icon={Package} />
        <StatCard
          label="Active"
          value={number.format(stats.active)}
          hint={`For sale now, ${countedShort(loaderData.kinds)}`}
          icon={PackageCheck}
        />
        <StatCard label="Average Rating" value={rating.format(stats.averageRating)} icon={Star} />
        <StatCard
          label="Total Reviews"
          value={number.format(stats.totalReviews)}
          icon={MessageSquareText}
        />
      </ul>

      <FlashNotice flash={flash} />

      {confirmDelete ? (
        // Without JavaScript, delete asks here instead of in a dialog.
        <ConfirmPanel
          id="confirm-delete-title"
          title="Delete product"
          action={LIST_PATH}
          fields={{ intent: 'delete', id: confirmDelete.id, returnTo }}
          confirmLabel="Delete"
          cancelTo={returnTo ? `${LIST_PATH}?${returnTo}` : LIST_PATH}
        >
          {deleteConfirmation(confirmDelete.title, confirmDelete.reviews)}
        </ConfirmPanel>
      ) : null}

      <AdminList
        label="Products"
        path={LIST_PATH}
        page={page}
        noun={{ one: 'product', many: 'products' }}
        pageHref={(n) => listUrl(new URLSearchParams(returnTo), { page: n > 1 ? String(n) : null })}
        filtered={filtered}
        filterBreakpoint="sm"
        fields={
          <>
            <SearchField
              id="product-search"
              label="Search by title"
              value={filters.search}
              placeholder="Search products..."
            />
            <SelectField
              id="product-category"
              label="Category"
              name="category"
              value={filters.category}
              allLabel="All Categories"
              options={optionsOf(categories)}
            />
          </>
        }
        empty={{
          icon: Package,
          title: PRODUCT_MESSAGES.noProducts,
          filtered:
            'No product matches this search and category. Try other words or all categories.',
          unfiltered: 'Your catalogue is empty. Add your first product to start selling.',
          action: <AddProductLink />,
        }}
        rows={products}
        rowKey={(product) => product.id}
        columns={[
          {
            label: 'Product',
            cell: (product) => (
              // Titles wrap rather than lose their end, where the plan's length tells variants
              // apart ("StreamVerse Premium 12 Months"); the table fits a 1280 px laptop.
              <div className="flex min-w-56 items-center gap-3">
                <Thumbnail image={product.image} className="w-12 shrink-0" />
                <p
                  className="line-clamp-3 min-w-0 break-words font-semibold text-slate-950 dark:text-white"
                  title={product.title}
                >
                  {product.title}
                </p>
              </div>
            ),
          },
          {
            label: 'ID',
            cell: (product) => (
              <code className="text-xs text-slate-600 dark:text-slate-300" title={product.id}>
                {product.id.slice(0, 6)}…
              </code>
            ),
          },
          // A long category ("WordPress Themes") takes two lines rather than the title's room.
          { label: 'Category', look: 'text', cell: (product) => product.category },
          {
            label: 'Price',
            align: 'right',
            look: 'line',
            cell: (product) => (
              <>
                <span className="font-semibold text-slate-950 dark:text-white">
                  {formatRupees(product.price)}
                </span>
                {product.originalPrice > product.price ? (
                  <span className="block text-xs text-slate-500 line-through dark:text-slate-400">
                    {formatRupees(product.originalPrice)}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            label: 'Reviews',
            align: 'right',
            look: 'count',
            cell: (product) => number.format(product.reviews),
          },
          {
            label: 'Rating',
            align: 'right',
            look: 'count',
            cell: (product) => rating.format(product.rating),
          },
          {
            label: 'Status',
            cell: (product) => <SaleStatus product={product} narrow />,
          },
          {
            label: 'Actions',
            align: 'right',
            cell: (product) => <RowActions product={product} returnTo={returnTo} compact />,
          },
        ]}
        cardLayout="grid"
        card={(product) => (
          <li className="space-y-3 bg-white p-4 dark:bg-slate-900">
            <div className="flex gap-3">
              <Thumbnail image={product.image} className="w-24 shrink-0" />
              <div className="min-w-0 flex-1">
                <h2
                  className="line-clamp-3 break-words font-semibold text-slate-950 dark:text-white"
                  title={product.title}
                >
                  {product.title}
                </h2>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  {product.category} · <span title={product.id}>ID {product.id.slice(0, 8)}…</span>
                </p>
                <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  <span className="font-semibold text-slate-950 dark:text-white">
                    {formatRupees(product.price)}
                  </span>
                  <span className="inline-flex items-center gap-1 text-slate-600 dark:text-slate-300">
                    <Star aria-hidden="true" className="size-3.5 fill-amber-400 text-amber-400" />
                    {rating.format(product.rating)}
                    <span className="sr-only"> rating,</span> ({number.format(product.reviews)}{' '}
                    reviews)
                  </span>
                  <span className="basis-full">
                    <SaleStatus product={product} narrow />
                  </span>
                </div>
              </div>
            </div>
            <RowActions product={product} returnTo={returnTo} compact={false} />
          </li>
        )}
      />
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Products')
}
