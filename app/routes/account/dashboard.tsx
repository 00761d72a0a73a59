import Shield from 'lucide-react/icons/shield'
import type { ReactNode } from 'react'
import { href, Link } from 'react-router'
import { BrowseProductsLink } from '~/components/account/account-page'
import { displayName } from '~/components/auth/logout-button'
import { accountPageMeta } from '~/components/auth/messages'
import { CustomerOrderList, customerOrderItem } from '~/components/orders/customer-order-list'
import { customerOrderStats, listCustomerOrders } from '~/data/customer-orders.server'
import {
  activeSubscriptions,
  customerSavings,
  recentActivity,
  type ActivityType,
} from '~/data/customer-overview.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { renewPath } from '~/lib/renew-link.server'
import { requireUser } from '~/services/auth.server'
import { shopDateTime, shopLongDate } from '~/lib/date-format'
import { formatRupees } from '~/lib/money'
import { orderPath } from '~/lib/order-status'
import type { Route } from './+types/dashboard'
import { buttonVariants } from '~/components/ui/button-variants'
import { Card, CardList } from '~/components/ui/card'

const RECENT_ORDERS = 5
const RECENT_ACTIVITY = 8

/** What each order event says in the customer's activity list (amounts in paise, or null). */
const ACTIVITY_WORDS: Record<ActivityType, (product: string, amount: number | null) => string> = {
  paid: (product) => `Payment received for ${product}`,
  delivered: (product) => `${product} delivered`,
  replaced: (product) => `${product} replaced with new details`,
  refunded: (product) => `${product} refunded`,
  // A refund in part: the order stays paid or delivered (docs/payments.md, "Refunds").
  refund_processed: (product, amount) =>
    amount === null
      ? `A refund was processed for ${product}`
      : `Refund of ${formatRupees(amount)} processed for ${product}`,
  report_resolved: (product) => `Your problem report about ${product} was answered`,
}

/** The customer's dashboard: figures and recent orders from their own orders (no samples). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const { db, env } = services()
  const shop = getSiteSettings(db)
  const [stats, recent, settings, saved, subscriptions, activity] = await Promise.all([
    customerOrderStats(db, user.id),
    listCustomerOrders(db, user.id, { pageSize: RECENT_ORDERS }),
    shop,
    customerSavings(db, user.id),
    // Terms end on the shop's calendar, in its time zone (Settings).
    shop.then(({ timezone }) => activeSubscriptions(db, user.id, { timeZone: timezone })),
    recentActivity(db, user.id, RECENT_ACTIVITY),
  ])
  const when = shopDateTime(settings.timezone)
  const day = shopLongDate(settings.timezone)
  return {
    user: {
      name: user.name,
      email: user.email,
      isAdmin: user.isAdmin,
      memberSince: shopLongDate(settings.timezone).format(new Date(user.createdAt)),
    },
    stats: {
      purchases: stats.purchases,
      testPurchases: stats.testPurchases,
      spent: formatRupees(stats.spent),
      saved: formatRupees(saved),
      inProgress: stats.inProgress,
      activeSubscriptions: subscriptions.length,
    },
    subscriptions: subscriptions.map((item) => ({
      orderId: item.orderId,
      productName: item.productName,
      productSlug: item.productSlug,
      validity: item.validity,
      expires: day.format(new Date(item.expiresAt)),
      expiresAt: item.expiresAt,
      // The product's checkout with this order's details filled in, while the product exists.
      renewTo: item.productSlug ? renewPath(env.APP_SECRET, item.productSlug, item.orderId) : null,
    })),
    activity: activity.map((item) => ({
      id: item.id,
      orderId: item.orderId,
      text: ACTIVITY_WORDS[item.type](item.productName, item.amount),
      at: when.format(new Date(item.createdAt)),
      createdAt: item.createdAt,
    })),
    recentOrders: recent.orders.map((order) => customerOrderItem(order, when)),
    moreOrders: recent.total > RECENT_ORDERS,
  }
}

function Stat({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <Card>
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
        {value}
      </dd>
      <dd className="mt-1 text-xs text-slate-600 dark:text-slate-400">{hint}</dd>
    </Card>
  )
}

/** A titled part of the dashboard; `more` stands right of the title (a link to the whole list). */
function Section({
  id,
  title,
  more,
  children,
}: {
  id: string
  title: string
  more?: ReactNode
  children: ReactNode
}) {
  const heading = (
    <h2 id={id} className="text-lg font-semibold text-slate-900 dark:text-white">
      {title}
    </h2>
  )
  return (
    <section aria-labelledby={id} className="space-y-3">
      {more ? (
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          {heading}
          {more}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  )
}

export default function CustomerDashboard({ loaderData }: Route.ComponentProps) {
  const { user, stats, recentOrders, moreOrders, subscriptions, activity } = loaderData
  const linkClass = 'text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300'
  const emptyClass =
    'rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-6 text-sm text-slate-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300'
  const browse = (
    <BrowseProductsLink
      to={`${href('/')}#services`}
      className={`${buttonVariants({ size: 'sm' })} mt-3`}
    />
  )
  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl dark:text-white">
          Welcome back, {displayName(user)}!
        </h1>
        <p className="mt-1 text-slate-600 dark:text-slate-300">Your account at a glance.</p>
      </div>

      <section aria-labelledby="figures">
        <h2 id="figures" className="sr-only">
          Your purchases
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <Stat
            label="Orders placed"
            value={String(stats.purchases)}
            hint={
              stats.inProgress > 0
                ? `${stats.inProgress} waiting for delivery`
                : 'Orders with a confirmed payment'
            }
          />
          {/* Test orders are listed and counted above, but no money changed hands for them. */}
          <Stat
            label="Total spent"
            value={stats.spent}
            hint={stats.testPurchases > 0 ? 'Refunds and test orders excluded' : 'Refunds excluded'}
          />
          <Stat label="Total saved" value={stats.saved} hint="Against original prices" />
          <Stat
            label="Active subscriptions"
            value={String(stats.activeSubscriptions)}
            hint="Delivered and still valid"
          />
        </dl>
      </section>

      <Section id="subscriptions" title="Active subscriptions">
        {subscriptions.length > 0 ? (
          <CardList>
            {subscriptions.map((item) => (
              <li
                key={item.orderId}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3"
              >
                <div className="min-w-0">
                  <Link
                    to={orderPath(item.orderId)}
                    className="font-semibold text-slate-900 hover:underline dark:text-white"
                  >
                    {item.productName}
                  </Link>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {item.validity} · order {item.orderId}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                  <p className="text-sm text-slate-700 dark:text-slate-200">
                    Expires on{' '}
                    <time dateTime={item.expiresAt} className="font-semibold">
                      {item.expires}
                    </time>
                  </p>
                  {item.renewTo ? (
                    <Link
                      to={item.renewTo}
                      className={buttonVariants({ variant: 'secondary', size: 'xs' })}
                    >
                      Renew<span className="sr-only"> {item.productName}</span>
                    </Link>
                  ) : null}
                </div>
              </li>
            ))}
          </CardList>
        ) : (
          <div className={emptyClass}>
            <p>
              No running subscriptions. Subscriptions you buy appear here with the date each one
              expires.
            </p>
            {browse}
          </div>
        )}
      </Section>

      <Section
        id="recent-orders"
        title="Recent orders"
        more={
          recentOrders.length > 0 ? (
            <Link to={href('/dashboard/orders')} className={linkClass}>
              {moreOrders ? 'View all orders' : 'Go to My Orders'}
            </Link>
          ) : null
        }
      >
        {recentOrders.length > 0 ? (
          <CustomerOrderList orders={recentOrders} />
        ) : (
          <div className={emptyClass}>
            <p>You have not ordered anything yet while signed in. Your orders will appear here.</p>
            {browse}
          </div>
        )}
      </Section>

      <Section id="recent-activity" title="Recent activity">
        {activity.length > 0 ? (
          <ol className="space-y-2">
            {activity.map((item) => (
              <li
                key={item.id}
                className="flex flex-wrap items-baseline justify-between gap-x-4 rounded-xl border border-slate-200 bg-white px-4 py-2.5 text-sm dark:border-slate-800 dark:bg-slate-900"
              >
                <Link
                  to={orderPath(item.orderId)}
                  className="font-medium text-slate-900 hover:underline dark:text-white"
                >
                  {item.text}
                </Link>
                <time
                  dateTime={item.createdAt}
                  className="text-xs text-slate-600 dark:text-slate-400"
                >
                  {item.at}
                </time>
              </li>
            ))}
          </ol>
        ) : (
          <p className={emptyClass}>
            Payments, deliveries, refunds and answers from the shop will be listed here.
          </p>
        )}
      </Section>

      <Section id="quick-actions" title="Quick actions">
        <div className="flex flex-wrap gap-3">
          <BrowseProductsLink to={href('/')} className={buttonVariants()} />
          {user.isAdmin ? (
            <Link to={href('/admin/dashboard')} className={buttonVariants({ variant: 'outline' })}>
              <Shield aria-hidden="true" className="size-4" />
              Admin dashboard
            </Link>
          ) : null}
        </div>
      </Section>

      <Card as="section" aria-labelledby="account">
        <h2 id="account" className="text-lg font-semibold text-slate-900 dark:text-white">
          Your account
        </h2>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Name</dt>
            <dd className="font-medium">{user.name}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Email</dt>
            <dd className="font-medium break-all">{user.email}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Member since</dt>
            <dd className="font-medium">{user.memberSince}</dd>
          </div>
        </dl>
        <p className="mt-4 text-sm">
          <Link
            to={href('/dashboard/settings')}
            className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
          >
            Change your password
          </Link>
        </p>
      </Card>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Dashboard')
}
