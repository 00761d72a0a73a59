import { getFormProps, type SubmissionResult } from '@conform-to/react'
import EyeOff from 'lucide-react/icons/eye-off'
import FlaskConical from 'lucide-react/icons/flask-conical'
import MessageSquareText from 'lucide-react/icons/message-square-text'
import { data, Form, href, Link, redirect, useNavigation } from 'react-router'
import { EmptyState } from '~/components/ui/empty-state'
import { FlashNotice } from '~/components/admin/flash-notice'
import { PageHeader } from '~/components/admin/page-header'
import { ListPagination } from '~/components/admin/pagination'
import { accountPageMeta } from '~/components/auth/messages'
import { Badge } from '~/components/admin/badge'
import { FormErrors, TextareaField, useAppForm } from '~/components/forms'
import { ReviewText } from '~/components/shop/product-reviews'
import { Pill } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { cn } from '~/components/ui/cn'
import { listReviewsForAdmin, type ReviewVisibility } from '~/data/review.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { flashHeaders, readFlash } from '~/lib/flash.server'
import { readFormData } from '~/lib/form-data.server'
import { adminOrderPath } from '~/lib/order-status'
import { clientIp } from '~/lib/rate-limit.server'
import { hideReviewSchema } from '~/lib/validation/review'
import { parseSubmission } from '~/lib/validation/submission'
import { requirePermission } from '~/services/permissions.server'
import { moderateReview, storefrontReviewScope } from '~/services/reviews.server'
import type { Route } from './+types/reviews'
import { adminUserPath } from '~/lib/paths'

/**
 * /admin/reviews (Can Create Products, like the rest of the catalogue): every buyer's review,
 * newest first, filtered by visible or hidden. An admin hides a review with a reason (the buyer
 * sees the reason on their order page) or shows it again; both are audit logged (review.hide,
 * review.unhide). Hidden reviews leave the product page and its rating, and so do reviews of a
 * refunded order and, once a live gateway is active, of a test order: those are listed here
 * with a mark saying so (docs/reviews.md). The reviewer's e-mail and account link are for admins
 * who may also manage users, the order's id and link for those who may manage orders; the others
 * see the reviewer's name only.
 */
const REVIEWS_PATH = href('/admin/reviews')
const FILTERS: Record<ReviewVisibility, string> = {
  all: 'All',
  visible: 'Shown',
  hidden: 'Hidden',
}

function listHref(show: ReviewVisibility, page = 1): string {
  const params = new URLSearchParams()
  if (show !== 'all') params.set('show', show)
  if (page > 1) params.set('page', String(page))
  const query = params.toString()
  return `${REVIEWS_PATH}${query ? `?${query}` : ''}`
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, 'canCreateProducts')
  const manageOrders = user.permissions.canManageOrders
  const manageUsers = user.permissions.canManageUsers
  const { db, env } = services()
  const url = new URL(request.url)
  const showParam = url.searchParams.get('show') ?? 'all'
  const show: ReviewVisibility = Object.hasOwn(FILTERS, showParam)
    ? (showParam as ReviewVisibility)
    : 'all'
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1
  const [settings, result, scope, { flash, headers }] = await Promise.all([
    getSiteSettings(db),
    listReviewsForAdmin(db, { visibility: show, page }),
    storefrontReviewScope(db, env),
    readFlash(request),
  ])
  const when = shopDateTime(settings.timezone)
  return data(
    {
      show,
      flash,
      page: { number: result.page, count: result.pageCount, total: result.total },
      reviews: result.items.map((review) => ({
        id: review.id,
        productTitle: review.productTitle,
        productHref: `/product/${encodeURIComponent(review.productSlug)}`,
        // Who wrote it and which order it is of, only for admins who may open those pages.
        order: manageOrders ? { id: review.orderId, href: adminOrderPath(review.orderId) } : null,
        reviewer: review.reviewerName,
        account: manageUsers
          ? { email: review.reviewerEmail, href: adminUserPath(review.userId) }
          : null,
        rating: review.rating,
        title: review.title,
        body: review.body,
        hidden: review.hidden,
        hiddenReason: review.hiddenReason,
        testOrder: review.testOrder,
        orderRefunded: review.orderRefunded,
        // Shown on the storefront: not hidden, and not kept off it by its order.
        inShop: !review.hidden && !review.orderRefunded && (scope.testOrders || !review.testOrder),
        helpfulCount: review.helpfulCount,
        written: when.format(new Date(review.createdAt)),
        edited: review.updatedAt !== review.createdAt,
      })),
    },
    { headers },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requirePermission(request, 'canCreateProducts')
  const form = await readFormData(request)
  const submission = parseSubmission(form, hideReviewSchema)
  const reviewId = String(form.get('reviewId') ?? '')
  if (submission.status !== 'success') {
    return data({ reviewId, result: submission.reply() }, { status: 400 })
  }
  const input = submission.value
  const result = await moderateReview(services().db, {
    actor: { id: user.id, name: user.name, email: user.email },
    ip: clientIp(context),
    reviewId: input.reviewId,
    reason: input.intent === 'hide' ? input.reason : null,
  })
  const back = safeListHref(form.get('back'))
  // Another admin got there first (hid, showed or the review is gone): the list is loaded again
  // with the review as it is now, and says so.
  if (!result.ok) {
    throw redirect(back, { status: 303, headers: await flashHeaders('error', result.error) })
  }
  throw redirect(back, {
    status: 303,
    headers: await flashHeaders(
      'success',
      input.intent === 'hide' ? 'Review hidden.' : 'Review shown again.',
    ),
  })
}

/** The list page the form came from (only this page's own addresses). */
function safeListHref(value: FormDataEntryValue | null): string {
  const text = typeof value === 'string' ? value : ''
  return text === REVIEWS_PATH || text.startsWith(`${REVIEWS_PATH}?`) ? text : REVIEWS_PATH
}

type ReviewRow = Route.ComponentProps['loaderData']['reviews'][number]

/** What the review's order keeps off the storefront: a refund, or a test payment (docs/reviews.md). */
function OrderMarks({ review }: { review: ReviewRow }) {
  return (
    <>
      {review.testOrder ? (
        <Badge
          tone="orange"
          icon={FlaskConical}
          title="Bought in test mode, where no real money moves: shown in the shop only while no live gateway is active"
        >
          Test order
        </Badge>
      ) : null}
      {review.orderRefunded ? (
        <Badge
          tone="violet"
          title="The order was refunded in full: the review is not shown in the shop and does not count towards the rating"
        >
          Order refunded
        </Badge>
      ) : null}
    </>
  )
}

/**
 * Show again, or Hide: a button that opens the reason the buyer will read (required, audit
 * logged) and the button that hides. It is a native disclosure (<details>), so it opens and
 * hides without JavaScript too; a reason refused by the server comes back with it open.
 */
function Moderation({
  review,
  back,
  lastResult,
}: {
  review: ReviewRow
  back: string
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const [form, fields] = useAppForm({
    id: `moderate-${review.id}`,
    schema: hideReviewSchema,
    lastResult,
  })
  const navigation = useNavigation()
  const busy =
    navigation.state === 'submitting' && navigation.formData?.get('reviewId') === review.id
  const hidden = (
    <>
      <input type="hidden" name="reviewId" value={review.id} />
      <input type="hidden" name="back" value={back} />
      <FormErrors id={form.errorId} errors={form.errors} />
    </>
  )
  if (review.hidden) {
    return (
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3">
        {hidden}
        <input type="hidden" name="intent" value="unhide" />
        <Button type="submit" variant="outline" size="row" pending={busy} pendingLabel="Saving…">
          Show again
        </Button>
      </Form>
    )
  }
  const refused = Boolean(lastResult && (form.errors?.length || fields.reason.errors?.length))
  return (
    <details className="group mt-4" open={refused || undefined}>
      <summary
        className={cn(
          buttonVariants({ variant: 'dangerOutline', size: 'row' }),
          'cursor-pointer list-none group-open:bg-rose-50 dark:group-open:bg-rose-950 [&::-webkit-details-marker]:hidden',
        )}
      >
        <EyeOff aria-hidden="true" className="size-4" />
        Hide…
      </summary>
      <Form
        method="post"
        {...getFormProps(form)}
        className="mt-3 space-y-3 rounded-xl border border-slate-200 p-3 sm:p-4 dark:border-slate-700"
      >
        {hidden}
        <input type="hidden" name="intent" value="hide" />
        <TextareaField
          label="Reason for hiding"
          field={fields.reason}
          rows={2}
          surface="admin"
          hint="The buyer sees it on their order page; the audit log keeps it."
        />
        <Button type="submit" variant="danger" size="row" pending={busy} pendingLabel="Hiding…">
          Hide review
        </Button>
      </Form>
    </details>
  )
}

export default function AdminReviews({ loaderData, actionData }: Route.ComponentProps) {
  const { show, flash, page, reviews } = loaderData
  const back = listHref(show, page.number)
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Reviews"
        description="Reviews written by buyers of delivered orders. Hide one that breaks the shop's rules; it leaves the product page and its rating."
      />
      <FlashNotice flash={flash} />
      <nav aria-label="Filter reviews" className="flex flex-wrap gap-2 text-sm">
        {(Object.keys(FILTERS) as ReviewVisibility[]).map((value) => (
          <Link
            key={value}
            to={listHref(value)}
            aria-current={show === value ? 'page' : undefined}
            className="rounded-full border border-slate-300 px-3 py-1.5 font-semibold text-slate-700 hover:bg-slate-50 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-[current=page]:bg-brand-950 dark:aria-[current=page]:text-brand-100"
          >
            {FILTERS[value]}
          </Link>
        ))}
      </nav>
      <section
        aria-label="Reviews"
        className="rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        {reviews.length === 0 ? (
          <EmptyState icon={MessageSquareText} title="No reviews here">
            {show === 'hidden'
              ? 'No review is hidden.'
              : 'Buyers review a product from their order page once it is delivered.'}
          </EmptyState>
        ) : (
          <ol className="divide-y divide-slate-200 dark:divide-slate-800">
            {reviews.map((review) => (
              <li key={review.id} className="p-4 sm:p-6">
                <article aria-label={`Review of ${review.productTitle} by ${review.reviewer}`}>
                  <div className="flex flex-wrap items-center gap-2">
                    <Link
                      to={review.productHref}
                      className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
                    >
                      {review.productTitle}
                    </Link>
                    <Pill tone={review.hidden ? 'warning' : review.inShop ? 'success' : 'neutral'}>
                      {review.hidden ? 'Hidden' : review.inShop ? 'Shown' : 'Not shown'}
                    </Pill>
                    <OrderMarks review={review} />
                  </div>
                  <ReviewText review={review} className="mt-2" bodyClassName="text-sm" />
                  <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
                    By{' '}
                    {review.account ? (
                      <>
                        <Link to={review.account.href} className="font-semibold hover:underline">
                          {review.reviewer}
                        </Link>{' '}
                        ({review.account.email})
                      </>
                    ) : (
                      <span className="font-semibold">{review.reviewer}</span>
                    )}
                    {review.order ? (
                      <>
                        {' '}
                        · order{' '}
                        <Link to={review.order.href} className="font-mono hover:underline">
                          {review.order.id}
                        </Link>
                      </>
                    ) : null}{' '}
                    · {review.written}
                    {review.edited ? ' · edited' : ''} · {review.helpfulCount} helpful
                  </p>
                  {review.hidden && review.hiddenReason ? (
                    <p className="mt-2 text-sm text-amber-900 dark:text-amber-200">
                      Hidden because: {review.hiddenReason}
                    </p>
                  ) : null}
                  <Moderation
                    review={review}
                    back={back}
                    lastResult={actionData?.reviewId === review.id ? actionData.result : undefined}
                  />
                </article>
              </li>
            ))}
          </ol>
        )}
        <ListPagination page={page.number} pageCount={page.count} href={(n) => listHref(show, n)} />
      </section>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Reviews')
}
