import LinkIcon from 'lucide-react/icons/link'
import { useId } from 'react'
import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import { accountPageMeta } from '~/components/auth/messages'
import { OrderError } from '~/data/order.server'
import { createPaymentLink, listPaymentLinks } from '~/data/payment-link.server'
import { listProducts } from '~/data/product.server'
import { services } from '~/lib/app-context.server'
import { formatRupees, parseRupeesToPaise } from '~/lib/money'
import { requirePermission } from '~/lib/permissions.server'
import { checkoutSchema, type CheckoutFieldErrors } from '~/lib/validation/checkout'
import type { Route } from './+types/payment-links'
import { Field, fieldClass } from '~/components/forms'
import { PageHeader } from '~/components/admin/page-header'

/**
 * /admin/payment-links: an admin with Can Manage Orders creates a payment link for a product
 * and a customer (spec section 3 "Payment link", status active on creation) and sends its URL;
 * the customer pays on /payment/pay. The amount defaults to the product's price.
 */
const linkSchema = checkoutSchema.extend({
  productId: z.preprocess(
    (v) => (typeof v === 'string' ? v : ''),
    z.string().min(1, 'Choose a product'),
  ),
  amount: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : ''),
    z.union([
      z.literal(''),
      z
        .string()
        .refine((v) => (parseRupeesToPaise(v) ?? 0) > 0, 'Enter an amount in rupees, e.g. 1499'),
    ]),
  ),
})

type LinkFieldErrors = CheckoutFieldErrors & Partial<Record<'productId' | 'amount', string>>

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db, env } = services()
  const [links, products] = await Promise.all([
    listPaymentLinks(db, env.PUBLIC_URL),
    listProducts(db),
  ])
  return {
    links: links.map((link) => ({
      id: link.id,
      orderId: link.orderId,
      productName: link.productName,
      amount: formatRupees(link.amount),
      customer: `${link.customerName} <${link.customerEmail}>`,
      status: link.status,
      createdAt: link.createdAt,
      paymentUrl: link.paymentUrl,
    })),
    products: products
      .filter((p) => p.inStock)
      .map((p) => ({ id: p.id, title: p.title, price: formatRupees(p.price) })),
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, 'canManageOrders')
  const { db, env } = services()
  const result = linkSchema.safeParse(Object.fromEntries(await request.formData()))
  if (!result.success) {
    const errors: LinkFieldErrors = {}
    for (const issue of result.error.issues)
      errors[String(issue.path[0]) as keyof LinkFieldErrors] ??= issue.message
    return data({ ok: false as const, errors, created: null }, { status: 400 })
  }
  const input = result.data
  try {
    const link = await createPaymentLink(
      db,
      {
        productId: input.productId,
        amount: input.amount ? (parseRupeesToPaise(input.amount) ?? undefined) : undefined,
        customer: { name: input.name, email: input.email, phone: input.phone },
        createdBy: user.id,
      },
      env.PUBLIC_URL,
    )
    return {
      ok: true as const,
      errors: {} as LinkFieldErrors,
      created: { paymentUrl: link.paymentUrl, orderId: link.orderId },
    }
  } catch (error) {
    if (error instanceof OrderError)
      return data(
        {
          ok: false as const,
          errors: { productId: error.message } as LinkFieldErrors,
          created: null,
        },
        { status: 400 },
      )
    throw error
  }
}

const dateFormat = new Intl.DateTimeFormat('en-IN', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Asia/Kolkata',
})

export default function AdminPaymentLinks({ loaderData, actionData }: Route.ComponentProps) {
  const { links, products } = loaderData
  const navigation = useNavigation()
  const errors: LinkFieldErrors = actionData?.errors ?? {}
  const productId = useId()
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Payment Links"
        description="Ask a customer to pay for a product with a link they can open on any phone."
      />
      {actionData?.created ? (
        <div
          role="status"
          className="rounded-xl border border-emerald-200 bg-emerald-50 px-3 py-2.5 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-100"
        >
          Payment link created for order {actionData.created.orderId}:{' '}
          <a href={actionData.created.paymentUrl} className="font-semibold break-all underline">
            {actionData.created.paymentUrl}
          </a>
        </div>
      ) : null}
      <section
        aria-labelledby="new-link"
        className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="new-link" className="text-lg font-bold text-slate-950 dark:text-white">
          New payment link
        </h2>
        <Form method="post" noValidate className="mt-4 grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5 sm:col-span-2">
            <label
              htmlFor={productId}
              className="block text-sm font-medium text-slate-800 dark:text-slate-200"
            >
              Product
            </label>
            <select
              id={productId}
              name="productId"
              className={fieldClass}
              aria-invalid={errors.productId ? true : undefined}
            >
              <option value="">Choose a product</option>
              {products.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.title} ({product.price})
                </option>
              ))}
            </select>
            {errors.productId ? (
              <p className="text-sm font-medium text-rose-700 dark:text-rose-400">
                {errors.productId}
              </p>
            ) : null}
          </div>
          <Field
            name="amount"
            label="Amount in rupees"
            inputMode="decimal"
            error={errors.amount}
            hint="Leave blank for the product's price."
          />
          <Field name="name" label="Customer name" autoComplete="off" error={errors.name} />
          <Field
            name="email"
            label="Customer email"
            type="email"
            autoComplete="off"
            error={errors.email}
          />
          <Field
            name="phone"
            label="Customer phone"
            type="tel"
            autoComplete="off"
            error={errors.phone}
          />
          <div className="sm:col-span-2">
            <button
              type="submit"
              disabled={navigation.state === 'submitting'}
              className="inline-flex h-11 items-center gap-2 rounded-xl bg-brand-600 px-4 font-semibold text-white hover:bg-brand-700 disabled:opacity-70"
            >
              <LinkIcon aria-hidden="true" className="size-4" />
              Create Payment Link
            </button>
          </div>
        </Form>
      </section>
      <section aria-labelledby="links-heading">
        <h2 id="links-heading" className="text-lg font-bold text-slate-950 dark:text-white">
          Recent links
        </h2>
        {links.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">No payment links yet.</p>
        ) : (
          <div className="mt-3 overflow-x-auto rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                <tr>
                  <th className="px-3 py-2">Order ID</th>
                  <th className="px-3 py-2">Product</th>
                  <th className="px-3 py-2">Amount</th>
                  <th className="px-3 py-2">Customer</th>
                  <th className="px-3 py-2">Status</th>
                  <th className="px-3 py-2">Created</th>
                  <th className="px-3 py-2">Link</th>
                </tr>
              </thead>
              <tbody>
                {links.map((link) => (
                  <tr key={link.id} className="border-t border-slate-100 dark:border-slate-800">
                    <td className="px-3 py-2 font-mono">{link.orderId}</td>
                    <td className="px-3 py-2">{link.productName}</td>
                    <td className="px-3 py-2">{link.amount}</td>
                    <td className="px-3 py-2">{link.customer}</td>
                    <td className="px-3 py-2 capitalize">{link.status}</td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      {dateFormat.format(new Date(link.createdAt))}
                    </td>
                    <td className="px-3 py-2">
                      <a
                        href={link.paymentUrl}
                        className="font-semibold text-brand-700 underline dark:text-brand-300"
                      >
                        Open<span className="sr-only"> payment link for {link.orderId}</span>
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Payment Links')
}
