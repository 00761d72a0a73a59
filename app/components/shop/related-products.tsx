import { ProductCard, type CardProduct } from './product-card'

/** The product page's "You may also like" (app/data/related-products.server.ts chooses them). */
export function RelatedProducts({
  products,
  wishlist,
}: {
  products: CardProduct[]
  wishlist: readonly string[]
}) {
  if (products.length === 0) return null
  const wished = new Set(wishlist)
  return (
    <section aria-labelledby="related-heading" className="mt-14">
      <h2
        id="related-heading"
        className="text-2xl font-extrabold tracking-tight text-slate-950 dark:text-white"
      >
        You may also like
      </h2>
      <ul className="mt-5 grid grid-cols-2 gap-3 sm:gap-5 md:grid-cols-3 lg:grid-cols-4">
        {products.map((product) => (
          <li key={product.id}>
            <ProductCard product={product} wished={wished.has(product.id)} />
          </li>
        ))}
      </ul>
    </section>
  )
}
