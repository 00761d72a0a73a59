import Bell from 'lucide-react/icons/bell'
import BellOff from 'lucide-react/icons/bell-off'
import Heart from 'lucide-react/icons/heart'
import Trash2 from 'lucide-react/icons/trash-2'
import { Form, href, Link } from 'react-router'
import { AccountPageHeader, BrowseProductsLink } from '~/components/account/account-page'
import { accountPageMeta } from '~/components/auth/messages'
import { Badge } from '~/components/ui/badge'
import { buttonVariants } from '~/components/ui/button-variants'
import { Card } from '~/components/ui/card'
import { EmptyState } from '~/components/ui/empty-state'
import { ResponsiveImage } from '~/components/ui/responsive-image'
import { accountWantsNotifications } from '~/data/preferences.server'
import { listWishlist } from '~/data/wishlist.server'
import { services } from '~/lib/app-context.server'
import { imageRefs } from '~/lib/images.server'
import { PriceLine, type PriceLineStyle } from '~/components/shop/price-line'
import { useDisplayCurrency } from '~/components/shop/site-data'
import { accountPageHeaders } from '~/lib/page-headers'
import { checkoutPath, productPath } from '~/lib/paths'
import { requireUser } from '~/services/auth.server'
import { testItemsOnSale } from '~/services/payment/offered-gateways.server'
import type { Route } from './+types/wishlist'

/**
 * /dashboard/wishlist: the signed-in user's own wishlist (app/data/wishlist.server.ts), with
 * price, stock and Buy; each product can be removed, and each can mail when it is back in
 * stock (the back-in-stock mail points here to switch that off, so the switch is there for an
 * item in stock too). The buttons post to /wishlist (app/routes/account/wishlist-action.tsx).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const { db, env } = services()
  const [items, mailsOn] = await Promise.all([
    testItemsOnSale(db, env).then((testItems) => listWishlist(db, user.id, { testItems })),
    accountWantsNotifications(db, user.id),
  ])
  const images = await imageRefs(items.map((item) => item.image))
  return {
    // "E-mail me reminders and offers" off in the settings (or unsubscribed by a mail's link):
    // no back-in-stock mail either.
    mailsOn,
    items: items.map((item, index) => ({
      productId: item.productId,
      slug: item.slug,
      title: item.title,
      category: item.category,
      price: item.price,
      originalPrice: item.originalPrice,
      discount: item.discount,
      inStock: item.inStock,
      buyNowLink: item.buyNowLink,
      notifyRestock: item.notifyRestock,
      image: images[index] ?? null,
    })),
  }
}

export const headers = accountPageHeaders

const HERE = href('/dashboard/wishlist')

type Item = Route.ComponentProps['loaderData']['items'][number]

function BuyLink({ item }: { item: Item }) {
  if (!item.inStock) return null
  if (item.buyNowLink) {
    return (
      <a
        href={item.buyNowLink}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonVariants({ size: 'sm' })}
      >
        Buy
        <span className="sr-only"> {item.title} (opens in a new tab)</span>
      </a>
    )
  }
  return (
    <Link to={checkoutPath(item.slug)} className={buttonVariants({ size: 'sm' })}>
      Buy<span className="sr-only"> {item.title}</span>
    </Link>
  )
}

const ROW_PRICE: PriceLineStyle = {
  line: 'flex flex-wrap items-baseline gap-x-2',
  price: 'text-lg font-bold text-slate-950 dark:text-white',
  was: 'text-sm text-slate-600 dark:text-slate-400',
  save: 'text-sm font-semibold',
}

function WishlistRow({ item }: { item: Item }) {
  const currency = useDisplayCurrency()
  return (
    <li>
      <Card padding="none" className="flex gap-3 p-3 sm:gap-4 sm:p-4">
        <Link
          to={productPath(item.slug)}
          className="w-24 shrink-0 overflow-hidden rounded-xl sm:w-32"
          tabIndex={-1}
          aria-hidden="true"
        >
          <ResponsiveImage image={item.image} alt="" sizes="128px" maxWidth={320} />
        </Link>
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <p className="text-xs text-slate-600 dark:text-slate-400">{item.category}</p>
              <h2 className="font-semibold text-slate-950 dark:text-white">
                <Link to={productPath(item.slug)} className="hover:underline">
                  {item.title}
                </Link>
              </h2>
            </div>
            {item.inStock ? (
              <Badge tone="success">In stock</Badge>
            ) : (
              <Badge tone="danger">Out of stock</Badge>
            )}
          </div>
          <PriceLine product={item} currency={currency} style={ROW_PRICE} />
          <div className="mt-auto flex flex-wrap items-center gap-2">
            <BuyLink item={item} />
            <Form method="post" action={href('/wishlist')}>
              <input type="hidden" name="intent" value="notify" />
              <input type="hidden" name="productId" value={item.productId} />
              <input type="hidden" name="redirectTo" value={HERE} />
              <input type="hidden" name="on" value={item.notifyRestock ? 'no' : 'yes'} />
              {/* A switch: its name stays, aria-pressed says whether it is on; the eye gets the
                  brand colour and the word On or Off. */}
              <button
                type="submit"
                aria-pressed={item.notifyRestock}
                className={`${buttonVariants({ variant: 'outline', size: 'sm' })} h-auto min-h-10 py-1.5 text-left aria-pressed:border-brand-500 aria-pressed:bg-brand-50 aria-pressed:text-brand-800 dark:aria-pressed:border-brand-400 dark:aria-pressed:bg-brand-950/50 dark:aria-pressed:text-brand-100`}
              >
                {item.notifyRestock ? (
                  <Bell aria-hidden="true" className="size-4" />
                ) : (
                  <BellOff aria-hidden="true" className="size-4" />
                )}
                E-mail me when back<span className="sr-only">: {item.title}</span>
                <span
                  aria-hidden="true"
                  className="shrink-0 rounded-md bg-slate-100 px-1.5 text-xs font-bold uppercase text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                >
                  {item.notifyRestock ? 'On' : 'Off'}
                </span>
              </button>
            </Form>
            <Form method="post" action={href('/wishlist')}>
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="productId" value={item.productId} />
              <input type="hidden" name="redirectTo" value={HERE} />
              <button
                type="submit"
                className={buttonVariants({ variant: 'dangerOutline', size: 'sm' })}
              >
                <Trash2 aria-hidden="true" className="size-4" />
                Remove<span className="sr-only"> {item.title}</span>
              </button>
            </Form>
          </div>
        </div>
      </Card>
    </li>
  )
}

export default function Wishlist({ loaderData }: Route.ComponentProps) {
  const { items, mailsOn } = loaderData
  const saved = `${items.length} saved product${items.length === 1 ? '' : 's'}.`
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <AccountPageHeader title="Wishlist">
        {items.length === 0 ? (
          'Save products with the heart to find them here.'
        ) : mailsOn ? (
          `${saved} We e-mail you when one that is out of stock comes back.`
        ) : (
          <>
            {saved} Back-in-stock e-mails are off, with reminders and offers, in your{' '}
            <Link to={href('/dashboard/settings')} className="underline underline-offset-2">
              settings
            </Link>
            .
          </>
        )}
      </AccountPageHeader>
      {items.length === 0 ? (
        <EmptyState
          framed
          icon={Heart}
          title="Your wishlist is empty"
          action={<BrowseProductsLink to={`${href('/')}#services`} className={buttonVariants()} />}
        >
          Tap the heart on any product to save it for later.
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {items.map((item) => (
            <WishlistRow key={item.productId} item={item} />
          ))}
        </ul>
      )}
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Wishlist')
}
