import Share2 from 'lucide-react/icons/share-2'
import { toast } from '~/components/ui/toast'

/**
 * Shares a product link: the phone's share sheet where there is one (WhatsApp is a tap away),
 * otherwise the link is copied and a toast says so.
 */
export function ShareButton({ url, title }: { url: string; title: string }) {
  async function share() {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url })
        return
      } catch (error) {
        // Closing the share sheet is not an error worth a message.
        if (error instanceof DOMException && error.name === 'AbortError') return
      }
    }
    try {
      await navigator.clipboard.writeText(url)
      toast.success('Link copied', { description: 'Paste it into WhatsApp or anywhere you like.' })
    } catch {
      toast.error('Could not copy the link', { description: url })
    }
  }
  return (
    <button
      type="button"
      onClick={() => void share()}
      className="inline-flex items-center gap-2 rounded-lg py-1.5 text-sm font-semibold text-slate-700 hover:text-brand-700 dark:text-slate-200 dark:hover:text-brand-300"
    >
      <Share2 aria-hidden="true" className="size-4" />
      Share
    </button>
  )
}
