import MessageCircle from 'lucide-react/icons/message-circle'
import type { ReactNode } from 'react'

/**
 * A WhatsApp chat or community link on the home and product pages: it opens in a new tab (said
 * to screen readers as the order and payment pages say it), the chat icon before its text. Only
 * those two pages import it, so it travels in the chunk they already share rather than in the
 * shell script every page loads (vite.config.ts); the order and payment pages write their
 * smaller links with the same note themselves.
 */
export function WhatsAppLink({
  href,
  className,
  children,
}: {
  href: string
  className: string
  children: ReactNode
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      <MessageCircle aria-hidden="true" className="size-5" />
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}
