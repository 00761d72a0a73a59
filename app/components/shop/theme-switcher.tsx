import Monitor from 'lucide-react/icons/monitor'
import Moon from 'lucide-react/icons/moon'
import Sun from 'lucide-react/icons/sun'
import type { FormEvent } from 'react'
import { href, useFetcher, useLocation } from 'react-router'
import { isTheme, type Theme } from '~/lib/theme'

export const THEME_FETCHER_KEY = 'theme'

const OPTIONS = [
  { value: 'light', label: 'Light theme', Icon: Sun },
  { value: 'dark', label: 'Dark theme', Icon: Moon },
  { value: 'system', label: 'System theme', Icon: Monitor },
] as const satisfies readonly { value: Theme; label: string; Icon: unknown }[]

/**
 * Light / dark / system. A plain form posting to /theme (works without JavaScript: the action
 * sets the cookie and sends the visitor back); with JavaScript a fetcher posts it and the root
 * layout applies the choice at once.
 */
export function ThemeSwitcher({ theme, className = '' }: { theme: Theme; className?: string }) {
  const fetcher = useFetcher({ key: THEME_FETCHER_KEY })
  const location = useLocation()

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter
    const value = submitter instanceof HTMLButtonElement ? submitter.value : null
    if (!isTheme(value)) return
    event.preventDefault()
    void fetcher.submit({ theme: value }, { method: 'post', action: href('/theme') })
  }

  return (
    <form method="post" action={href('/theme')} onSubmit={onSubmit} className={className}>
      <input
        type="hidden"
        name="redirectTo"
        value={`${location.pathname}${location.search}${location.hash}`}
      />
      <div
        role="group"
        aria-label="Colour theme"
        className="flex items-center gap-0.5 rounded-full border border-slate-200 bg-slate-100 p-0.5 dark:border-slate-700 dark:bg-slate-800"
      >
        {OPTIONS.map(({ value, label, Icon }) => (
          <button
            key={value}
            type="submit"
            name="theme"
            value={value}
            aria-label={label}
            aria-pressed={theme === value}
            title={label}
            className="inline-flex size-8 items-center justify-center rounded-full text-slate-600 transition-colors hover:text-slate-900 aria-pressed:bg-white aria-pressed:text-brand-700 aria-pressed:shadow-sm dark:text-slate-300 dark:hover:text-white dark:aria-pressed:bg-slate-950 dark:aria-pressed:text-brand-300"
          >
            <Icon aria-hidden="true" className="size-4" />
          </button>
        ))}
      </div>
    </form>
  )
}
