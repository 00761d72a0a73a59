import LoaderCircle from 'lucide-react/icons/loader-circle'
import X from 'lucide-react/icons/x'
import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { ChargedInRupees } from '~/components/shop/charged-in-rupees'
import { PriceLine, type PriceLineStyle } from '~/components/shop/price-line'
import { useDisplayCurrency } from '~/components/shop/site-data'
import { Dialog, DialogClose, DialogContent, DialogTitle } from '~/components/ui/dialog'
import { ResponsiveImage } from '~/components/ui/responsive-image'
import { checkoutPath } from '~/lib/paths'
import { CheckoutDetails, type CheckoutPageData } from './checkout-details'
import { PaymentRedirect, TestModeBanner, type PaymentData } from './checkout-form'

const PRICE: PriceLineStyle = {
  line: 'flex flex-wrap items-baseline gap-x-2',
  price: 'text-xl font-extrabold text-slate-950 dark:text-white',
  was: 'text-sm text-slate-600 dark:text-slate-400',
  save: 'text-sm font-bold',
}

/**
 * The payment dialog of the product page's Buy Now (loaded when it first opens). It shows what
 * /checkout/{slug} shows, loaded from that route (its loader, so the stock, the ways to pay and a
 * signed-in buyer's details are the server's), and posts the same form to it. Without
 * JavaScript, Buy Now is a link to that page. Once the order exists the dialog gives way to the
 * gateway: Paytm's form and PhonePe's page take the browser there, Razorpay opens its own modal.
 */
export default function PaymentDialog({
  slug,
  title,
  onClose,
}: {
  slug: string
  title: string
  onClose: () => void
}) {
  const fetcher = useFetcher<CheckoutPageData>()
  const [payment, setPayment] = useState<PaymentData | null>(null)
  const currency = useDisplayCurrency()
  const path = checkoutPath(slug)
  const load = fetcher.load
  useEffect(() => {
    void load(path)
  }, [load, path])
  // A load that fails (the product gone, the network down) is the product page's error, as a
  // click through to the checkout page would have been: until the data comes, it is loading.
  const checkout = fetcher.data

  if (payment) return <HandOver payment={payment} onCancel={onClose} />

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        aria-describedby={undefined}
        className="top-auto bottom-0 max-h-[92dvh] w-full max-w-lg translate-y-0 overflow-y-auto rounded-b-none sm:top-1/2 sm:bottom-auto sm:w-[calc(100%-2rem)] sm:-translate-y-1/2 sm:rounded-2xl"
      >
        <div className="flex items-start justify-between gap-4">
          <DialogTitle className="text-xl font-bold tracking-tight">Checkout</DialogTitle>
          <DialogClose
            aria-label="Close"
            className="-mr-2 -mt-1 inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
          >
            <X aria-hidden="true" className="size-5" />
          </DialogClose>
        </div>
        {checkout ? (
          <div className="mt-4 space-y-4">
            {checkout.testMode ? (
              <TestModeBanner
                gateways={checkout.testGatewayNames}
                sandboxes={checkout.testSandboxNames}
              />
            ) : null}
            <div className="flex items-center gap-3">
              <div className="w-20 shrink-0 overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800">
                <ResponsiveImage image={checkout.image} alt="" sizes="80px" maxWidth={320} />
              </div>
              <div className="min-w-0">
                <p className="font-bold text-slate-950 dark:text-white">{checkout.product.title}</p>
                <PriceLine product={checkout.product} currency={currency} style={PRICE} />
              </div>
            </div>
            <ChargedInRupees currency={currency} paise={checkout.product.price} />
            <CheckoutDetails checkout={checkout} onPaymentStart={setPayment} />
          </div>
        ) : (
          <p
            role="status"
            className="mt-6 flex items-center justify-center gap-2 py-10 text-slate-600 dark:text-slate-300"
          >
            <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
            Loading the payment form for {title}…
          </p>
        )}
      </DialogContent>
    </Dialog>
  )
}

/**
 * The sheet shown while the browser goes to the gateway (not modal: Razorpay's own modal opens
 * over it). Focus moves to its Continue, so a keyboard or screen reader user is where the
 * payment goes on; Escape there is Cancel, which only puts this sheet away (the unpaid order
 * expires by itself).
 */
function HandOver({ payment, onCancel }: { payment: PaymentData; onCancel: () => void }) {
  const sheet = useRef<HTMLDivElement>(null)
  useEffect(() => {
    sheet.current?.querySelector<HTMLElement>('a[href], button')?.focus()
  }, [])
  return (
    <div
      ref={sheet}
      role="status"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel()
      }}
      className="fixed inset-x-0 bottom-0 z-50 mx-auto max-w-md rounded-t-2xl border border-slate-200 bg-white p-5 shadow-2xl sm:bottom-6 sm:rounded-2xl dark:border-slate-700 dark:bg-slate-900"
    >
      <PaymentRedirect payment={payment} />
      <button
        type="button"
        onClick={onCancel}
        className="mt-3 w-full text-center text-sm font-medium text-slate-600 hover:underline dark:text-slate-300"
      >
        Cancel
      </button>
    </div>
  )
}
