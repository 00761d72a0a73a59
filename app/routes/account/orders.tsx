import ShoppingBag from 'lucide-react/icons/shopping-bag'
import { href } from 'react-router'
import { AccountPageHeader, BrowseProductsLink } from '~/components/account/account-page'
import { Pagination } from '~/components/admin/pagination'
import { accountPageMeta } from '~/components/auth/messages'
import { CustomerOrderList, customerOrderItem } from '~/components/orders/customer-order-list'
import { listCustomerOrders } from '~/data/customer-orders.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { requireUser } from '~/services/auth.server'
import { shopDateTime } from '~/lib/date-format'
import { accountPageHeaders } from '~/lib/page-headers'
import type { Route } from './+types/orders'
import { buttonVariants } from '~/components/ui/button-variants'
import { EmptyState } from '~/components/ui/empty-state'

/**
 * /dashboard/orders: My Orders. The signed-in user's own orders (placed while signed in, and
 * guest orders with the account's e-mail once it is verified; see
 * app/data/customer-orders.server.ts), newest first, 20 to a page (?page=), each linking to its order page and invoice.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const { db } = services()
  const requested = Number(new URL(request.url).searchParams.get('page') ?? '1')
  const [result, settings] = await Promise.all([
    listCustomerOrders(db, user.id, { page: requested }),
    getSiteSettings(db),
  ])
  const when = shopDateTime(settings.timezone)
  return {
    orders: result.orders.map((order) => customerOrderItem(order, when)),
    total: result.total,
    page: result.page,
    pageCount: result.pageCount,
  }
}

export default function MyOrders({ loaderData }: Route.ComponentProps) {
  const { orders, total, page, pageCount } = loaderData
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <AccountPageHeader title="My Orders">
        {total === 0
          ? 'Everything you buy while signed in, or as a guest with this e-mail address, appears here.'
          : `${total} order${total === 1 ? '' : 's'}, newest first. Open one to see its details, account details and invoice.`}
      </AccountPageHeader>
      {orders.length === 0 ? (
        <EmptyState
          framed
          icon={ShoppingBag}
          title="No orders yet"
          action={
            <BrowseProductsLink to={href('/')} className={buttonVariants({ size: 'wide' })} />
          }
        >
          Bought something as a guest? Use the link in your order e-mail to open it.
        </EmptyState>
      ) : (
        <>
          <CustomerOrderList orders={orders} />
          {pageCount > 1 ? (
            <Pagination
              page={page}
              pageCount={pageCount}
              href={(n) => `${href('/dashboard/orders')}?page=${n}`}
            />
          ) : null}
        </>
      )}
    </div>
  )
}

// Personal data: not to be stored by the browser or any cache on the way.
export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'My Orders')
}
