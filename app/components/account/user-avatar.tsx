import { useEffect, useRef, useState } from 'react'

/**
 * A signed-in user's round avatar beside their name: the profile photo (one uploaded in
 * Settings, or Google's picture, which the img-src policy allows as an https: address), else
 * the name's first letter. Decorative: the name is always written next to it. A photo that
 * does not load falls back to the letter, also when it failed before the page was hydrated.
 */
export function UserAvatar({ name, photo }: { name: string; photo: string | null }) {
  const ref = useRef<HTMLImageElement>(null)
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    const image = ref.current
    if (image?.complete && image.naturalWidth === 0) setFailed(image.getAttribute('src'))
  }, [photo])
  const box = 'size-8 shrink-0 rounded-full'
  if (photo && failed !== photo) {
    return (
      <img
        ref={ref}
        src={photo}
        alt=""
        width={32}
        height={32}
        // Asked for without a Referer: Google's image host may refuse pictures requested from
        // another site's pages, and need not learn which shop shows them.
        referrerPolicy="no-referrer"
        onError={() => setFailed(photo)}
        className={`${box} bg-slate-100 object-cover dark:bg-slate-800`}
      />
    )
  }
  return (
    <span
      aria-hidden="true"
      className={`${box} inline-flex items-center justify-center bg-brand-100 text-sm font-bold uppercase text-brand-800 dark:bg-brand-900 dark:text-brand-100`}
    >
      {name.slice(0, 1)}
    </span>
  )
}
