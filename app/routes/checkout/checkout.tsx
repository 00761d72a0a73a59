import ArrowLeft from 'lucide-react/icons/arrow-left'
import {
  data,
  href,
  isRouteErrorResponse,
  Link,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import { TestModeBanner, type CheckoutResult } from '~/components/checkout/checkout-form'
import { CheckoutDetails } from '~/components/checkout/checkout-details'
import { rootMetaData, useDisplayCurrency } from '~/components/shop/site-data'
import { ChargedInRupees } from '~/components/shop/charged-in-rupees'
import { PriceLine, type PriceLineStyle } from '~/components/shop/price-line'
import { Card } from '~/components/ui/card'
import { ResponsiveImage } from '~/components/ui/responsive-image'
import {
  getProductBySlugOrId,
  productAvailability,
  stockLeftByProduct,
} from '~/data/product.server'
import { ORDER_MESSAGES } from '~/data/order.server'
import { catalogueProduct } from '~/data/storefront-cache.server'
import { soldOnlyForRealPayments } from '~/data/stock.server'
import { services } from '~/lib/app-context.server'
import { getUser } from '~/services/auth.server'
import { businessForNextOrder } from '~/data/customer-gst.server'
import { imageService } from '~/lib/images.server'
import {
  beginCheckout,
  checkoutChoice,
  renderedGatewayModes,
} from '~/routes/checkout/checkout.server'
import { checkoutPath, productPath } from '~/lib/paths'
import { RENEW_PARAM } from '~/lib/renew-link.server'
import { renewalPrefill } from '~/services/notifications/expiry-reminder.server'
import { clientIp } from '~/lib/rate-limit.server'
import { checkoutSchema } from '~/lib/validation/checkout'
import { parseSubmission } from '~/lib/validation/submission'
import type { Route } from './+types/checkout'
import { readFormData } from '~/lib/form-data.server'
import { buttonVariants } from '~/components/ui/button-variants'
import { sellsTestItems } from '~/services/payment/offered-gateways.server'

/**
 * /checkout/{slug}: the payment form for one product, as a page: where Buy Now leads without
 * JavaScript or in a new tab; with JavaScript the product page's payment dialog loads this
 * loader's data and posts to this action (app/components/checkout/payment-dialog.tsx). The action checks the form with the same schema as the browser, creates the order at
 * the database's price and answers with the signed form that sends the buyer to Paytm.
 */
const PRODUCT_NOT_FOUND = 'Product not found'

export async function loader({ request, params }: Route.LoaderArgs) {
  const { db, env } = services()
  const product = await getProductBySlugOrId(db, params.slug)
  if (!product) throw data(PRODUCT_NOT_FOUND, { status: 404 })
  const renew = new URL(request.url).searchParams.get(RENEW_PARAM)
  const gatewayChoice = checkoutChoice(request, product.id)
  const signedIn = getUser(request)
  const [user, business, choice, image, stockLeft, realOnly, renewal] = await Promise.all([
    signedIn,
    // The business a signed-in customer's invoice is made out to (docs/delivery.md).
    signedIn.then((user) => (user ? businessForNextOrder(db, user.id) : null)),
    gatewayChoice,
    imageService().ref(product.image),
    // Test items count while a simulator is among the ways to pay (as testItemsOnSale).
    gatewayChoice.then(({ gateways }) =>
      stockLeftByProduct(db, [product.id], { upTo: 1, testItems: sellsTestItems(gateways) }),
    ),
    soldOnlyForRealPayments(db, product.id),
    // An expiry reminder's Renew link fills in the buyer's details from their order.
    renewalPrefill(db, env.APP_SECRET, renew, product.id),
  ])
  const testMode = choice.testGatewayNames.length > 0
  return data(
    {
      product: {
        slug: product.slug,
        title: product.title,
        price: product.price,
        originalPrice: product.originalPrice,
        discount: product.discount,
        // An order here is delivered by this shop, so a product sold from stock needs an item
        // left (createOrder checks again when the form is sent).
        inStock: productAvailability(product, stockLeft, { viaCheckout: true }).inStock,
        deliveryTime: product.deliveryTime.trim() || 'Instant',
      },
      image,
      defaults: renewal ?? (user ? { name: user.name, email: user.email } : {}),
      invoiceTo: user
        ? business
          ? { businessName: business.businessName, gstin: business.gstin }
          : ('you' as const)
        : null,
      testMode,
      testGatewayNames: choice.testGatewayNames,
      testSandboxNames: choice.testSandboxNames,
      gateways: choice.gateways,
      selected: choice.selected,
      // Test mode never sells real goods: the buyer is told so instead of being sent to the simulator.
      notInTestMode: testMode && realOnly ? ORDER_MESSAGES.notInTestMode : null,
    },
    // Filled in with a buyer's name, e-mail and phone: for this browser only, and not kept.
    { headers: renewal ? { 'Cache-Control': 'private, no-store' } : {} },
  )
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db } = services()
  const form = await readFormData(request)
  const submission = parseSubmission(form, checkoutSchema)
  if (submission.status !== 'success')
    return data<CheckoutResult>({ ok: false, result: submission.reply() }, { status: 400 })
  // The catalogue's shared copy (at most a second old) names the product; the order's price,
  // title and stock are read again from the product row inside createOrder's statement.
  const product = await catalogueProduct(db, params.slug)
  if (!product) throw data(PRODUCT_NOT_FOUND, { status: 404 })
  const user = await getUser(request)
  const { gateway, unavailable, shownPrice, ...customer } = submission.value
  // Only name, e-mail, phone and the way to pay are read from the form; an amount is ignored.
  return beginCheckout(request, {
    gateway: gateway ?? null,
    unavailable,
    shownPrice: shownPrice ?? null,
    renderedModes: renderedGatewayModes(form),
    productId: product.id,
    customer,
    userId: user?.id ?? null,
    ip: clientIp(context),
  })
}

/**
 * Retry-After of a throttled checkout (the order cookie is passed on by React Router itself),
 * and the no-store of a form filled in from a Renew link.
 */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const headers = new Headers()
  const retryAfter = actionHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  const cacheControl = loaderHeaders.get('Cache-Control')
  if (cacheControl) headers.set('Cache-Control', cacheControl)
  return headers
}

/** Where every product's checkout form posts: /checkout/{slug}. */
const CHECKOUT_PATH_PREFIX = checkoutPath('x').slice(0, -1)

/**
 * Submitting the form changes nothing this page (or the product page's Buy Now dialog, which
 * loads this route's data) showed, as the browser leaves for the gateway next; unless it was
 * refused because the ways to pay changed since (409): the form then shows them as they are now.
 */
export function shouldRevalidate({
  formAction,
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formAction?.startsWith(CHECKOUT_PATH_PREFIX)) return actionStatus === 409
  return defaultShouldRevalidate
}

const SUMMARY_PRICE: PriceLineStyle = {
  line: 'mt-1 flex flex-wrap items-baseline gap-x-2',
  price: 'text-2xl font-extrabold text-slate-950 dark:text-white',
  was: 'text-slate-600 dark:text-slate-400',
  save: 'text-sm font-bold',
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, image, testMode } = loaderData
  const currency = useDisplayCurrency()
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 pb-16 pt-6">
      <Link
        to={productPath(product.slug)}
        className="inline-flex items-center gap-2 rounded-lg py-1.5 text-sm font-semibold text-slate-700 hover:text-brand-700 dark:text-slate-200 dark:hover:text-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to product
      </Link>
      <h1 className="mt-3 text-2xl font-extrabold tracking-tight text-slate-950 sm:text-3xl dark:text-white">
        Checkout
      </h1>
      {testMode ? (
        <div className="mt-4">
          <TestModeBanner
            gateways={loaderData.testGatewayNames}
            sandboxes={loaderData.testSandboxNames}
          />
        </div>
      ) : null}
      <div className="mt-5 grid gap-6 md:grid-cols-[1fr_1.2fr]">
        <Card
          as="section"
          aria-labelledby="summary-heading"
          padding="none"
          className="h-fit p-4 shadow-sm"
        >
          <h2 id="summary-heading" className="sr-only">
            Order summary
          </h2>
          <div className="overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800">
            <ResponsiveImage
              image={image}
              alt=""
              sizes="(min-width: 768px) 320px, 100vw"
              maxWidth={640}
              priority
            />
          </div>
          <p className="mt-3 font-bold text-slate-950 dark:text-white">{product.title}</p>
          <PriceLine product={product} currency={currency} style={SUMMARY_PRICE} />
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
            Delivery: {product.deliveryTime}
          </p>
          <ChargedInRupees currency={currency} paise={product.price} className="mt-3" />
        </Card>
        <Card as="section" aria-labelledby="details-heading" className="shadow-sm">
          <h2 id="details-heading" className="text-lg font-bold text-slate-950 dark:text-white">
            Your details
          </h2>
          <div className="mt-4">
            <CheckoutDetails checkout={loaderData} result={actionData} />
          </div>
        </Card>
      </div>
    </main>
  )
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const siteName = rootMetaData(matches)?.site.siteName ?? 'KeyBazaar'
  const title = loaderData
    ? `Checkout: ${loaderData.product.title} | ${siteName}`
    : `${PRODUCT_NOT_FOUND} | ${siteName}`
  return [{ title }, { name: 'robots', content: 'noindex' }]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <main className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-6 py-24 text-center">
      <h1 className="text-3xl font-extrabold text-slate-950 dark:text-white">
        {notFound ? PRODUCT_NOT_FOUND : 'Something went wrong'}
      </h1>
      <p className="text-slate-600 dark:text-slate-300">
        {notFound
          ? 'This product does not exist or is no longer available.'
          : 'Please try again in a moment.'}
      </p>
      <Link to={href('/')} className={buttonVariants({ size: 'wide' })}>
        Go Back Home
      </Link>
    </main>
  )
}
