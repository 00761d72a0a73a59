import { href, isRouteErrorResponse, Link } from 'react-router'
import { buttonVariants } from '~/components/ui/button-variants'

/**
 * What the order pages show instead of an order. A missing order, a wrong or foreign link and
 * a visitor who may not see the order all get the same 404 page, word for word, so nobody can
 * tell an existing order from a made-up id.
 */
export const ORDER_NOT_FOUND = {
  title: 'Order not found',
  message:
    'This order does not exist, or this link does not open it. Use the link in your order e-mail, or sign in with the account you bought with.',
} as const

export function OrderErrorPage({ error }: { error: unknown }) {
  let title = 'Something went wrong'
  let message = 'We could not load this order. Please try again in a moment.'
  if (isRouteErrorResponse(error) && error.status === 404) {
    title = ORDER_NOT_FOUND.title
    message = ORDER_NOT_FOUND.message
  } else if (isRouteErrorResponse(error) && error.status === 429) {
    title = 'Too many attempts'
    message =
      typeof error.data === 'string' && error.data
        ? error.data
        : 'Please wait a few minutes and try again.'
  }
  return (
    <main className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-6 py-24 text-center">
      <h1 className="text-3xl font-extrabold text-slate-950 dark:text-white">{title}</h1>
      <p className="text-slate-600 dark:text-slate-300">{message}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to={href('/')} className={buttonVariants({ size: 'wide' })}>
          Go Back Home
        </Link>
        <Link
          to={href('/dashboard/orders')}
          className="inline-flex h-11 items-center rounded-xl border border-slate-300 px-5 font-semibold text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
        >
          My Orders
        </Link>
      </div>
    </main>
  )
}
