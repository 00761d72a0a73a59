import { redirect } from 'react-router'
import { OrderErrorPage, ORDER_NOT_FOUND } from '~/components/orders/order-error'
import { orderPath } from '~/lib/order-status'
import { rootMetaData } from '~/components/shop/site-data'
import { services } from '~/lib/app-context.server'
import { clientIp } from '~/lib/rate-limit.server'
import {
  ORDER_PAGE_HEADERS,
  orderAccessCookie,
  orderNotFound,
  orderPageHeaders,
  presentedTokenOpens,
} from '~/services/order-access.server'
import type { Route } from './+types/token'

/**
 * /orders/{orderId}/{token}: the secret link of the order e-mails. A token that opens the
 * order is kept in this browser's order cookie and the browser goes on to /orders/{orderId}
 * (303), so the token leaves the address bar and the history. Anything else is the order
 * pages' 404; failures are rate-limited per address.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { env } = services()
  if (!(await presentedTokenOpens(clientIp(context), params.orderId, params.token))) orderNotFound()
  throw redirect(orderPath(params.orderId), {
    status: 303,
    headers: {
      ...ORDER_PAGE_HEADERS,
      'Set-Cookie': orderAccessCookie(request, params.orderId, params.token, env.PUBLIC_URL),
      // The link's address is not passed on to the order page's request.
      'Referrer-Policy': 'no-referrer',
    },
  })
}

/** Never shown: the loader always redirects or answers with the error page below. */
export default function OrderLink() {
  return null
}

export const headers = orderPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  const siteName = rootMetaData(matches)?.site.siteName ?? 'KeyBazaar'
  return [
    { title: `${ORDER_NOT_FOUND.title} | ${siteName}` },
    { name: 'robots', content: 'noindex' },
  ]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <OrderErrorPage error={error} />
}
