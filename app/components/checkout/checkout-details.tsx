import FileText from 'lucide-react/icons/file-text'
import ShieldCheck from 'lucide-react/icons/shield-check'
import { href, Link } from 'react-router'
import type { ImageRef } from '~/lib/images'
import { formatRupees } from '~/lib/money'
import { checkoutPath } from '~/lib/paths'
import { gatewayLabel } from '~/lib/validation/gateway'
import { CheckoutForm, type CheckoutResult, type GatewayChoice } from './checkout-form'

/** What checkout shows for one product: the loader of /checkout/{slug} answers it. */
export interface CheckoutView {
  product: { slug: string; price: number; inStock: boolean }
  defaults: { name?: string; email?: string; phone?: string }
  /** A signed-in buyer's invoice: made out to their business, or to them ('you'). */
  invoiceTo: { businessName: string; gstin: string } | 'you' | null
  gateways: readonly GatewayChoice[]
  selected: string | null
  /** Why test mode cannot sell this product, when it cannot. */
  notInTestMode: string | null
}

/** All the checkout loader answers: the product's summary and the test mode banner too. */
export interface CheckoutPageData extends CheckoutView {
  product: CheckoutView['product'] & {
    title: string
    originalPrice: number
    discount: number
    deliveryTime: string
  }
  image: ImageRef | null
  testMode: boolean
  testGatewayNames: string[]
  testSandboxNames: string[]
}

/**
 * The buyer's side of checkout: the payment form (or why the product cannot be bought now),
 * whom the invoice names, and how the payment is made. Shown by the checkout page and by the
 * payment dialog of the product page (app/components/checkout/payment-dialog.tsx).
 */
export function CheckoutDetails({
  checkout,
  result,
  onPaymentStart,
}: {
  checkout: CheckoutView
  /** The action's answer after a plain form post (no JavaScript). */
  result?: CheckoutResult
  /** See CheckoutForm. */
  onPaymentStart?: Parameters<typeof CheckoutForm>[0]['onPaymentStart']
}) {
  const { product, defaults, gateways, selected, invoiceTo, notInTestMode } = checkout
  const sellable = product.inStock && !notInTestMode
  return (
    <>
      {product.inStock && notInTestMode ? (
        <p role="alert" className="font-semibold text-rose-700 dark:text-rose-400">
          {notInTestMode}
        </p>
      ) : product.inStock ? (
        <CheckoutForm
          action={checkoutPath(product.slug)}
          amountText={formatRupees(product.price)}
          price={product.price}
          defaults={defaults}
          result={result}
          gateways={gateways}
          selected={selected}
          onPaymentStart={onPaymentStart}
        />
      ) : (
        <p role="alert" className="font-semibold text-rose-700 dark:text-rose-400">
          This product is out of stock.
        </p>
      )}
      {invoiceTo && sellable ? (
        <p className="mt-4 flex items-start gap-2 text-sm text-slate-600 dark:text-slate-300">
          <FileText aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {invoiceTo === 'you' ? (
            <span>
              Buying for a business registered for GST?{' '}
              <Link
                to={href('/dashboard/settings')}
                className="font-medium text-brand-700 underline dark:text-brand-300"
              >
                Add its GSTIN in Settings
              </Link>{' '}
              for an invoice it can claim the tax on.
            </span>
          ) : (
            <span>
              Your invoice is made out to{' '}
              <strong className="font-semibold text-slate-900 dark:text-white">
                {invoiceTo.businessName}
              </strong>{' '}
              (GSTIN {invoiceTo.gstin}).{' '}
              <Link
                to={href('/dashboard/settings')}
                className="font-medium text-brand-700 underline dark:text-brand-300"
              >
                Change
              </Link>
            </span>
          )}
        </p>
      ) : null}
      <p className="mt-4 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
        {gateways.length > 0 ? (
          <ShieldCheck
            aria-hidden="true"
            className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
          />
        ) : null}
        {paymentMethodsNote(gateways)}
      </p>
    </>
  )
}

/**
 * How the buyer pays, under the form. With no active gateway (all switched off in the back
 * office) the checkout refuses the payment (app/routes/checkout/checkout.server.ts), and this
 * says so rather than naming Paytm.
 */
export function paymentMethodsNote(gateways: readonly Pick<GatewayChoice, 'id'>[]): string {
  if (gateways.length === 0)
    return 'Online payment is not available right now. Please try again later.'
  if (gateways.length > 1) return 'Secure payment by UPI, card, netbanking or wallet.'
  const only = gateways[0]!.id
  return only === 'paytm'
    ? 'Secure payment by UPI, card or wallet through Paytm.'
    : `Secure payment by UPI, card or netbanking through ${gatewayLabel(only)}.`
}
