import { href, redirect } from 'react-router'
import { requirePermission } from '~/services/permissions.server'
import { PRODUCT_MESSAGES } from '~/lib/validation/product'
import { flashHeaders } from '~/lib/flash.server'
import type { Route } from './+types/edit-missing-id'

/** /admin/products/edit without an id: 'Product ID not found', back to the list. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canCreateProducts')
  throw redirect(href('/admin/products'), {
    headers: await flashHeaders('error', PRODUCT_MESSAGES.idMissing),
  })
}
