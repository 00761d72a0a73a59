import { formatDisplayPrice, type DisplayCurrency } from '~/lib/money'

/**
 * The classes of a price line where it stands (each page keeps its own sizes, so a page's
 * script carries only its own): the line, the price, the original price struck through, and the
 * saving (none where it is left out: a product card's badge says it).
 */
export interface PriceLineStyle {
  line: string
  price: string
  was: string
  save?: string
}

/**
 * A product's price in the visitor's display currency, the original price struck through when
 * it was higher, and the saving in percent when there is one. Screen readers hear which figure
 * is which.
 *
 * The wishlist and the checkout use it. The product card and the product page write the same
 * line out themselves on purpose: a module the home or product page shares with another route
 * joins the "shell" script every page loads (vite.config.ts), and the storefront pages have a
 * weight budget (bench/README.md, tests/e2e/page-weight.spec.ts); sharing this one would add
 * about 150 compressed bytes to each of them. Keep the four in step.
 */
export function PriceLine({
  product,
  currency,
  style,
}: {
  product: { price: number; originalPrice: number; discount: number }
  currency: DisplayCurrency
  style: PriceLineStyle
}) {
  return (
    <p className={style.line}>
      <span className={style.price}>
        <span className="sr-only">Price </span>
        {formatDisplayPrice(product.price, currency)}
      </span>
      {product.originalPrice > product.price ? (
        <s className={style.was}>
          <span className="sr-only">Original price </span>
          {formatDisplayPrice(product.originalPrice, currency)}
        </s>
      ) : null}
      {/* The discount is rounded from the two prices (discountPercent in app/lib/money.ts), so it
          is above 0 only when the original price is higher. */}
      {style.save && product.discount > 0 ? (
        <span className={`${style.save} text-emerald-700 dark:text-emerald-400`}>
          Save {product.discount}%
        </span>
      ) : null}
    </p>
  )
}
