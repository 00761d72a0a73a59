import { useId } from 'react'
import { Link } from 'react-router'
import { ResponsiveImage } from '~/components/ui/responsive-image'
import { StaticMarkup } from '~/components/ui/static-markup'
import type { ImageRef } from '~/lib/images'
import { formatDisplayPrice } from '~/lib/money'
import { productPath } from '~/lib/paths'
import { useDisplayCurrency } from './site-data'
import { WishlistHeart } from './wishlist-heart'

/** What a product card shows (the home loader sends exactly this). */
export interface CardProduct {
  id: string
  slug: string
  title: string
  category: string
  price: number
  originalPrice: number
  discount: number
  inStock: boolean
  featured: boolean
  rating: number
  tags: string[]
  image: ImageRef | null
}

/**
 * The card of a catalogue product: its own fields, and what the loader works out for it (stock,
 * the buyers' average rating, the image). Only these reach the browser.
 */
export function cardProduct(
  product: Omit<CardProduct, 'inStock' | 'rating' | 'image'>,
  worked: Pick<CardProduct, 'inStock' | 'rating' | 'image'>,
): CardProduct {
  return {
    id: product.id,
    slug: product.slug,
    title: product.title,
    category: product.category,
    price: product.price,
    originalPrice: product.originalPrice,
    discount: product.discount,
    inStock: worked.inStock,
    featured: product.featured,
    rating: worked.rating,
    tags: product.tags,
    image: worked.image,
  }
}

/** Cards are two per row on phones, three on tablets, four on wide screens. */
export const CARD_IMAGE_SIZES =
  '(min-width: 1152px) 264px, (min-width: 1024px) 23vw, (min-width: 768px) 31vw, 46vw'

export function DiscountBadge({
  percent,
  className = '',
}: {
  percent: number
  className?: string
}) {
  // Only a real saving gets a badge (spec: rounded percent above 0).
  if (!(percent > 0)) return null
  return <span className={`kb-discount-badge ${className}`}>{percent}% OFF</span>
}

export function ProductCard({
  product,
  priority = false,
  wished = false,
}: {
  product: CardProduct
  priority?: boolean
  /** On the signed-in visitor's wishlist (the heart is pressed). */
  wished?: boolean
}) {
  const titleId = useId()
  const currency = useDisplayCurrency()
  return (
    <article aria-labelledby={titleId} className="kb-card group">
      <div className="kb-card-media">
        <ResponsiveImage
          image={product.image}
          alt=""
          sizes={CARD_IMAGE_SIZES}
          maxWidth={640}
          priority={priority}
          className="transition-transform duration-300 group-hover:scale-[1.03]"
        />
        <DiscountBadge percent={product.discount} className="absolute left-2 top-2" />
        <WishlistHeart
          productId={product.id}
          productTitle={product.title}
          wished={wished}
          className="absolute right-2 top-2"
        />
        {!product.inStock ? (
          <span className="absolute bottom-2 left-2 rounded-full bg-slate-900/90 px-2.5 py-1 text-xs font-semibold text-white">
            Out of Stock
          </span>
        ) : null}
      </div>
      {/* The heart above is the visitor's; the rest is the product's (titleId comes from the
          real render, so it matches the browser's). */}
      <StaticMarkup
        as="div"
        name="product-card-body"
        deps={[product, currency, titleId]}
        className="kb-card-body"
      >
        <p className="kb-card-meta">
          {/* Wraps rather than cut: a shop's own category names can be long. */}
          <span className="min-w-0 break-words">{product.category}</span>
          {product.rating > 0 ? (
            <span className="kb-card-rating">
              {/* A text star: a card grid repeats it dozens of times, an SVG would weigh 30× more. */}
              <span aria-hidden="true" className="text-amber-500">
                ★
              </span>
              <span className="sr-only">Rated </span>
              {product.rating.toFixed(1)}
              <span className="sr-only"> out of 5</span>
            </span>
          ) : null}
        </p>
        <h3 id={titleId} className="kb-card-title">
          {product.title}
        </h3>
        <p className="mt-auto flex flex-wrap items-baseline gap-x-2 pt-1">
          <span className="kb-card-price">
            <span className="sr-only">Price </span>
            {formatDisplayPrice(product.price, currency)}
          </span>
          {product.originalPrice > product.price ? (
            <s className="kb-card-was">
              <span className="sr-only">Original price </span>
              {formatDisplayPrice(product.originalPrice, currency)}
            </s>
          ) : null}
        </p>
        <Link to={productPath(product.slug)} aria-describedby={titleId} className="kb-card-action">
          View Details
        </Link>
      </StaticMarkup>
    </article>
  )
}
