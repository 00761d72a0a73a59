import PackageX from 'lucide-react/icons/package-x'
import { useEffect, useState } from 'react'
import { href, isRouteErrorResponse, useNavigate } from 'react-router'
import { accountPageMeta } from '~/components/auth/messages'
import { AdminErrorPage } from '~/components/admin/error-page'
import { ProductForm } from '~/components/admin/product-form'
import { toast } from '~/components/ui/toast'
import { listCategories } from '~/data/product.server'
import { stockCounts } from '~/data/stock.server'
import { services } from '~/lib/app-context.server'
import { clientIp } from '~/lib/rate-limit.server'
import { PRODUCT_MESSAGES } from '~/lib/validation/product'
import { stockKindsOnSale } from '~/services/payment/offered-gateways.server'
import { itemsOnSale } from '~/lib/stock-status'
import { productEditVersion } from '~/services/product-admin.server'
import {
  productInitial,
  requireEditableProduct,
  saveProductForm,
  savedDelivery,
} from './product-form.server'
import type { Route } from './+types/edit'
import { adminStockPath } from '~/lib/paths'

/**
 * /admin/products/edit/{id}. While it loads, the admin header says
 * 'Loading product...'; an unknown id is a 404 page 'Product Not Found' that toasts
 * 'Product not found' and returns to the list (or at once with Back to Products).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { product } = await requireEditableProduct(request, params.id)
  const { db, env } = services()
  const [categories, delivery, counts, stockKinds] = await Promise.all([
    listCategories(db),
    savedDelivery(product),
    stockCounts(db, product.id),
    stockKindsOnSale(db, env),
  ])
  // The items buyers can buy, as the products list counts them: real ones through a live
  // gateway, test ones through a simulator (app/lib/stock-status.ts). The stock page shows the
  // two kinds apart.
  return {
    id: product.id,
    categories,
    initial: await productInitial(product, delivery),
    // What this page shows of the product; the form posts it, and a save over a newer change
    // is refused (saveProductForm).
    version: productEditVersion(product, delivery),
    savedImage: product.image,
    saved: {
      hasSharedSecret: delivery.hasSharedSecret,
      stockAvailable: itemsOnSale(counts.availableByKind, stockKinds),
      stockKinds,
      stockUrl: adminStockPath(product.id),
    },
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, product } = await requireEditableProduct(request, params.id)
  return saveProductForm(request, { mode: 'edit', product }, { actor: user, ip: clientIp(context) })
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ProductForm
      // Another product (or the same one saved elsewhere) starts from its own values.
      key={loaderData.id}
      mode="edit"
      categories={loaderData.categories}
      initial={actionData?.initial ?? loaderData.initial}
      // A refused save keeps the version its values came from: only a reload makes it current.
      version={actionData?.version ?? loaderData.version}
      savedImage={loaderData.savedImage}
      saved={loaderData.saved}
      result={actionData}
    />
  )
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return accountPageMeta(
    matches,
    loaderData ? `Edit ${loaderData.initial.title}` : PRODUCT_MESSAGES.notFoundTitle,
  )
}

/** Seconds before the Product Not Found page returns to the list (the toast's 5 s). */
const RETURN_AFTER_SECONDS = 5

function ProductNotFound() {
  const navigate = useNavigate()
  const [seconds, setSeconds] = useState(RETURN_AFTER_SECONDS)
  const [staying, setStaying] = useState(false)

  useEffect(() => {
    toast.error(PRODUCT_MESSAGES.notFound)
  }, [])
  useEffect(() => {
    if (staying) return
    if (seconds <= 0) {
      void navigate(href('/admin/products'), { replace: true })
      return
    }
    const timer = setTimeout(() => setSeconds((value) => value - 1), 1000)
    return () => clearTimeout(timer)
  }, [seconds, staying, navigate])

  return (
    <AdminErrorPage
      icon={PackageX}
      title={PRODUCT_MESSAGES.notFoundTitle}
      backTo="/admin/products"
      backLabel={PRODUCT_MESSAGES.backToProducts}
      footer={
        staying ? null : (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            Returning to the products list in {seconds} s.{' '}
            <button
              type="button"
              onClick={() => setStaying(true)}
              className="font-medium text-brand-700 underline dark:text-brand-300"
            >
              Stay on this page
            </button>
          </p>
        )
      }
    >
      {PRODUCT_MESSAGES.notFound}. It may have been deleted.
    </AdminErrorPage>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <ProductNotFound />
  // Anything else (a 403 goes to the admin layout's Access Denied page).
  if (isRouteErrorResponse(error) && error.status === 403) throw error
  return (
    <AdminErrorPage
      title="Something went wrong"
      backTo="/admin/products"
      backLabel={PRODUCT_MESSAGES.backToProducts}
    >
      The product could not be loaded. Please try again in a moment.
    </AdminErrorPage>
  )
}
