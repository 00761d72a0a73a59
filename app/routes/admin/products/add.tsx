import { accountPageMeta } from '~/components/auth/messages'
import { ProductForm } from '~/components/admin/product-form'
import { listCategories } from '~/data/product.server'
import { services } from '~/lib/app-context.server'
import { clientIp } from '~/lib/rate-limit.server'
import { requirePermission } from '~/services/permissions.server'
import { emptyProductInitial, saveProductForm } from './product-form.server'
import type { Route } from './+types/add'

/** /admin/products/add: 'Add New Product'; saved, it returns to the list. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canCreateProducts')
  const categories = await listCategories(services().db)
  return { categories, initial: emptyProductInitial(categories) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requirePermission(request, 'canCreateProducts')
  return saveProductForm(request, { mode: 'add' }, { actor: user, ip: clientIp(context) })
}

export default function AddProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ProductForm
      mode="add"
      categories={loaderData.categories}
      // Without JavaScript a refused save renders the page again with what was typed.
      initial={actionData?.initial ?? loaderData.initial}
      savedImage=""
      result={actionData}
    />
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Add New Product')
}
