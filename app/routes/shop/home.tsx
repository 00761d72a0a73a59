import { listProducts, type Product } from '~/data/product.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { formatRupees } from '~/lib/money'
import { imageUrl } from '~/lib/storage.server'
import type { Route } from './+types/home'

export async function loader() {
  const { db, storage } = services()
  const [products, settings] = await Promise.all([listProducts(db), getSiteSettings(db)])
  // Only what a card shows reaches the browser.
  const cards = products.map((product) => ({
    id: product.id,
    slug: product.slug,
    title: product.title,
    category: product.category,
    price: product.price,
    originalPrice: product.originalPrice,
    discount: product.discount,
    inStock: product.inStock,
    featured: product.featured,
    imageUrl: imageUrl(storage, product.image),
  }))
  return {
    siteName: settings.siteName,
    siteDescription: settings.siteDescription,
    featured: cards.filter((product) => product.featured),
    products: cards,
  }
}

type CardProduct = Pick<
  Product,
  'id' | 'slug' | 'title' | 'category' | 'price' | 'originalPrice' | 'discount' | 'inStock'
> & { imageUrl: string }

function ProductCard({ product }: { product: CardProduct }) {
  return (
    <li className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      <div className="relative aspect-[4/3] bg-slate-100">
        {product.imageUrl ? (
          <img
            src={product.imageUrl}
            alt=""
            width={1200}
            height={900}
            loading="lazy"
            decoding="async"
            className="h-full w-full object-cover"
          />
        ) : null}
        {product.discount > 0 ? (
          <span className="absolute left-3 top-3 rounded-full bg-rose-600 px-2.5 py-1 text-xs font-semibold text-white">
            {product.discount}% OFF
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="text-xs font-medium uppercase tracking-wide text-indigo-700">{product.category}</p>
        <h3 className="font-semibold leading-snug">{product.title}</h3>
        <p className="mt-auto flex items-baseline gap-2">
          <span className="text-lg font-bold">{formatRupees(product.price)}</span>
          {product.originalPrice > product.price ? (
            <s className="text-sm text-slate-500">{formatRupees(product.originalPrice)}</s>
          ) : null}
        </p>
        {!product.inStock ? <p className="text-sm font-medium text-rose-700">Out of Stock</p> : null}
      </div>
    </li>
  )
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { siteName, siteDescription, featured, products } = loaderData
  return (
    <main>
      <section className="bg-gradient-to-br from-indigo-700 to-violet-700 px-4 py-16 text-white">
        <div className="mx-auto max-w-6xl">
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{siteName}</h1>
          <p className="mt-4 max-w-2xl text-lg text-indigo-100">{siteDescription}</p>
        </div>
      </section>
      {featured.length > 0 ? (
        <section aria-labelledby="featured-heading" className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="featured-heading" className="text-2xl font-bold">
            Featured Premium Services
          </h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {featured.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </ul>
        </section>
      ) : null}
      <section id="services" aria-labelledby="services-heading" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="services-heading" className="text-2xl font-bold">
          All Services
        </h2>
        {products.length === 0 ? (
          <p className="mt-6 text-slate-600">No products yet.</p>
        ) : (
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {products.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </ul>
        )}
      </section>
    </main>
  )
}

export function meta({ data }: Route.MetaArgs) {
  const name = data?.siteName ?? 'KeyBazaar'
  return [
    { title: `${name}: premium subscriptions and licenses at up to 80% off` },
    { name: 'description', content: data?.siteDescription ?? '' },
  ]
}
