import Mail from 'lucide-react/icons/mail'
import MessageCircle from 'lucide-react/icons/message-circle'
import { useSiteSettings } from '~/components/shop/site-data'
import { orderHelpMessage, whatsappLink } from '~/lib/whatsapp'

/**
 * "Need help?" about one order: a WhatsApp chat with the order id filled in and the shop's
 * e-mail (docs/delivery.md), on the buyer's order page and a payment link's page. The contacts
 * are the shop's own (admin settings); a link without its setting is left out.
 */
export function OrderHelp({
  order,
  className,
}: {
  order: { id: string; productName: string }
  className?: string
}) {
  const site = useSiteSettings()
  const whatsapp = whatsappLink(site.whatsappNumber, orderHelpMessage(site.siteName, order))
  const mailto = site.contactEmail
    ? `mailto:${site.contactEmail}?subject=${encodeURIComponent(`Help with order ${order.id}`)}`
    : null
  return (
    <section aria-labelledby="order-help-heading" className={className}>
      <h2 id="order-help-heading" className="text-lg font-bold text-slate-950 dark:text-white">
        Need help?
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Contact us with your order ID and we will help you.
      </p>
      <ul className="mt-3 space-y-2 text-sm">
        {whatsapp ? (
          <li>
            <a
              href={whatsapp}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-2 font-semibold text-emerald-700 hover:underline dark:text-emerald-400"
            >
              <MessageCircle aria-hidden="true" className="size-4 shrink-0" />
              WhatsApp us about this order
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ) : null}
        {mailto ? (
          <li>
            <a
              href={mailto}
              className="inline-flex items-center gap-2 font-semibold break-all text-brand-700 hover:underline dark:text-brand-300"
            >
              <Mail aria-hidden="true" className="size-4 shrink-0" />
              {site.contactEmail}
            </a>
          </li>
        ) : null}
        {!whatsapp && !mailto ? (
          <li className="text-slate-600 dark:text-slate-300">Contact the shop’s support team.</li>
        ) : null}
      </ul>
    </section>
  )
}
