import { services } from '~/lib/app-context.server'
import { renderInvoicePdf } from '~/services/invoice.server'
import { getInvoiceData } from '~/data/invoice.server'
import { clientIp, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { findViewableOrder, ORDER_PAGE_HEADERS } from '~/services/order-access.server'
import type { Route } from './+types/invoice'

/**
 * /orders/{orderId}/invoice.pdf: the invoice of a paid order, for whoever may see the
 * order (./order-access.server.ts). An order without an invoice (not paid yet, failed or
 * refunded) answers like one that does not exist or may not be seen: the same plain 404.
 */
function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { ...ORDER_PAGE_HEADERS, ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  })
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await findViewableOrder(request, clientIp(context), params.orderId)
  if (!access.ok && access.status === 429) {
    return plain(429, tooManyAttemptsMessage(access.retryAfterSeconds), {
      'Retry-After': String(access.retryAfterSeconds),
    })
  }
  const invoice = access.ok ? await getInvoiceData(services().db, access.viewer.order.id) : null
  if (!invoice) return plain(404, 'Not Found')
  const pdf = await renderInvoicePdf(invoice)
  return new Response(new Uint8Array(pdf), {
    headers: {
      ...ORDER_PAGE_HEADERS,
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="invoice-${invoice.orderId}.pdf"`,
      'Content-Length': String(pdf.length),
    },
  })
}
