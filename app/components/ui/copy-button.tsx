import Check from 'lucide-react/icons/check'
import Copy from 'lucide-react/icons/copy'
import { useEffect, useState } from 'react'
import { toast } from './toast'
import { Button } from './button'

/**
 * Copies `value` to the clipboard; where there is no clipboard (an http:// address other than
 * localhost, or permission refused) it selects `target` so it can be copied by hand.
 */
export function CopyButton({
  value,
  label,
  target,
  className,
}: {
  value: string
  /** What is copied, for screen readers ("Copy the webhook URL"). */
  label: string
  target: () => HTMLElement | null
  className?: string
}) {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])
  async function copy() {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
    } catch {
      const element = target()
      if (element) window.getSelection()?.selectAllChildren(element)
      toast.error('Could not copy automatically', {
        description: 'The text is selected: copy it with your keyboard, or long-press it.',
      })
    }
  }
  return (
    <Button
      type="button"
      variant="secondary"
      size="xs"
      className={className}
      onClick={() => void copy()}
    >
      {copied ? (
        <Check aria-hidden="true" className="size-4 text-emerald-600 dark:text-emerald-400" />
      ) : (
        <Copy aria-hidden="true" className="size-4" />
      )}
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
      <span className="sr-only"> {label}</span>
    </Button>
  )
}
