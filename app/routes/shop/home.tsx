import ArrowRight from 'lucide-react/icons/arrow-right'
import BadgeCheck from 'lucide-react/icons/badge-check'
import MessageCircle from 'lucide-react/icons/message-circle'
import PackageOpen from 'lucide-react/icons/package-open'
import Search from 'lucide-react/icons/search'
import SearchX from 'lucide-react/icons/search-x'
import Star from 'lucide-react/icons/star'
import Zap from 'lucide-react/icons/zap'
import { useEffect, useRef, useState } from 'react'
import {
  href,
  Link,
  useLoaderData,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import {
  CATEGORY_PARAM,
  categoryChips,
  filterProducts,
  sameCategory,
  SEARCH_PARAM,
} from '~/components/shop/catalogue'
import {
  bundleHighlights,
  heroDeliveryBadge,
  heroStats,
  homeDescription,
  processSteps,
  trustLine,
  whatsappInvitation,
  whyChooseUs,
} from '~/components/shop/claims'
import { cardProduct, ProductCard, type CardProduct } from '~/components/shop/product-card'
import { SectionLink } from '~/components/shop/section-link'
import { metaDescription, seoMeta } from '~/components/shop/seo'
import { rootMetaData, useDisplayCurrency, useSiteSettings } from '~/components/shop/site-data'
import { supportMessage, whatsappLink } from '~/lib/whatsapp'
import { WhatsAppLink } from '~/components/shop/whatsapp-link'
import { productAvailability } from '~/data/product.server'
import { getSiteSettings } from '~/data/settings.server'
import {
  catalogue,
  catalogueCategories,
  catalogueRatings,
  catalogueStockLeft,
} from '~/data/storefront-cache.server'
import { wishlistProductIds } from '~/data/wishlist.server'
import { services } from '~/lib/app-context.server'
import { CLAIM_SETTING_DEFAULTS, storefrontClaims, type StorefrontClaims } from '~/lib/claims'
import { getUser } from '~/services/auth.server'
import { testItemsOnSale } from '~/services/payment/offered-gateways.server'
import { storefrontReviewScope } from '~/services/reviews.server'
import { imageRefs, socialImageUrl } from '~/lib/images.server'
import { discountPercent, formatDisplayPrice, type DisplayCurrency } from '~/lib/money'
import type { Route } from './+types/home'

export async function loader({ request }: Route.LoaderArgs) {
  const { db, env } = services()
  const [user, testItems, reviewScope, settings] = await Promise.all([
    getUser(request),
    testItemsOnSale(db, env),
    storefrontReviewScope(db, env),
    getSiteSettings(db),
  ])
  const [products, categories, stockLeft, wishlist, ratings] = await Promise.all([
    // Shop-wide copies shared by every page for up to a second (storefront-cache.server.ts).
    catalogue(db),
    catalogueCategories(db),
    catalogueStockLeft(db, undefined, { upTo: 1, testItems }),
    // The hearts of a signed-in visitor (personal: such pages are never cached).
    user ? wishlistProductIds(db, user.id) : Promise.resolve([]),
    // Ratings come from buyers' shown reviews only (docs/reviews.md).
    catalogueRatings(db, undefined, reviewScope),
  ])
  const images = await imageRefs(products.map((product) => product.image))
  // Only what a card shows (and the search reads) reaches the browser.
  const cards = products.map((product, index) =>
    cardProduct(product, {
      // Out of Stock when switched off, or when a product sold from stock has no item left.
      inStock: productAvailability(product, stockLeft).inStock,
      rating: ratings.get(product.id)?.average ?? 0,
      image: images[index] ?? null,
    }),
  )
  const firstFeatured =
    cards.find((card) => card.featured && card.image) ?? cards.find((card) => card.image)
  return {
    products: cards,
    wishlist,
    categories: categoryChips(categories, cards),
    // The marketing claims as the owner set them in Settings (docs/settings.md).
    claims: storefrontClaims(settings),
    socialImage: socialImageUrl(firstFeatured?.image ?? null, env.PUBLIC_URL),
  }
}

/**
 * Choosing a chip or typing a search only changes the query string; the catalogue is already
 * here, so it is filtered in the browser without asking the server again. Saving the theme does
 * not change the catalogue either.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formAction,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formAction === href('/theme')) return false
  // Leaving the login or sign-up modal may follow a sign-in: the hearts are the visitor's own.
  const fromAuthModal = ['login', 'signup'].some((view) => currentUrl.searchParams.has(view))
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && !fromAuthModal) return false
  return defaultShouldRevalidate
}

const sectionHeading =
  'text-2xl font-extrabold tracking-tight text-slate-950 sm:text-3xl dark:text-white'
const sectionLead = 'mt-2 text-slate-600 dark:text-slate-300'
const sectionShell = 'mx-auto w-full max-w-6xl scroll-mt-28 px-4 py-10 sm:py-14 md:scroll-mt-20'

function Hero({ claims }: { claims: StorefrontClaims }) {
  const { siteDescription } = useSiteSettings()
  const currency = useDisplayCurrency()
  const stats = heroStats(claims)
  const badge = heroDeliveryBadge(claims)
  return (
    <section
      aria-labelledby="hero-heading"
      className="relative overflow-hidden bg-gradient-to-br from-brand-950 via-brand-800 to-fuchsia-900 text-white"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -right-24 -top-24 size-96 rounded-full bg-fuchsia-500/20 blur-3xl"
      />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -bottom-32 -left-24 size-96 rounded-full bg-brand-400/20 blur-3xl"
      />
      <div
        className={`relative mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:py-16 md:items-center lg:py-20 ${claims.bundle ? 'md:grid-cols-[1.25fr_1fr]' : ''}`}
      >
        <div>
          {badge ? (
            <p className="mb-5 inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-white ring-1 ring-white/20">
              <Zap aria-hidden="true" className="size-4 text-amber-300" />
              {badge}
            </p>
          ) : null}
          <h1
            id="hero-heading"
            className="text-4xl font-extrabold leading-tight tracking-tight sm:text-5xl lg:text-6xl"
          >
            Premium subscriptions at <span className="text-amber-300">up to 80% off</span>
          </h1>
          <p className="mt-4 max-w-xl text-lg leading-relaxed text-brand-100">{siteDescription}</p>
          <div className="mt-7 flex flex-wrap gap-3">
            <SectionLink
              section="services"
              className="inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-white px-5 font-semibold text-brand-800 sm:w-auto shadow-lg hover:bg-brand-50"
            >
              Browse Services
              <ArrowRight aria-hidden="true" className="size-4" />
            </SectionLink>
            <SectionLink
              section="whatsapp"
              className="inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl px-5 font-semibold text-white ring-1 ring-white/40 sm:w-auto hover:bg-white/10"
            >
              <MessageCircle aria-hidden="true" className="size-4" />
              WhatsApp Support
            </SectionLink>
          </div>
          {stats.length > 0 ? (
            <dl className="mt-9 grid max-w-xl grid-cols-2 gap-x-6 gap-y-4 sm:grid-cols-4">
              {stats.map((stat) => (
                <div key={stat.value + stat.label} className="flex min-w-0 flex-col">
                  <dt className="order-2 text-sm text-brand-100">{stat.label}</dt>
                  <dd className="order-1 flex items-center gap-1 text-2xl font-extrabold break-words">
                    {stat.value}
                    {stat.rating ? (
                      <Star
                        aria-hidden="true"
                        className="size-5 shrink-0 fill-amber-300 text-amber-300"
                      />
                    ) : null}
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
        </div>

        {claims.bundle ? <ExampleBundle claims={claims} currency={currency} /> : null}
      </div>
    </section>
  )
}

function ExampleBundle({
  claims,
  currency,
}: {
  claims: StorefrontClaims
  currency: DisplayCurrency
}) {
  const { price, originalPrice } = claims.bundle!
  const highlights = bundleHighlights(claims)
  return (
    <aside
      aria-label="Example bundle"
      className="rounded-3xl bg-white/10 p-6 ring-1 ring-white/20 backdrop-blur-sm sm:p-8"
    >
      <p className="text-sm font-semibold uppercase tracking-wider text-amber-300">
        Example bundle
      </p>
      <p className="mt-2 text-2xl font-bold">Streaming, music, office and VPN for a year</p>
      <p className="mt-5 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-4xl font-extrabold">{formatDisplayPrice(price, currency)}</span>
        <s className="text-lg text-brand-100">
          <span className="sr-only">instead of </span>
          {formatDisplayPrice(originalPrice, currency)}
        </s>
        <span className="rounded-full bg-amber-300 px-2.5 py-0.5 text-sm font-bold text-slate-950">
          Save {discountPercent(price, originalPrice)}%
        </span>
      </p>
      {highlights.length > 0 ? (
        <ul className="mt-6 space-y-2.5 text-sm text-brand-50">
          {highlights.map((item) => (
            <li key={item} className="flex items-center gap-2">
              <BadgeCheck aria-hidden="true" className="size-4 shrink-0 text-emerald-300" />
              {item}
            </li>
          ))}
        </ul>
      ) : null}
    </aside>
  )
}

function ProductGrid({ products }: { products: CardProduct[] }) {
  const { wishlist } = useLoaderData<typeof loader>()
  const wished = new Set(wishlist)
  return (
    <ul className="mt-6 grid grid-cols-2 gap-3 sm:gap-5 md:grid-cols-3 lg:grid-cols-4">
      {products.map((product) => (
        <li key={product.id}>
          <ProductCard product={product} wished={wished.has(product.id)} />
        </li>
      ))}
    </ul>
  )
}

function Featured({ products }: { products: CardProduct[] }) {
  // The footer's "Featured services" (on every page) links to #featured: with nothing
  // featured, the anchor stays and leads to All Services just below.
  if (products.length === 0)
    return <div id="featured" aria-hidden="true" className="scroll-mt-28 md:scroll-mt-20" />
  return (
    <section id="featured" aria-labelledby="featured-heading" className={sectionShell}>
      <h2 id="featured-heading" className={sectionHeading}>
        Featured Premium Services
      </h2>
      <p className={sectionLead}>Our most popular plans, hand-picked for the best value.</p>
      <ProductGrid products={products} />
    </section>
  )
}

function chipClass(active: boolean): string {
  return `inline-flex h-9 shrink-0 items-center rounded-full border px-4 text-sm font-medium whitespace-nowrap transition-colors ${
    active
      ? 'border-brand-600 bg-brand-600 text-white'
      : 'border-slate-300 bg-white text-slate-700 hover:border-brand-400 hover:text-brand-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:border-brand-400 dark:hover:text-white'
  }`
}

const emptyBox =
  'mt-6 flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700'

function Services({ products, categories }: { products: CardProduct[]; categories: string[] }) {
  const [searchParams, setSearchParams] = useSearchParams()
  const category = searchParams.get(CATEGORY_PARAM)?.trim() ?? ''
  const searchInUrl = searchParams.get(SEARCH_PARAM) ?? ''
  const [search, setSearch] = useState(searchInUrl)
  // The URL follows the box (replace, no scroll); the box follows the URL only when it changed
  // from elsewhere (back button, a shared link), so typing is never overwritten.
  const lastWritten = useRef(searchInUrl)
  useEffect(() => {
    if (searchInUrl !== lastWritten.current) {
      lastWritten.current = searchInUrl
      setSearch(searchInUrl)
    }
  }, [searchInUrl])

  function onSearch(value: string) {
    setSearch(value)
    lastWritten.current = value.trim()
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous)
        if (value.trim()) next.set(SEARCH_PARAM, value.trim())
        else next.delete(SEARCH_PARAM)
        return next
      },
      { replace: true, preventScrollReset: true },
    )
  }

  function chipSearch(chip: string | null): string {
    const next = new URLSearchParams(searchParams)
    if (chip) next.set(CATEGORY_PARAM, chip)
    else next.delete(CATEGORY_PARAM)
    const text = next.toString()
    return text ? `?${text}` : '?'
  }

  const shown = filterProducts(products, { category, search })
  const activeChip = categories.find((chip) => sameCategory(chip, category)) ?? (category || null)

  return (
    <section id="services" aria-labelledby="services-heading" className={sectionShell}>
      <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div>
          <h2 id="services-heading" className={sectionHeading}>
            All Services
          </h2>
          <p className={sectionLead}>
            Streaming, software, music, games, themes, plugins and more.
          </p>
        </div>
        <form
          role="search"
          method="get"
          action={href('/')}
          onSubmit={(event) => event.preventDefault()}
          className="relative md:w-96"
        >
          <label htmlFor="service-search" className="sr-only">
            Search services
          </label>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute left-3.5 top-1/2 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400"
          />
          <input
            id="service-search"
            type="search"
            name={SEARCH_PARAM}
            value={search}
            onChange={(event) => onSearch(event.target.value)}
            placeholder="Search by name, category or tag"
            autoComplete="off"
            className="h-11 w-full rounded-xl border border-slate-300 bg-white pl-10 pr-3 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-500 dark:border-slate-700 dark:bg-slate-900 dark:text-white dark:placeholder:text-slate-400"
          />
          {category ? <input type="hidden" name={CATEGORY_PARAM} value={category} /> : null}
        </form>
      </div>

      <nav
        aria-label="Filter by category"
        className="-mx-4 mt-6 overflow-x-auto px-4 pb-2 md:mx-0 md:overflow-visible md:px-0"
      >
        <ul className="flex gap-2 md:flex-wrap">
          {/* "All" (null) first, then each category. */}
          {[null, ...categories].map((chip) => {
            const active =
              chip === null ? !activeChip : activeChip !== null && sameCategory(chip, activeChip)
            return (
              <li key={chip ?? ''}>
                <Link
                  to={chipSearch(chip)}
                  replace
                  preventScrollReset
                  aria-current={active ? 'true' : undefined}
                  className={chipClass(active)}
                >
                  {chip ?? 'All'}
                </Link>
              </li>
            )
          })}
        </ul>
      </nav>

      {products.length === 0 ? (
        // A shop with nothing on sale yet: no filter to clear.
        <div className={emptyBox}>
          <PackageOpen aria-hidden="true" className="size-8 text-slate-500 dark:text-slate-400" />
          <p className="font-semibold text-slate-900 dark:text-white">No services yet</p>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            The shop is adding its first subscriptions and licences. Please check back soon.
          </p>
        </div>
      ) : (
        <>
          <p role="status" className="mt-4 text-sm text-slate-600 dark:text-slate-300">
            {shown.length === products.length
              ? `Showing all ${products.length} services`
              : `Showing ${shown.length} of ${products.length} services`}
          </p>
          {shown.length > 0 ? (
            <ProductGrid products={shown} />
          ) : (
            <div className={emptyBox}>
              <SearchX aria-hidden="true" className="size-8 text-slate-500 dark:text-slate-400" />
              <p className="font-semibold text-slate-900 dark:text-white">
                No services match your filters.
              </p>
              <Link
                to="?"
                replace
                preventScrollReset
                onClick={() => setSearch('')}
                className="text-sm font-semibold text-brand-700 underline underline-offset-4 dark:text-brand-300"
              >
                Clear filters
              </Link>
            </div>
          )}
        </>
      )}
    </section>
  )
}

function Process({ claims }: { claims: StorefrontClaims }) {
  return (
    <section id="process" aria-labelledby="process-heading" className={sectionShell}>
      <h2 id="process-heading" className={sectionHeading}>
        How It Works
      </h2>
      <p className={sectionLead}>From choosing to using in three simple steps.</p>
      <ol className="mt-8 grid gap-5 md:grid-cols-3">
        {processSteps(claims).map((step, index) => (
          <li
            key={step.title}
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <span
              aria-hidden="true"
              className="inline-flex size-11 items-center justify-center rounded-full bg-brand-600 text-lg font-extrabold text-white"
            >
              {index + 1}
            </span>
            <h3 className="mt-4 text-lg font-bold text-slate-950 dark:text-white">
              <span className="sr-only">Step {index + 1}: </span>
              {step.title}
            </h3>
            <p className="mt-2 text-slate-600 dark:text-slate-300">{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  )
}

function WhyChooseUs({ claims }: { claims: StorefrontClaims }) {
  const { siteName } = useSiteSettings()
  const trust = trustLine(claims)
  return (
    <section aria-labelledby="why-heading" className="bg-white py-2 dark:bg-slate-900/40">
      <div id="why-choose-us" className={sectionShell}>
        <h2 id="why-heading" className={sectionHeading}>
          Why Choose {siteName}
        </h2>
        {trust ? <p className={sectionLead}>{trust}</p> : null}
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {whyChooseUs(claims).map((item) => (
            <li key={item.title} className="flex gap-4">
              <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
                <BadgeCheck aria-hidden="true" className="size-5" />
              </span>
              <div>
                <h3 className="font-bold text-slate-950 dark:text-white">{item.title}</h3>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{item.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

function WhatsApp({ claims }: { claims: StorefrontClaims }) {
  const site = useSiteSettings()
  const chat = whatsappLink(site.whatsappNumber, supportMessage(site.siteName))
  return (
    <section id="whatsapp" aria-labelledby="whatsapp-heading" className={sectionShell}>
      <div className="overflow-hidden rounded-3xl bg-gradient-to-br from-emerald-800 to-teal-900 px-6 py-10 text-white shadow-xl sm:px-10">
        <div className="flex flex-col gap-6 md:flex-row md:items-center md:justify-between">
          <div className="max-w-xl">
            <h2
              id="whatsapp-heading"
              className="text-2xl font-extrabold tracking-tight sm:text-3xl"
            >
              Questions? We are on WhatsApp
            </h2>
            <p className="mt-3 text-emerald-50">
              {whatsappInvitation(claims)}
              {site.whatsappCommunityUrl
                ? ' Join the community to hear about new deals first.'
                : null}
            </p>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row md:flex-col lg:flex-row">
            {chat ? (
              <WhatsAppLink
                href={chat}
                className="inline-flex h-12 items-center justify-center gap-2 rounded-xl bg-white px-5 font-semibold text-emerald-900 shadow hover:bg-emerald-50"
              >
                Chat on WhatsApp
              </WhatsAppLink>
            ) : null}
            {site.whatsappCommunityUrl ? (
              <WhatsAppLink
                href={site.whatsappCommunityUrl}
                className="inline-flex h-12 items-center justify-center gap-2 rounded-xl px-5 font-semibold text-white ring-1 ring-white/50 hover:bg-white/10"
              >
                Join our community
              </WhatsAppLink>
            ) : null}
            {!chat && site.contactEmail ? (
              <a
                href={`mailto:${site.contactEmail}`}
                className="inline-flex h-12 items-center justify-center rounded-xl bg-white px-5 font-semibold text-emerald-900 shadow hover:bg-emerald-50"
              >
                E-mail {site.contactEmail}
              </a>
            ) : null}
          </div>
        </div>
      </div>
    </section>
  )
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { products, categories, claims } = loaderData
  return (
    <main className="flex-1">
      <Hero claims={claims} />
      <Featured products={products.filter((product) => product.featured)} />
      <Services products={products} categories={categories} />
      <Process claims={claims} />
      <WhyChooseUs claims={claims} />
      <WhatsApp claims={claims} />
    </main>
  )
}

export function meta({ data, matches }: Route.MetaArgs) {
  const root = rootMetaData(matches)
  const siteName = root?.site.siteName ?? 'KeyBazaar'
  const publicUrl = root?.publicUrl ?? ''
  return seoMeta({
    title: `${siteName}: premium subscriptions and licences at up to 80% off`,
    // The shop's own description (up to 300 characters in Settings, or none) as search results
    // show it: cut to 160 on a word, or a sentence of our own, with the shop's claims, when it
    // is blank.
    description:
      metaDescription(root?.site.siteDescription ?? '') ||
      homeDescription(data?.claims ?? storefrontClaims(CLAIM_SETTING_DEFAULTS)),
    siteName,
    canonicalUrl: `${publicUrl}/`,
    imageUrl: data?.socialImage,
    keywords: [
      'premium subscriptions',
      'software licences',
      'streaming',
      'discount',
      'India',
      'instant delivery',
    ],
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: siteName,
      url: `${publicUrl}/`,
    },
  })
}
