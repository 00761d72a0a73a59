import { services } from '~/lib/app-context.server'
import { renderCreditNotePdf } from '~/services/invoice.server'
import { getCreditNoteData } from '~/data/credit-note.server'
import { clientIp } from '~/lib/rate-limit.server'
import { orderPdf } from '~/services/order-access.server'
import type { Route } from './+types/credit-note'

/**
 * /orders/{orderId}/credit-notes/{creditNoteId}: a refund's credit note (docs/delivery.md,
 * "Credit notes"), for whoever may see the order (./order-access.server.ts). A credit note of
 * another order, or none, answers like an order that does not exist or may not be seen: the
 * same plain 404.
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return orderPdf(
    request,
    clientIp(context),
    params.orderId,
    (order) => getCreditNoteData(services().db, order.id, params.creditNoteId),
    async (note) => {
      // Named after its number: CN/26-27/00001 -> credit-note-CN-26-27-00001.pdf.
      const name = note.testMode ? `test-${params.creditNoteId}` : note.creditNoteNumber
      return {
        pdf: await renderCreditNotePdf(note),
        filename: `credit-note-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}.pdf`,
      }
    },
  )
}
