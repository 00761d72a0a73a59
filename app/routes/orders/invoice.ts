import { services } from '~/lib/app-context.server'
import { renderInvoicePdf } from '~/services/invoice.server'
import { getInvoiceData } from '~/data/invoice.server'
import { clientIp } from '~/lib/rate-limit.server'
import { orderPdf } from '~/services/order-access.server'
import type { Route } from './+types/invoice'

/**
 * /orders/{orderId}/invoice.pdf: the invoice of a paid order, or of a refunded one beside its
 * credit notes, for whoever may see the order (./order-access.server.ts). An order without an
 * invoice (not paid yet, failed) answers like one that does not exist or may not be seen: the
 * same plain 404.
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return orderPdf(
    request,
    clientIp(context),
    params.orderId,
    (order) => getInvoiceData(services().db, order.id),
    async (invoice) => ({
      pdf: await renderInvoicePdf(invoice),
      filename: `invoice-${invoice.orderId}.pdf`,
    }),
  )
}
