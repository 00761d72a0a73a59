import { data, href, Link, redirect } from 'react-router'
import { modalHref } from '~/components/auth/auth-modals'
import { accountPageMeta } from '~/components/auth/messages'
import { buttonVariants } from '~/components/ui/button-variants'
import { addHelpfulVote } from '~/data/review.server'
import { services } from '~/lib/app-context.server'
import { readFormData, rendersPostAnswer } from '~/lib/form-data.server'
import { hitPolicy, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { safeRedirect } from '~/lib/safe-redirect'
import { getUser } from '~/services/auth.server'
import { storefrontReviewScope } from '~/services/reviews.server'
import type { Route } from './+types/review-helpful'

/**
 * POST /reviews/{reviewId}/helpful: a signed-in visitor finds someone else's review helpful
 * (once per review; never their own). A plain form on the product page, so it works without
 * JavaScript; the answer is a redirect back to the review. Signed-out visitors are sent to sign
 * in over the page they were on.
 */
const REVIEW_GONE = 'That review is no longer shown.'
const NOT_COUNTED = 'Your vote was not counted'

/** Only the answer to a vote that was not counted is a page; a plain visit is 405. */
export async function loader({ request }: Route.LoaderArgs) {
  if (rendersPostAnswer(request)) return null
  throw data('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await readFormData(request)
  const back = safeRedirect(form.get('redirectTo'), href('/'))
  const user = await getUser(request)
  if (!user) {
    const url = new URL(back, 'http://local.invalid')
    throw redirect(modalHref(url.pathname, url.search, 'login', back), 303)
  }
  const reviewId = params.reviewId
  const { db, env } = services()
  const hit = await hitPolicy(db, 'reviewVoteUser', user.id)
  if (!hit.allowed)
    return data(
      { error: tooManyAttemptsMessage(hit.retryAfterSeconds) },
      { status: 429, headers: { 'Retry-After': String(Math.ceil(hit.retryAfterSeconds)) } },
    )
  // Only a review buyers are shown takes votes (docs/reviews.md).
  const vote =
    reviewId.length <= 64
      ? await addHelpfulVote(db, reviewId, user.id, await storefrontReviewScope(db, env))
      : null
  if (!vote || vote.result === 'not-found') return data({ error: REVIEW_GONE }, { status: 404 })
  // Voting on one's own review is refused (the page offers no button for it); nothing changes.
  if (vote.result === 'own')
    return data({ error: 'You cannot vote on your own review.' }, { status: 403 })
  throw redirect(`${back.split('#')[0]}#review-${encodeURIComponent(reviewId)}`, 303)
}

/** Shown only when a vote could not be counted. */
export default function ReviewHelpful({ actionData }: Route.ComponentProps) {
  return (
    <main className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-6 py-24 text-center">
      <h1 className="text-2xl font-extrabold text-slate-950 dark:text-white">{NOT_COUNTED}</h1>
      <p className="text-slate-700 dark:text-slate-200">{actionData?.error ?? REVIEW_GONE}</p>
      <Link to={href('/')} className={buttonVariants({ size: 'wide' })}>
        Go Back Home
      </Link>
    </main>
  )
}

/** A signed-in visitor's answer page: named like the account pages, kept out of search results. */
export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, NOT_COUNTED)
}
