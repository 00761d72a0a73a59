import { useEffect } from 'react'
import { FormAlert } from '~/components/forms'
import { toast } from '~/components/ui/toast'
import { useHydrated } from '~/components/ui/use-hydrated'
import type { Flash } from '~/lib/flash'

export type { Flash }

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
