import ArrowLeft from 'lucide-react/icons/arrow-left'
import { lazy, Suspense, useState, type MouseEvent } from 'react'
import Calendar from 'lucide-react/icons/calendar'
import CircleCheck from 'lucide-react/icons/circle-check'
import Clock from 'lucide-react/icons/clock'
import ShieldCheck from 'lucide-react/icons/shield-check'
import {
  data,
  href,
  isRouteErrorResponse,
  Link,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import { productDeliveryNote, productPageClaims } from '~/components/shop/claims'
import { cardProduct, DiscountBadge } from '~/components/shop/product-card'
import {
  ProductReviews,
  reviewsLabel,
  Stars,
  type ReviewsView,
} from '~/components/shop/product-reviews'
import { RelatedProducts } from '~/components/shop/related-products'
import { WishlistHeart } from '~/components/shop/wishlist-heart'
import { ShareButton } from '~/components/shop/share-button'
import { metaDescription, seoMeta } from '~/components/shop/seo'
import { rootMetaData, useDisplayCurrency, useSiteSettings } from '~/components/shop/site-data'
import { productQuestionMessage, whatsappLink } from '~/lib/whatsapp'
import { WhatsAppLink } from '~/components/shop/whatsapp-link'
import { ResponsiveImage } from '~/components/ui/responsive-image'
import { StaticMarkup } from '~/components/ui/static-markup'
import { productAvailability } from '~/data/product.server'
import { relatedProducts } from '~/data/related-products.server'
import { readProductViewer } from '~/data/product-viewer.server'
import { markReviewPage } from '~/data/review.server'
import {
  catalogueProduct,
  catalogueRatingDistribution,
  catalogueRatings,
  catalogueReviewPage,
  catalogueStockLeft,
} from '~/data/storefront-cache.server'
import { getSiteSettings } from '~/data/settings.server'
import { storefrontClaims } from '~/lib/claims'
import { shopLongDate } from '~/lib/date-format'
import { orderPath } from '~/lib/order-status'
import { services } from '~/lib/app-context.server'
import { imageRefs, imageService, socialImageUrl } from '~/lib/images.server'
import { getUser } from '~/services/auth.server'
import { testItemsOnSale } from '~/services/payment/offered-gateways.server'
import { storefrontReviewScope } from '~/services/reviews.server'
import { formatDisplayPrice, paiseToDecimalText } from '~/lib/money'
import { checkoutPath, productPath } from '~/lib/paths'
import { effectiveValidity } from '~/lib/validity'
import { ChargedInRupees } from '~/components/shop/charged-in-rupees'
import type { Route } from './+types/product'
import { buttonVariants } from '~/components/ui/button-variants'

const PRODUCT_NOT_FOUND = 'Product not found'
const PRODUCT_LOAD_FAILED = 'Failed to load product'
/**
 * From this many items left down to 1, the page says "Only N left". The page cache's stock
 * triggers (db/migrations/0145_page_cache_stock_by_kind.ts) count up to FEW_LEFT + 1: raise them with it.
 */
const FEW_LEFT = 10

export async function loader({ params, request }: Route.LoaderArgs) {
  const { db, env } = services()
  // The catalogue, stock and ratings are the shop-wide copies every page shares
  // (app/data/storefront-cache.server.ts), and so are a page of reviews; what is the visitor's
  // own (wishlist hearts, their votes, an order to review) is read for this request.
  const product = await catalogueProduct(db, params.slugOrId)
  if (!product) throw data(PRODUCT_NOT_FOUND, { status: 404 })
  const url = new URL(request.url)
  const sort = url.searchParams.get('reviewSort') === 'helpful' ? 'helpful' : 'newest'
  const reviewPage = Number.parseInt(url.searchParams.get('reviews') ?? '1', 10) || 1
  const testItems = testItemsOnSale(db, env)
  // Reviews of test-mode orders count only while no live gateway is active (docs/reviews.md).
  const reviewScope = storefrontReviewScope(db, env)
  const [image, stockLeft, related, user, distribution, settings] = await Promise.all([
    imageService().ref(product.image),
    // One more than FEW_LEFT tells "only a few" from "plenty".
    testItems.then((testItems) =>
      catalogueStockLeft(db, [product.id], { upTo: FEW_LEFT + 1, testItems }),
    ),
    testItems.then((testItems) => relatedProducts(db, product, { testItems })),
    getUser(request),
    reviewScope.then((scope) => catalogueRatingDistribution(db, product.id, scope)),
    getSiteSettings(db),
  ])
  const scope = await reviewScope
  const shownIds = [product.id, ...related.map((item) => item.id)]
  const [relatedImages, ratings, sharedReviews] = await Promise.all([
    imageRefs(related.map((item) => item.image)),
    // Ratings are the aggregate of buyers' shown reviews, nothing typed in.
    catalogueRatings(db, shownIds, scope),
    catalogueReviewPage(db, product.id, {
      scope,
      sort,
      page: reviewPage,
      total: distribution.reduce((sum, row) => sum + row.count, 0),
    }),
  ])
  // The signed-in visitor's hearts, votes and orders to review, in one query (personal: such
  // pages are never cached).
  const viewer = user
    ? await readProductViewer(
        db,
        user,
        {
          productId: product.id,
          productIds: shownIds,
          reviewIds: sharedReviews.reviews.items.map((review) => review.id),
        },
        scope,
      )
    : null
  const wishlist = viewer?.wishlist ?? []
  const reviewable = viewer?.unreviewedOrders ?? []
  const reviewList = markReviewPage(sharedReviews, user?.id ?? null, viewer?.voted ?? new Set())
  const summary = ratings.get(product.id) ?? { average: 0, count: 0 }
  const day = shopLongDate(settings.timezone)
  const reviews: ReviewsView = {
    average: summary.average,
    count: summary.count,
    distribution,
    items: reviewList.items.map((review) => ({
      id: review.id,
      reviewer: review.reviewer,
      rating: review.rating,
      title: review.title,
      body: review.body,
      date: day.format(new Date(review.createdAt)),
      edited: review.edited,
      helpfulCount: review.helpfulCount,
      own: review.own,
      voted: review.voted,
    })),
    sort,
    page: reviewList.page,
    pageCount: reviewList.pageCount,
    writeHref: reviewable[0] ? `${orderPath(reviewable[0])}#review` : null,
    signedIn: user !== null,
  }
  // inStock is the owner's switch and, for a product sold from stock, an item left to sell.
  const availability = productAvailability(product, stockLeft)
  const canonicalUrl = `${env.PUBLIC_URL}${productPath(product.slug)}`
  return {
    // What the page and its metadata show; no timestamps or internal fields.
    product: {
      id: product.id,
      slug: product.slug,
      title: product.title,
      description: product.description,
      shortDescription: product.shortDescription,
      price: product.price,
      originalPrice: product.originalPrice,
      discount: product.discount,
      category: product.category,
      inStock: availability.inStock,
      /** Only a low count is shown ("Only 3 left"); the exact stock is the shop's business. */
      fewLeft:
        availability.inStock &&
        availability.stockLeft !== null &&
        availability.stockLeft <= FEW_LEFT
          ? availability.stockLeft
          : null,
      buyNowLink: product.buyNowLink,
      tags: product.tags,
      validity: product.validity,
      deliveryTime: product.deliveryTime,
      features: product.features,
      metaTitle: product.metaTitle,
      metaDescription: product.metaDescription,
      keywords: product.keywords,
      rating: summary.average,
      reviews: summary.count,
    },
    reviews,
    // The why-choose-us figures as the owner set them in Settings (docs/settings.md).
    claims: storefrontClaims(settings),
    image,
    canonicalUrl,
    socialImage: socialImageUrl(image, env.PUBLIC_URL),
    related: related.map((item, index) =>
      cardProduct(item, {
        inStock: item.available,
        rating: ratings.get(item.id)?.average ?? 0,
        image: relatedImages[index] ?? null,
      }),
    ),
    wishlist,
  }
}

export function shouldRevalidate({
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formAction === href('/theme')) return false
  return defaultShouldRevalidate
}

type PageProduct = Route.ComponentProps['loaderData']['product']

// The payment dialog's code is loaded when Buy Now is first clicked.
const PaymentDialog = lazy(() => import('~/components/checkout/payment-dialog'))

/** A plain left click, which the page may handle itself (not one opening a new tab). */
function plainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
}

function BuyButton({ product, onBuy }: { product: PageProduct; onBuy: () => void }) {
  const base =
    'inline-flex h-14 w-full items-center justify-center gap-2 rounded-2xl px-6 text-lg font-bold shadow-lg transition-colors sm:w-auto sm:min-w-64'
  if (!product.inStock) {
    return (
      <button
        type="button"
        disabled
        className={`${base} cursor-not-allowed bg-slate-300 text-slate-700 shadow-none dark:bg-slate-800 dark:text-slate-300`}
      >
        Out of Stock
      </button>
    )
  }
  if (product.buyNowLink) {
    return (
      <a
        href={product.buyNowLink}
        target="_blank"
        rel="noopener noreferrer"
        className={`${base} bg-brand-600 text-white hover:bg-brand-700`}
      >
        Buy Now
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    )
  }
  // The payment dialog opens over the page; without JavaScript (or in a new tab) the link
  // leads to the same form on its own page, /checkout/{slug}.
  return (
    <Link
      to={checkoutPath(product.slug)}
      onClick={(event) => {
        if (!plainClick(event)) return
        event.preventDefault()
        onBuy()
      }}
      aria-haspopup="dialog"
      className={`${base} bg-brand-600 text-white hover:bg-brand-700`}
    >
      Buy Now
    </Link>
  )
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, image, canonicalUrl, related, wishlist, reviews, claims } = loaderData
  const site = useSiteSettings()
  const currency = useDisplayCurrency()
  const support = whatsappLink(
    site.whatsappNumber,
    productQuestionMessage(site.siteName, product.title, canonicalUrl),
  )
  const hasSaving = product.originalPrice > product.price
  const [buying, setBuying] = useState(false)
  const deliveryTime = product.deliveryTime.trim() || 'Instant'
  const validity = effectiveValidity(product.validity)
  const whyClaims = productPageClaims(claims)
  const deliveryNote = productDeliveryNote(claims)

  return (
    <main className="mx-auto w-full max-w-6xl flex-1 px-4 pb-16 pt-6">
      <div className="flex items-center justify-between gap-4">
        <Link
          to={`${href('/')}#services`}
          className="inline-flex items-center gap-2 rounded-lg py-1.5 text-sm font-semibold text-slate-700 hover:text-brand-700 dark:text-slate-200 dark:hover:text-brand-300"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to products
        </Link>
        <div className="flex items-center gap-2">
          <WishlistHeart
            productId={product.id}
            productTitle={product.title}
            wished={wishlist.includes(product.id)}
            variant="page"
          />
          <ShareButton url={canonicalUrl} title={product.title} />
        </div>
      </div>

      <div className="mt-4 grid gap-8 lg:grid-cols-2 lg:gap-12">
        <div className="lg:sticky lg:top-24 lg:self-start">
          <div className="relative overflow-hidden rounded-3xl border border-slate-200 bg-slate-100 shadow-sm dark:border-slate-800 dark:bg-slate-800">
            <ResponsiveImage
              image={image}
              alt={product.title}
              sizes="(min-width: 1152px) 552px, (min-width: 1024px) 48vw, 100vw"
              priority
            />
            <DiscountBadge
              percent={product.discount}
              className="absolute left-3 top-3 px-3 text-sm"
            />
          </div>
        </div>

        {/* Everything here is the product's and the shop's, the same for every visitor. */}
        <StaticMarkup
          as="div"
          name="product-details"
          deps={[product, currency, site.siteName, support, claims]}
        >
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="rounded-full bg-brand-100 px-3 py-1 font-semibold text-brand-800 dark:bg-brand-900 dark:text-brand-100">
              {product.category}
            </span>
            {product.inStock ? (
              <>
                <span className="rounded-full bg-emerald-100 px-3 py-1 font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
                  In Stock
                </span>
                {product.fewLeft !== null ? (
                  <span className="rounded-full bg-amber-100 px-3 py-1 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                    Only {product.fewLeft} left
                  </span>
                ) : null}
              </>
            ) : (
              <span className="rounded-full bg-rose-100 px-3 py-1 font-semibold text-rose-800 dark:bg-rose-950 dark:text-rose-300">
                Out of Stock
              </span>
            )}
            {product.reviews > 0 ? (
              <a
                href="#reviews"
                className="inline-flex items-center gap-1 text-slate-700 hover:underline dark:text-slate-200"
              >
                <Stars rating={product.rating} />
                <span className="font-semibold">
                  <span className="sr-only">Rated </span>
                  {product.rating.toFixed(1)}
                  <span className="sr-only"> out of 5</span>
                </span>
                <span className="text-slate-600 dark:text-slate-300">
                  ({reviewsLabel(product.reviews)})
                </span>
              </a>
            ) : null}
          </div>

          <h1 className="mt-4 text-3xl font-extrabold leading-tight tracking-tight text-slate-950 sm:text-4xl dark:text-white">
            {product.title}
          </h1>
          {product.shortDescription ? (
            <p className="mt-3 text-lg text-slate-700 dark:text-slate-200">
              {product.shortDescription}
            </p>
          ) : null}

          <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
            <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <span className="text-4xl font-extrabold text-slate-950 dark:text-white">
                <span className="sr-only">Price </span>
                {formatDisplayPrice(product.price, currency)}
              </span>
              {hasSaving ? (
                <>
                  <s className="text-lg text-slate-600 dark:text-slate-400">
                    <span className="sr-only">Original price </span>
                    {formatDisplayPrice(product.originalPrice, currency)}
                  </s>
                  {product.discount > 0 ? (
                    <span className="font-bold text-emerald-700 dark:text-emerald-400">
                      Save {product.discount}%
                    </span>
                  ) : null}
                </>
              ) : null}
            </p>
            <ChargedInRupees currency={currency} paise={product.price} className="mt-2" />
            <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="flex items-center gap-2 text-slate-600 dark:text-slate-300">
                  <Clock
                    aria-hidden="true"
                    className="size-4 shrink-0 text-brand-600 dark:text-brand-300"
                  />
                  Delivery
                </dt>
                <dd className="pl-6 font-semibold text-slate-900 dark:text-white">
                  {deliveryTime}
                </dd>
              </div>
              <div>
                <dt className="flex items-center gap-2 text-slate-600 dark:text-slate-300">
                  <Calendar
                    aria-hidden="true"
                    className="size-4 shrink-0 text-brand-600 dark:text-brand-300"
                  />
                  Validity
                </dt>
                <dd className="pl-6 font-semibold text-slate-900 dark:text-white">{validity}</dd>
              </div>
            </dl>
            <div className="mt-5">
              <BuyButton product={product} onBuy={() => setBuying(true)} />
            </div>
            <p className="mt-3 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
              <ShieldCheck
                aria-hidden="true"
                className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
              />
              Secure payment by UPI, card or wallet.{deliveryNote ? ` ${deliveryNote}` : null}
            </p>
          </div>

          {product.description ? (
            <section aria-labelledby="description-heading" className="mt-8">
              <h2
                id="description-heading"
                className="text-lg font-bold text-slate-950 dark:text-white"
              >
                Description
              </h2>
              <p className="mt-2 leading-relaxed whitespace-pre-line text-slate-700 dark:text-slate-200">
                {product.description}
              </p>
            </section>
          ) : null}

          {product.features.length > 0 ? (
            <section aria-labelledby="features-heading" className="mt-8">
              <h2
                id="features-heading"
                className="text-lg font-bold text-slate-950 dark:text-white"
              >
                Features
              </h2>
              <ul className="mt-3 grid gap-2 sm:grid-cols-2">
                {product.features.map((feature) => (
                  <li
                    key={feature}
                    className="flex items-start gap-2 text-slate-700 dark:text-slate-200"
                  >
                    <CircleCheck
                      aria-hidden="true"
                      className="mt-0.5 size-5 shrink-0 text-emerald-600 dark:text-emerald-400"
                    />
                    {feature}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {product.tags.length > 0 ? (
            <section aria-labelledby="tags-heading" className="mt-8">
              <h2 id="tags-heading" className="text-lg font-bold text-slate-950 dark:text-white">
                Tags
              </h2>
              <ul className="mt-3 flex flex-wrap gap-2">
                {product.tags.map((tag) => (
                  <li
                    key={tag}
                    className="rounded-full border border-slate-300 px-3 py-1 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-200"
                  >
                    #{tag}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {whyClaims.length > 0 || support ? (
            <section
              aria-labelledby="why-product-heading"
              className="mt-8 rounded-2xl bg-gradient-to-br from-brand-50 to-fuchsia-50 p-5 dark:from-brand-950 dark:to-slate-900"
            >
              <h2
                id="why-product-heading"
                className="text-lg font-bold text-slate-950 dark:text-white"
              >
                Why choose {site.siteName}?
              </h2>
              {whyClaims.length > 0 ? (
                <ul className="mt-4 grid grid-cols-2 gap-4">
                  {whyClaims.map((claim) => (
                    <li key={claim.label} className="min-w-0">
                      <span className="block text-2xl font-extrabold break-words text-brand-700 dark:text-brand-300">
                        {claim.value}
                      </span>
                      <span className="text-sm text-slate-700 dark:text-slate-200">
                        {claim.label}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : null}
              {support ? (
                <WhatsAppLink
                  href={support}
                  className="mt-5 inline-flex h-11 items-center gap-2 rounded-xl bg-emerald-700 px-4 font-semibold text-white hover:bg-emerald-800"
                >
                  Ask on WhatsApp
                </WhatsAppLink>
              ) : null}
            </section>
          ) : null}
        </StaticMarkup>
      </div>
      <ProductReviews reviews={reviews} path={productPath(product.slug)} />
      <RelatedProducts products={related} wishlist={wishlist} />
      {buying ? (
        <Suspense fallback={null}>
          <PaymentDialog
            slug={product.slug}
            title={product.title}
            onClose={() => setBuying(false)}
          />
        </Suspense>
      ) : null}
    </main>
  )
}

export function meta({ data, matches }: Route.MetaArgs) {
  const root = rootMetaData(matches)
  const siteName = root?.site.siteName ?? 'KeyBazaar'
  if (!data) {
    return [{ title: `${PRODUCT_NOT_FOUND} | ${siteName}` }, { name: 'robots', content: 'noindex' }]
  }
  const { product, canonicalUrl, socialImage } = data
  const description = metaDescription(
    product.metaDescription || product.shortDescription || product.description,
  )
  return seoMeta({
    title: product.metaTitle || `${product.title} | ${siteName}`,
    description,
    siteName,
    canonicalUrl,
    imageUrl: socialImage,
    keywords: product.keywords.length ? product.keywords : product.tags,
    type: 'product',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.title,
      description,
      sku: product.id,
      category: product.category,
      url: canonicalUrl,
      ...(socialImage ? { image: [socialImage] } : {}),
      // Published only when real, shown reviews exist (never a typed-in figure).
      ...(product.reviews > 0
        ? {
            aggregateRating: {
              '@type': 'AggregateRating',
              ratingValue: product.rating,
              reviewCount: product.reviews,
            },
          }
        : {}),
      offers: {
        '@type': 'Offer',
        url: canonicalUrl,
        priceCurrency: 'INR',
        price: paiseToDecimalText(product.price),
        availability: product.inStock
          ? 'https://schema.org/InStock'
          : 'https://schema.org/OutOfStock',
        seller: { '@type': 'Organization', name: siteName },
      },
    },
  })
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <main className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-6 py-24 text-center">
      <h1 className="text-3xl font-extrabold text-slate-950 dark:text-white">
        {notFound ? PRODUCT_NOT_FOUND : PRODUCT_LOAD_FAILED}
      </h1>
      <p className="text-slate-600 dark:text-slate-300">
        {notFound
          ? 'This product does not exist or is no longer available.'
          : 'Something went wrong while loading this product. Please try again in a moment.'}
      </p>
      <Link to={href('/')} className={buttonVariants({ size: 'wide' })}>
        Go Back Home
      </Link>
    </main>
  )
}
