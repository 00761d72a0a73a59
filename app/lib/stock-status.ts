import type { DeliveryMode } from '../../db/schema'

/**
 * Whether buyers can order a product now, and how its stock is put in words, for the admin's
 * screens: the Dashboard's "Needs attention", the Products list and a product's Stock page all
 * go by this one rule (docs/delivery.md, "What the admin's stock figures count").
 *
 * The rule is the storefront's and checkout's: a product sells while its In stock switch is on
 * and, when it is delivered from stock, while it holds an available item of a kind the shop's
 * gateways can sell now. In test mode (only simulators or gateways' test environments offered)
 * that is test items, and a shared secret is never delivered; with live gateways only, real
 * items; with both kinds of gateway (or none offered), either kind. A product with a buy now
 * link sends buyers to that link, so its own stock does not limit it.
 */

/** The kinds of stock item the gateways offered now can sell (itemsSoldThrough). */
export type StockKinds = 'real' | 'test' | 'both'

/** What a product's row needs for the rule. */
export interface SaleFacts {
  inStock: boolean
  deliveryMode: DeliveryMode
  buyNowLink: string | null
}

/** Available items of a stock product by kind. */
export interface ItemsByKind {
  real: number
  test: number
}

export type NotForSale = 'marked-out' | 'no-items' | 'test-mode'

export interface ForSale {
  /** Buyers can order it now: the status Active; otherwise Out of Stock. */
  sellable: boolean
  /**
   * Why not: marked out of stock (its In stock switch is off), no item of the kinds that sell
   * now, or a shared secret while the shop is in test mode. Null while it sells.
   */
  reason: NotForSale | null
  /** Items of the kinds that sell now, for a product delivered from stock; null otherwise. */
  left: number | null
}

/** The items of `available` that `kinds` sell. */
export function itemsOnSale(available: ItemsByKind, kinds: StockKinds): number {
  return kinds === 'test'
    ? available.test
    : kinds === 'real'
      ? available.real
      : available.real + available.test
}

/** Whether buyers can order `product` now (the rule above), and why not. */
export function forSale(
  product: SaleFacts,
  available: ItemsByKind | null,
  kinds: StockKinds,
): ForSale {
  const left =
    product.deliveryMode === 'stock' ? itemsOnSale(available ?? { real: 0, test: 0 }, kinds) : null
  const reason: NotForSale | null = !product.inStock
    ? 'marked-out'
    : product.buyNowLink
      ? null
      : left === 0
        ? 'no-items'
        : product.deliveryMode === 'shared' && kinds === 'test'
          ? 'test-mode'
          : null
  return { sellable: reason === null, reason, left }
}

const number = new Intl.NumberFormat('en-IN')

/** "1 test item", "20 real items", "20 items": what `kinds` counts, said outright. */
export function itemsText(count: number, kinds: StockKinds): string {
  const kind = kinds === 'both' ? '' : `${kinds} `
  return `${number.format(count)} ${kind}${count === 1 ? 'item' : 'items'}`
}

/** "No test items left", "No real items left", "No items left". */
export function noItemsText(kinds: StockKinds): string {
  return `No ${kinds === 'both' ? '' : `${kinds} `}items left`
}

/**
 * The stock of a product delivered from stock, in words: the items that sell now, and the other
 * kind when there is some ("20 test items", "No test items left (5 real, kept for live
 * payments)", "20 items: 12 real, 8 test").
 */
export function stockText(available: ItemsByKind, kinds: StockKinds): string {
  const left = itemsOnSale(available, kinds)
  if (kinds === 'both') {
    if (left === 0) return noItemsText(kinds)
    return `${itemsText(left, kinds)}: ${number.format(available.real)} real, ${number.format(available.test)} test`
  }
  const said = left === 0 ? noItemsText(kinds) : itemsText(left, kinds)
  const other = kinds === 'test' ? available.real : available.test
  if (other === 0) return said
  return kinds === 'test'
    ? `${said} (${number.format(other)} real, kept for live payments)`
    : `${said} (${number.format(other)} test, for test mode only)`
}

/**
 * The lines the Products list shows under a product's status: why it does not sell (when that
 * is not simply its stock), whether a buy now link sells it, and how it is delivered or what
 * its stock holds.
 */
export function statusLines(
  product: SaleFacts,
  available: ItemsByKind | null,
  kinds: StockKinds,
): string[] {
  const { reason } = forSale(product, available, kinds)
  const lines: string[] = []
  if (reason === 'marked-out') lines.push('Marked out of stock')
  else if (product.buyNowLink) lines.push('Sold through its buy now link')
  if (product.deliveryMode === 'stock')
    lines.push(stockText(available ?? { real: 0, test: 0 }, kinds))
  else if (product.deliveryMode === 'shared')
    lines.push(reason === 'test-mode' ? 'Shared secret: not sold in test mode' : 'Shared secret')
  else lines.push('Manual delivery')
  return lines
}

/** What the stock figures count while the shop sells `kinds`, said next to them. */
export function countedText(kinds: StockKinds): string {
  return kinds === 'test'
    ? 'Counting test items: the shop is in test mode, where only test items are sold.'
    : kinds === 'real'
      ? 'Counting real items: live payments are delivered real items only.'
      : 'Counting real and test items: live payments get real items, test payments test items.'
}

/** "counting test items": countedText in a few words, for a figure's hint. */
export function countedShort(kinds: StockKinds): string {
  return `counting ${kinds === 'both' ? 'real and test' : kinds} items`
}
