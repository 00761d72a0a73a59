import { useEffect } from 'react'
import { FormAlert } from '~/components/forms'
import { toast } from '~/components/ui/toast'
import { useHydrated } from '~/components/ui/use-hydrated'

/** A one-time message carried across a redirect (see app/routes/admin/products/flash.server.ts). */
export interface Flash {
  type: 'success' | 'error'
  message: string
  /** Tells two identical messages in a row apart, so each shows. */
  id: string
}

/**
 * Shows the message an admin action left for this page: a toast with JavaScript; before (or
 * without) it, a line on the page.
 */
export function FlashNotice({ flash }: { flash: Flash | null }) {
  const hydrated = useHydrated()
  useEffect(() => {
    if (flash) toast[flash.type](flash.message, { id: flash.id })
  }, [flash])
  if (!flash || hydrated) return null
  return <FormAlert tone={flash.type}>{flash.message}</FormAlert>
}
