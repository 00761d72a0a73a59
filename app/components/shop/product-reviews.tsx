import { Form, href, Link } from 'react-router'
import { buttonVariants } from '~/components/ui/button-variants'
import { StaticMarkup } from '~/components/ui/static-markup'

/**
 * The product page's reviews: the rating, how many buyers gave each number of stars, and one
 * page of reviews (newest or most helpful first), paged with plain links (?reviews=2) and a
 * plain form for "Helpful", so all of it works without JavaScript. Stars are text: the page has
 * a weight budget (tests/e2e/page-weight.spec.ts).
 */
export interface ReviewView {
  id: string
  reviewer: string
  rating: number
  title: string
  body: string
  date: string
  edited: boolean
  helpfulCount: number
  own: boolean
  voted: boolean
}

export interface ReviewsView {
  average: number
  count: number
  distribution: Array<{ stars: number; count: number }>
  items: ReviewView[]
  sort: 'newest' | 'helpful'
  page: number
  pageCount: number
  /** The delivered order of the signed-in viewer that can still be reviewed. */
  writeHref: string | null
  signedIn: boolean
}

export function Stars({ rating, className = '' }: { rating: number; className?: string }) {
  const full = Math.round(rating)
  return (
    <span className={`tracking-tight ${className}`} aria-hidden="true">
      <span className="text-amber-500">{'★'.repeat(full)}</span>
      <span className="text-slate-300 dark:text-slate-600">{'★'.repeat(5 - full)}</span>
    </span>
  )
}

/**
 * A review's own words as its writer (on their order page) and the back office see them: the
 * stars, read out as "Rated N out of 5.", the title, and the text with its line breaks.
 * `className` places the rating line; `bodyClassName` sizes the text where the page around it
 * does not.
 */
export function ReviewText({
  review,
  className,
  bodyClassName,
}: {
  review: { rating: number; title: string | null; body: string }
  className?: string
  bodyClassName?: string
}) {
  return (
    <>
      <p className={className}>
        <Stars rating={review.rating} />
        <span className="sr-only">Rated {review.rating} out of 5.</span>{' '}
        {review.title ? (
          <span className="font-semibold text-slate-950 dark:text-white">{review.title}</span>
        ) : null}
      </p>
      <p
        className={`mt-1 whitespace-pre-line break-words text-slate-700 dark:text-slate-200 ${bodyClassName ?? ''}`}
      >
        {review.body}
      </p>
    </>
  )
}

const countText = new Intl.NumberFormat('en-IN')

export function reviewsLabel(count: number): string {
  return `${countText.format(count)} ${count === 1 ? 'review' : 'reviews'}`
}

function pageHref(path: string, sort: 'newest' | 'helpful', page: number): string {
  const params = new URLSearchParams()
  if (sort === 'helpful') params.set('reviewSort', 'helpful')
  if (page > 1) params.set('reviews', String(page))
  const query = params.toString()
  return `${path}${query ? `?${query}` : ''}#reviews`
}

export function ProductReviews({ reviews, path }: { reviews: ReviewsView; path: string }) {
  const { average, count, distribution, items, sort, page, pageCount } = reviews
  const here = pageHref(path, sort, page)
  const sortLink = (value: 'newest' | 'helpful', label: string) => (
    <Link
      to={pageHref(path, value, 1)}
      preventScrollReset
      aria-current={sort === value ? 'true' : undefined}
      className="rounded-full border border-slate-300 px-3 py-1.5 font-semibold text-slate-700 hover:bg-slate-50 aria-[current=true]:border-brand-600 aria-[current=true]:bg-brand-50 aria-[current=true]:text-brand-800 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-[current=true]:bg-brand-950 dark:aria-[current=true]:text-brand-100"
    >
      {label}
    </Link>
  )
  return (
    <section
      id="reviews"
      aria-labelledby="reviews-heading"
      className="mt-12 scroll-mt-24 rounded-3xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="reviews-heading" className="text-2xl font-bold text-slate-950 dark:text-white">
          Customer reviews
        </h2>
        {reviews.writeHref ? (
          <Link to={reviews.writeHref} className={buttonVariants({ size: 'sm' })}>
            Write a review
          </Link>
        ) : null}
      </div>

      {count === 0 ? (
        <p className="mt-3 text-slate-700 dark:text-slate-200">
          No reviews yet. Reviews are written by buyers once their order has been delivered.
        </p>
      ) : (
        <div className="mt-5 grid gap-8 md:grid-cols-[16rem_1fr]">
          <StaticMarkup as="div" name="review-summary" deps={[average, count, distribution]}>
            <p className="flex items-baseline gap-2">
              <span className="text-4xl font-extrabold text-slate-950 dark:text-white">
                {average.toFixed(1)}
              </span>
              <span className="text-slate-700 dark:text-slate-200">out of 5</span>
            </p>
            <Stars rating={average} className="text-xl" />
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {reviewsLabel(count)} from verified buyers
            </p>
            <ul aria-label="Ratings by stars" className="mt-4 space-y-1.5 text-sm">
              {distribution.map((row) => {
                const percent = count ? Math.round((row.count / count) * 100) : 0
                return (
                  <li
                    key={row.stars}
                    className="grid grid-cols-[3.25rem_1fr_2.5rem] items-center gap-2"
                  >
                    <span className="text-slate-700 dark:text-slate-200">
                      {row.stars} star{row.stars === 1 ? '' : 's'}
                    </span>
                    <span
                      aria-hidden="true"
                      className="h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
                    >
                      <span
                        className="block h-full bg-amber-500"
                        style={{ width: `${percent}%` }}
                      />
                    </span>
                    <span className="text-right text-slate-600 dark:text-slate-300">
                      {countText.format(row.count)}
                      <span className="sr-only"> {row.count === 1 ? 'review' : 'reviews'}</span>
                    </span>
                  </li>
                )
              })}
            </ul>
          </StaticMarkup>

          <div>
            <nav aria-label="Sort reviews" className="flex flex-wrap gap-2 text-sm">
              {sortLink('newest', 'Newest')}
              {sortLink('helpful', 'Most helpful')}
            </nav>
            {/* The viewer's own marks (own, voted) are part of the items, so of the key. */}
            <StaticMarkup
              as="ol"
              name="review-list"
              deps={[items, here]}
              className="mt-4 divide-y divide-slate-200 dark:divide-slate-800"
            >
              {items.map((review) => (
                <li key={review.id} id={`review-${review.id}`} className="scroll-mt-24 py-5">
                  <article aria-label={`Review by ${review.reviewer}`}>
                    <p className="flex flex-wrap items-center gap-x-2">
                      <Stars rating={review.rating} />
                      <span className="sr-only">Rated {review.rating} out of 5.</span>
                      {review.title ? (
                        <span className="font-bold text-slate-950 dark:text-white">
                          {review.title}
                        </span>
                      ) : null}
                    </p>
                    <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                      <span className="font-semibold text-slate-800 dark:text-slate-100">
                        {review.reviewer}
                      </span>{' '}
                      · Verified purchase · {review.date}
                      {review.edited ? ' · Edited' : ''}
                    </p>
                    <p className="mt-2 whitespace-pre-line break-words text-slate-700 dark:text-slate-200">
                      {review.body}
                    </p>
                    <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
                      <span className="text-slate-600 dark:text-slate-300">
                        {review.helpfulCount === 0
                          ? 'No helpful votes yet'
                          : `${countText.format(review.helpfulCount)} ${review.helpfulCount === 1 ? 'person' : 'people'} found this helpful`}
                      </span>
                      {review.own ? (
                        <span className="text-slate-600 dark:text-slate-300">Your review</span>
                      ) : review.voted ? (
                        <span className="font-semibold text-emerald-700 dark:text-emerald-400">
                          You found this helpful
                        </span>
                      ) : (
                        <Form
                          method="post"
                          action={href('/reviews/:reviewId/helpful', {
                            reviewId: encodeURIComponent(review.id),
                          })}
                          preventScrollReset
                        >
                          <input type="hidden" name="redirectTo" value={here} />
                          <button
                            type="submit"
                            className={buttonVariants({ variant: 'outline', size: 'xs' })}
                          >
                            Helpful<span className="sr-only">: review by {review.reviewer}</span>
                          </button>
                        </Form>
                      )}
                    </div>
                  </article>
                </li>
              ))}
            </StaticMarkup>
            {pageCount > 1 ? (
              <nav
                aria-label="Review pages"
                className="mt-2 flex items-center justify-between gap-3 text-sm"
              >
                {page > 1 ? (
                  <Link
                    to={pageHref(path, sort, page - 1)}
                    preventScrollReset
                    className={buttonVariants({ variant: 'outline', size: 'sm' })}
                  >
                    Previous reviews
                  </Link>
                ) : (
                  <span />
                )}
                <span className="text-slate-600 dark:text-slate-300">
                  Page {page} of {pageCount}
                </span>
                {page < pageCount ? (
                  <Link
                    to={pageHref(path, sort, page + 1)}
                    preventScrollReset
                    className={buttonVariants({ variant: 'outline', size: 'sm' })}
                  >
                    More reviews
                  </Link>
                ) : (
                  <span />
                )}
              </nav>
            ) : null}
          </div>
        </div>
      )}
    </section>
  )
}
