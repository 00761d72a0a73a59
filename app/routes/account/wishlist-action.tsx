import { data, href, Link, redirect } from 'react-router'
import { buttonVariants } from '~/components/ui/button-variants'
import { modalHref } from '~/components/auth/auth-modals'
import { accountPageMeta } from '~/components/auth/messages'
import { addToWishlist, removeFromWishlist, setRestockNotice } from '~/data/wishlist.server'
import { services } from '~/lib/app-context.server'
import { oneTimeNote } from '~/lib/flash.server'
import { readFormData, rendersPostAnswer } from '~/lib/form-data.server'
import { hitPolicy, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { safeRedirect } from '~/lib/safe-redirect'
import { parseSubmission } from '~/lib/validation/submission'
import { WISHLIST_MESSAGES, wishlistSchema } from '~/lib/validation/wishlist'
import { getUser, requireUser } from '~/services/auth.server'
import { testItemsOnSale } from '~/services/payment/offered-gateways.server'
import type { Route } from './+types/wishlist-action'

/**
 * /wishlist: every change to a wishlist. The heart posts here (a plain form without
 * JavaScript, a fetcher with it; a fetcher sends `fetch=1` and gets data instead of a redirect).
 * A signed-out visitor is sent to sign in over the page they were on, and the sign-in brings them
 * to `GET /wishlist?add=<id>&redirectTo=<page>`, which adds the product and returns them there.
 */
export const WISHLIST_PAGE = href('/dashboard/wishlist')

export interface WishlistAnswer {
  ok: boolean
  productId: string
  wished?: boolean
  message?: string
}

/** Where a signed-out visitor goes: the same page with the login modal, then back with the item added. */
export function signInToWish(productId: string | null, back: string): string {
  const url = new URL(back, 'http://local.invalid')
  const resume = productId
    ? `${href('/wishlist')}?add=${encodeURIComponent(productId)}&redirectTo=${encodeURIComponent(back)}`
    : back
  return modalHref(url.pathname, url.search, 'login', resume)
}

/**
 * The product a signed-out visitor's heart asked for, kept in a signed cookie until they are
 * back from signing in (by password, a mailed link or Google, half an hour at most; for every
 * path, as the way back may load `/wishlist.data` rather than `/wishlist`). The GET
 * that adds it is honoured only for that product: a link on another site cannot fill someone's
 * wishlist, and the way back from Google's page (a navigation from another site) still adds it.
 */
const pendingWish = oneTimeNote(
  'kb_wish',
  (value: unknown): value is string => typeof value === 'string' && value.length <= 64,
  { path: '/', maxAgeSeconds: 30 * 60 },
)

export async function loader({ request }: Route.LoaderArgs) {
  // The page answering a change that could not be made (the action's data) stays on screen.
  if (rendersPostAnswer(request)) return null
  const user = await requireUser(request)
  const url = new URL(request.url)
  const back = safeRedirect(url.searchParams.get('redirectTo'), WISHLIST_PAGE)
  const productId = url.searchParams.get('add')?.trim()
  const { note: asked, headers } = await pendingWish.read(request)
  if (productId && productId === asked) {
    const { db, env } = services()
    const hit = await hitPolicy(db, 'wishlistUser', user.id)
    if (hit.allowed)
      await addToWishlist(db, user.id, productId, { testItems: await testItemsOnSale(db, env) })
  }
  throw redirect(back, { headers })
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request)
  const viaFetch = form.get('fetch') === '1'
  const submission = parseSubmission(form, wishlistSchema)
  if (submission.status !== 'success') {
    const answer: WishlistAnswer = {
      ok: false,
      productId: String(form.get('productId') ?? ''),
      message: WISHLIST_MESSAGES.badProduct,
    }
    return data(answer, { status: 400 })
  }
  const input = submission.value
  const back = safeRedirect(input.redirectTo, WISHLIST_PAGE)
  const user = await getUser(request)
  if (!user) {
    // Only adding makes sense before signing in; the product is added once they are back.
    const adding = input.intent === 'add' ? input.productId : null
    throw redirect(signInToWish(adding, back), {
      status: 303,
      headers: adding ? await pendingWish.headers(adding) : {},
    })
  }
  const { db, env } = services()
  const hit = await hitPolicy(db, 'wishlistUser', user.id)
  if (!hit.allowed) {
    const answer: WishlistAnswer = {
      ok: false,
      productId: input.productId,
      message: tooManyAttemptsMessage(hit.retryAfterSeconds),
    }
    return data(answer, {
      status: 429,
      headers: { 'Retry-After': String(Math.ceil(hit.retryAfterSeconds)) },
    })
  }
  let answer: WishlistAnswer
  if (input.intent === 'add') {
    const result = await addToWishlist(db, user.id, input.productId, {
      testItems: await testItemsOnSale(db, env),
    })
    answer =
      result === 'no-product'
        ? {
            ok: false,
            productId: input.productId,
            wished: false,
            message: WISHLIST_MESSAGES.noProduct,
          }
        : { ok: true, productId: input.productId, wished: true }
  } else if (input.intent === 'remove') {
    await removeFromWishlist(db, user.id, input.productId)
    answer = { ok: true, productId: input.productId, wished: false }
  } else {
    const changed = await setRestockNotice(db, user.id, input.productId, input.on === 'yes')
    answer = changed
      ? { ok: true, productId: input.productId, wished: true }
      : {
          ok: false,
          productId: input.productId,
          wished: false,
          message: WISHLIST_MESSAGES.noProduct,
        }
  }
  if (viaFetch) return data(answer, { status: answer.ok ? 200 : 404 })
  if (!answer.ok) return data(answer, { status: 404 })
  throw redirect(back, 303)
}

/** Shown only without JavaScript when a change could not be made (a fetcher reads the data). */
export default function WishlistAction({ actionData }: Route.ComponentProps) {
  return (
    <main className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center gap-4 px-6 py-24 text-center">
      <h1 className="text-2xl font-bold text-slate-950 dark:text-white">Wishlist not changed</h1>
      <p role="alert" className="text-slate-700 dark:text-slate-200">
        {actionData?.message ?? WISHLIST_MESSAGES.badProduct}
      </p>
      <Link to={WISHLIST_PAGE} className={buttonVariants()}>
        Go to my wishlist
      </Link>
    </main>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Wishlist not changed')
}
