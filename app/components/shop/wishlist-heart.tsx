import Heart from 'lucide-react/icons/heart'
import { href, useFetcher, useLocation, useRouteLoaderData } from 'react-router'
import { buttonVariants } from '~/components/ui/button-variants'
import { useHydrated } from '~/components/ui/use-hydrated'

/** What /wishlist answers a fetcher (app/routes/account/wishlist-action.tsx). */
interface WishlistAnswer {
  ok: boolean
  productId: string
  wished?: boolean
  message?: string
}

/**
 * The round heart on a product card: a secondary icon button, smaller and round, over the image.
 * Written out rather than merged with `cn()` so product cards load no tailwind-merge
 * (bench/README.md, Lighthouse).
 */
const CARD_HEART =
  'inline-flex size-9 items-center justify-center gap-2 rounded-full border border-slate-300 bg-white/95 font-semibold text-slate-800 shadow-sm hover:bg-slate-50 disabled:opacity-70 dark:border-slate-600 dark:bg-slate-900/95 dark:text-slate-100 dark:hover:bg-slate-800'

/**
 * The heart on product cards and the product page: adds the product to the wishlist or removes
 * it. A plain form posted to /wishlist, so it works without JavaScript (the server redirects
 * back); once hydrated it is sent by a fetcher (`fetch=1`) and the page stays put. Signed-out
 * visitors are sent to sign in and come back here with the product added.
 *
 * On product cards a signed-out visitor's hearts are added by JavaScript, not written into the
 * server's HTML: a grid of cards repeats the form dozens of times, and the home page must stay
 * within a new connection's first round trip (tests/e2e/page-weight.spec.ts). Without
 * JavaScript, a signed-out visitor uses the product page's heart, which is always there.
 */
export function WishlistHeart({
  productId,
  productTitle,
  wished,
  variant = 'card',
  className,
}: {
  productId: string
  productTitle: string
  wished: boolean
  variant?: 'card' | 'page'
  className?: string
}) {
  const fetcher = useFetcher<WishlistAnswer>()
  const location = useLocation()
  const hydrated = useHydrated()
  const signedIn = Boolean((useRouteLoaderData('root') as { user?: unknown } | undefined)?.user)
  const pendingIntent = fetcher.formData?.get('intent')
  // While the change is on its way it already shows; afterwards the revalidated page says.
  const shown = pendingIntent ? pendingIntent === 'add' : wished
  const failed =
    fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok ? fetcher.data.message : null
  const back = `${location.pathname}${location.search}${location.hash}`
  if (variant === 'card' && !signedIn && !hydrated) return null
  return (
    <fetcher.Form method="post" action={href('/wishlist')} className={className}>
      <input type="hidden" name="intent" value={shown ? 'remove' : 'add'} />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value={back} />
      {hydrated ? <input type="hidden" name="fetch" value="1" /> : null}
      <button
        type="submit"
        aria-pressed={shown}
        aria-label={variant === 'card' ? `Wishlist: ${productTitle}` : undefined}
        title={shown ? 'Remove from wishlist' : 'Add to wishlist'}
        className={
          variant === 'page' ? buttonVariants({ variant: 'secondary', size: 'md' }) : CARD_HEART
        }
      >
        <Heart
          aria-hidden="true"
          className={`size-5 ${shown ? 'fill-rose-500 text-rose-500' : 'text-slate-600 dark:text-slate-300'}`}
        />
        {variant === 'page' ? 'Wishlist' : null}
      </button>
      {failed ? (
        <p
          role="alert"
          className="mt-1 rounded bg-white/95 px-1 text-xs text-rose-700 dark:bg-slate-900 dark:text-rose-300"
        >
          {failed}
        </p>
      ) : null}
    </fetcher.Form>
  )
}
