import LockKeyhole from 'lucide-react/icons/lock-keyhole'
import {
  data,
  Form,
  href,
  Link,
  useNavigation,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import {
  type CheckoutResult,
  PaymentChoice,
  PaymentRedirect,
  payButtonClass,
  TestModeBanner,
} from '~/components/checkout/checkout-form'
import { FormAlert } from '~/components/forms'
import { OrderHelp } from '~/components/orders/order-help'
import { rootMetaData } from '~/components/shop/site-data'
import { checkPaymentLink, maskEmail, maskName } from '~/data/payment-link.server'
import { services } from '~/lib/app-context.server'
import { ORDER_MESSAGES } from '~/data/order.server'
import { getProductById } from '~/data/product.server'
import { sellableNow } from '~/services/payment/offered-gateways.server'
import { getUser } from '~/services/auth.server'
import { formatRupees } from '~/lib/money'
import {
  beginCheckout,
  checkoutChoice,
  renderedGatewayModes,
} from '~/routes/checkout/checkout.server'
import { readFormData } from '~/lib/form-data.server'
import { paymentChoiceSchema } from '~/lib/validation/checkout'
import { parseSubmission } from '~/lib/validation/submission'
import { isLinkCustomer, seesLinkCustomer } from '~/services/order-access.server'
import {
  clientIp,
  hitPolicy,
  releaseRateLimit,
  tooManyAttemptsMessage,
} from '~/lib/rate-limit.server'
import type { Route } from './+types/pay'
import { buttonVariants } from '~/components/ui/button-variants'

/**
 * /payment/pay?order&amount&product: a payment link an admin sent. The link's
 * record decides what is paid; the query only has to match it exactly, so a changed amount or
 * product is refused with a clear message. Paying starts the same flow as checkout, with the
 * same choice of gateway when the shop offers several.
 * The customer's name and e-mail are shown in full only to whoever may see the link's orders.
 */
function linkQuery(request: Request) {
  const search = new URL(request.url).searchParams
  return {
    order: search.get('order'),
    amount: search.get('amount'),
    product: search.get('product'),
  }
}

/**
 * Checks the link in the address. A link that does not open counts against the address as a
 * guessed order token does (`orderTokenIp`); one that opens gives its try back.
 */
async function checkLinkOf(request: Request, ip: string) {
  const { db, env } = services()
  const hit = await hitPolicy(db, 'orderTokenIp', ip)
  if (!hit.allowed) {
    return {
      ok: false as const,
      status: 429,
      message: tooManyAttemptsMessage(hit.retryAfterSeconds),
      retryAfter: hit.retryAfterSeconds,
    }
  }
  const check = await checkPaymentLink(db, linkQuery(request), env.PUBLIC_URL)
  if (check.ok) await releaseRateLimit(db, hit)
  return check
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = services()
  const check = await checkLinkOf(request, clientIp(context))
  if (!check.ok)
    return data(
      { ok: false as const, message: check.message },
      {
        status: check.status,
        headers: 'retryAfter' in check ? { 'Retry-After': String(check.retryAfter) } : {},
      },
    )
  const { link } = check
  // The customer in full only for whoever may see them (`seesLinkCustomer`): anyone else holds
  // only an address whose parts can be guessed, and may press Pay.
  const [choice, user, product] = await Promise.all([
    checkoutChoice(request, link.productId),
    getUser(request),
    link.productId ? getProductById(db, link.productId) : null,
  ])
  const visible = seesLinkCustomer(user, link.customerEmail)
  // Out of stock (or switched off) since the link was made: say so instead of a Pay button
  // that could only be refused (checkout decides again when the form is sent).
  const available = product ? (await sellableNow(db, env, [product])).has(product.id) : false
  return {
    ok: true as const,
    link: {
      orderId: link.orderId,
      amount: formatRupees(link.amount),
      productName: link.productName,
      customerName: visible ? link.customerName : maskName(link.customerName),
      customerEmail: visible ? link.customerEmail : maskEmail(link.customerEmail),
      // Only to whoever may see the customer: a proprietor's business carries their own name.
      invoiceTo:
        visible && link.buyerGstin ? `${link.buyerBusinessName}, GSTIN ${link.buyerGstin}` : null,
    },
    action: `${href('/payment/pay')}?${new URL(request.url).searchParams.toString()}`,
    // A product deleted since the link was made: the spec's message for a missing product.
    soldOut: available
      ? null
      : product
        ? ORDER_MESSAGES.outOfStock
        : ORDER_MESSAGES.productNotFound,
    testGatewayNames: choice.testGatewayNames,
    testSandboxNames: choice.testSandboxNames,
    gateways: choice.gateways,
    selected: choice.selected,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const check = await checkLinkOf(request, clientIp(context))
  if (!check.ok) {
    const refused: CheckoutResult = { ok: false, formError: check.message }
    return data(refused, {
      status: check.status,
      headers: 'retryAfter' in check ? { 'Retry-After': String(check.retryAfter) } : {},
    })
  }
  const { link } = check
  const user = await getUser(request)
  const visible = seesLinkCustomer(user, link.customerEmail)
  // Only the way to pay comes from the form; what is paid, and by whom, is the link's.
  const form = await readFormData(request)
  const choice = parseSubmission(form, paymentChoiceSchema)
  return beginCheckout(request, {
    gateway: choice.status === 'success' ? (choice.value.gateway ?? null) : null,
    unavailable: choice.status === 'success' ? choice.value.unavailable : [],
    renderedModes: renderedGatewayModes(form),
    productId: link.productId ?? '',
    customer: { name: link.customerName, email: link.customerEmail, phone: link.customerPhone },
    // Pressing Pay unmasks nobody: the gateway's page is not pre-filled for this browser either.
    seesCustomer: visible,
    // The order is the customer's: it joins the account that pressed Pay only when that is them.
    userId: user && isLinkCustomer(user, link.customerEmail) ? user.id : null,
    ip: clientIp(context),
    paymentLink: { id: link.id, amount: link.amount, preferredOrderId: link.orderId },
  })
}

/**
 * Never cached: the page names the link's customer. Retry-After of a throttled page or checkout
 * (the order cookie is passed on by React Router itself).
 */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After')
  return {
    'Cache-Control': 'private, no-store',
    ...(retryAfter ? { 'Retry-After': retryAfter } : {}),
  }
}

/**
 * Pressing Pay changes nothing this page loaded (the browser leaves for the gateway next): the
 * link is not looked up, and its try counted, a second time. Unless it was refused with 409
 * (the shop's ways to pay or the product changed since the page loaded): the page then shows
 * the ways to pay, and whether they take real money, as they are now.
 */
export function shouldRevalidate({
  formMethod,
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod?.toUpperCase() === 'POST') return actionStatus === 409
  return defaultShouldRevalidate
}

export default function PaymentLinkPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  if (!loaderData.ok) {
    return (
      <main className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-6 py-24 text-center">
        <h1 className="text-2xl font-extrabold text-slate-950 dark:text-white">
          Payment link not valid
        </h1>
        <p role="alert" className="text-slate-700 dark:text-slate-200">
          {loaderData.message}
        </p>
        <Link to={href('/')} className={buttonVariants({ size: 'wide' })}>
          Back to Home
        </Link>
      </main>
    )
  }
  const { link, testGatewayNames, testSandboxNames, gateways, selected, soldOut } = loaderData
  const busy = navigation.state !== 'idle'
  const failed = actionData && !actionData.ok ? actionData : undefined
  return (
    <main className="mx-auto w-full max-w-lg flex-1 px-4 pb-16 pt-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-slate-950 dark:text-white">
        Complete your payment
      </h1>
      {testGatewayNames.length ? (
        <div className="mt-4">
          <TestModeBanner gateways={testGatewayNames} sandboxes={testSandboxNames} />
        </div>
      ) : null}
      <section className="mt-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <dl className="space-y-2 text-sm">
          {[
            ['Order ID', link.orderId],
            ['Product', link.productName],
            ['Name', link.customerName],
            ['Email', link.customerEmail],
            ...(link.invoiceTo ? [['Invoice to', link.invoiceTo]] : []),
          ].map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4">
              <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
              <dd className="text-right font-semibold wrap-anywhere text-slate-950 dark:text-white">
                {value}
              </dd>
            </div>
          ))}
          <div className="flex justify-between gap-4 border-t border-slate-100 pt-2 dark:border-slate-800">
            <dt className="text-slate-600 dark:text-slate-300">Amount</dt>
            <dd className="text-xl font-extrabold text-slate-950 dark:text-white">{link.amount}</dd>
          </div>
        </dl>
        <div className="mt-5 space-y-4">
          {actionData?.ok ? (
            <PaymentRedirect payment={actionData.payment} />
          ) : soldOut ? (
            <p role="alert" className="font-semibold text-rose-700 dark:text-rose-400">
              {soldOut}
            </p>
          ) : (
            <>
              {actionData && !actionData.ok && actionData.formError ? (
                <FormAlert>{actionData.formError}</FormAlert>
              ) : null}
              <Form method="post" action={loaderData.action} className="space-y-4">
                <PaymentChoice gateways={gateways} selected={selected} failed={failed} />
                <button type="submit" disabled={busy} className={payButtonClass}>
                  <LockKeyhole aria-hidden="true" className="size-4" />
                  {busy ? 'Processing...' : `Pay ${link.amount}`}
                </button>
              </Form>
            </>
          )}
        </div>
      </section>
      <OrderHelp
        order={{ id: link.orderId, productName: link.productName }}
        className="mt-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      />
    </main>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  const siteName = rootMetaData(matches)?.site.siteName ?? 'KeyBazaar'
  return [{ title: `Payment | ${siteName}` }, { name: 'robots', content: 'noindex' }]
}
