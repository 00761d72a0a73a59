import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import {
  pageText,
  postForRedirect,
  redirectCookie,
  renderPage,
  serveTestDb,
} from '../../../../tests/helpers/route-render'
import {
  makeAdmin,
  makeCustomer,
  makeOrder,
  makePaidOrder,
  makeStockedProduct,
} from '../../../../tests/factories'
import { listOrderEvents } from '~/data/order.server'
import { insertOrderReport } from '~/data/order-report.server'
import { newRefundId } from '~/data/refund.server'
import { importStock } from '~/services/fulfilment.server'
import { deleteUserAccount } from '~/data/user.server'
import { NO_LIVE_ITEM, refundAmountTooMuch } from '~/lib/validation/order-actions'
import { ORDER_ADMIN_MESSAGES, replaceFromStock } from '~/services/order-actions.server'
import { requestGatewayRefund } from '~/services/payment/refunds.server'
import AdminOrder, { action, loader } from './detail'

/**
 * /admin/orders/{orderId} as the server renders it, which is what a browser without JavaScript
 * gets: the recovery actions' confirmation step (ConfirmPanel) says what is about to happen, the
 * page says what it does not offer and why, and a deleted account's order offers no mail to the
 * buyer. Paytm here is the built-in simulator (no PAYTM_MID): it takes test payments only.
 * Signing in is not what is tested here: the permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const APP_SECRET = 'x'.repeat(32)
const t = fileTestDb()
serveTestDb(t, { env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET, ADMIN_EMAILS: [] } })
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageOrders: true } }
})

const route = {
  id: 'routes/admin/orders/detail',
  path: '/admin/orders/:orderId',
  Component: AdminOrder,
  loader,
  action,
}

/** The order's page (after a post of `form` to it, if given), rendered on the server. */
async function render(orderId: string, form?: Record<string, string>, cookie?: string) {
  const { html } = await renderPage(
    route,
    new Request(`http://shop.test/admin/orders/${orderId}`, {
      ...(form ? { method: 'POST', body: new URLSearchParams(form) } : {}),
      ...(cookie ? { headers: { Cookie: cookie } } : {}),
    }),
    { clientIp: '203.0.113.9' },
  )
  return { html, text: pageText(html) }
}

/** A post the action answers with a redirect (a done or refused action): its Response. */
const postRedirected = (orderId: string, form: Record<string, string>) =>
  postForRedirect(action, `http://shop.test/admin/orders/${orderId}`, form, { orderId })

const product = () =>
  makeStockedProduct(t.db, APP_SECRET, [`KEY-${newRefundId()}`], { price: 49_900 })
/** A test-mode order paid through the simulator, delivered a test item. */
async function testOrder() {
  const stocked = await makeStockedProduct(t.db, APP_SECRET, [], { price: 49_900 })
  await importStock(t.db, {
    productId: stocked.id,
    content: `TEST-KEY-${newRefundId()}`,
    format: 'lines',
    appSecret: APP_SECRET,
    testItems: true,
  })
  return makePaidOrder(t.db, stocked.id, { testMode: true })
}
const refundKey = () => newRefundId()

describe(`an order's page in the back office (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it("asks about a refund with the amount posted and what is left, in a heading under the card's", async () => {
    const order = await testOrder()
    const key = refundKey()
    const { html, text } = await render(order.id, {
      intent: 'gateway-refund',
      refundKey: key,
      amount: '249',
      reason: '',
    })
    expect(text).toContain(
      'Refund ₹249 to asha@example.in through Paytm? That is part of the ₹499 left to refund. This cannot be undone.',
    )
    expect(text).toContain('Refund ₹249')
    // The card's heading is an h3; the question's is one level below.
    expect(html).toMatch(/<h4 id="[^"]*-confirm"[^>]*>Refund through the gateway\?<\/h4>/)

    const full = await render(order.id, { intent: 'gateway-refund', refundKey: key, amount: '499' })
    expect(full.text).toContain(
      'Refund ₹499 to asha@example.in through Paytm? That is all that is left to refund.',
    )
  })

  it('refuses more than is left to refund with the words the form uses before asking', async () => {
    const order = await testOrder()
    const { text } = await render(order.id, {
      intent: 'gateway-refund',
      refundKey: refundKey(),
      amount: '500',
      confirmed: 'yes',
    })
    expect(text).toContain(refundAmountTooMuch(49_900))
  })

  it('says a test order brought no money when details or an item go to its buyer', async () => {
    const order = await testOrder()
    const { text } = await render(order.id, {
      intent: 'deliver',
      secret: 'Email: a@b.in\nPassword: x',
      replacing: 'yes',
    })
    expect(text).toContain('Replace the delivered details?')
    expect(text).toContain('Test order: no money was received.')

    const live = await makePaidOrder(t.db, (await product()).id)
    const { text: liveText } = await render(live.id, {
      intent: 'replace',
      reason: '',
    })
    expect(liveText).toContain('Replace the item from stock?')
    expect(liveText).not.toContain('Test order')
  })

  it('says why a live order cannot be refunded or confirmed through a gateway set up for test payments', async () => {
    const live = await makePaidOrder(t.db, (await product()).id)
    const { text, html } = await render(live.id)
    expect(text).toContain(
      'Refund is not offered: Paytm is set up for test payments now, so it cannot refund this live order.',
    )
    expect(html).not.toContain('id="action-gateway-refund"')
    // A test order, which the simulator does refund, is not told so.
    expect((await render((await testOrder()).id)).text).not.toContain('Refund is not offered')

    const pending = await makeOrder(t.db, (await product()).id)
    expect((await render(pending.id)).text).toContain(
      'Paytm is set up for test payments now, so it cannot confirm this live order.',
    )
  })

  it('marks the refunds list as a live region while a refund waits for the gateway', async () => {
    const order = await testOrder()
    const requested = await requestGatewayRefund(t.db, {
      refundId: refundKey(),
      orderId: order.id,
      amountPaise: 10_000,
      reason: '',
      actor: 'user:admin',
    })
    expect(requested.ok).toBe(true)
    const { html } = await render(order.id)
    expect(html).toMatch(/<ul aria-live="polite"[^>]*>.*?₹100.*?Sending/s)
  })

  it('posts the item a replacement replaces, so a second post of the same form replaces nothing', async () => {
    const stocked = await makeStockedProduct(t.db, APP_SECRET, ['KEY-A', 'KEY-B', 'KEY-C'])
    const order = await makePaidOrder(t.db, stocked.id)
    const items = () =>
      t.db
        .selectFrom('stockItem')
        .select(['id', 'status'])
        .where('orderId', '=', order.id)
        .orderBy('deliveredAt')
        .execute()
    const [first] = await items()
    const { html } = await render(order.id)
    // Both forms that replace the item carry its id.
    const posted = [...html.matchAll(/name="currentItemId" value="([^"]*)"/g)].map((m) => m[1])
    expect(posted).toEqual([first!.id, first!.id])

    const form = { intent: 'replace', reason: '', currentItemId: first!.id, confirmed: 'yes' }
    await postRedirected(order.id, form)
    // The same form again (a second click, another tab): refused, and says why.
    const again = await postRedirected(order.id, form)
    const cookie = redirectCookie(again)
    expect((await render(order.id, undefined, cookie)).text).toContain(
      ORDER_ADMIN_MESSAGES.alreadyReplaced,
    )
    const after = await items()
    expect(after.map((item) => item.status)).toEqual(['revoked', 'delivered'])
  })

  it("refuses a replacement from a page that showed no live item once another admin's is live, long after it too", async () => {
    /** The hidden fields of the page's form in `part` (a card, a confirmation step). */
    const hiddenIn = (part: string) =>
      Object.fromEntries(
        [...part.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
          m[1]!,
          m[2]!,
        ]),
      )
    const typed = { replace: { reason: '' }, deliver: { secret: 'Email: new@example.in' } }
    /**
     * A delivered order whose item was taken back, so that its page shows no live item; the
     * replacing forms as that page posts them, confirmed in the dialog (with JavaScript) and
     * on the page's confirmation step (without).
     */
    async function pageWithoutLiveItem() {
      // Each call's own keys: another product's key is not stocked again (docs/delivery.md).
      const round = newRefundId()
      const stocked = await makeStockedProduct(
        t.db,
        APP_SECRET,
        [1, 2, 3].map((n) => `KEY-N${n}-${round}`),
      )
      const order = await makePaidOrder(t.db, stocked.id)
      await t.db
        .updateTable('stockItem')
        .set({
          status: 'revoked',
          revokedReason: 'Taken back',
          revokedAt: new Date().toISOString(),
        })
        .where('orderId', '=', order.id)
        .execute()
      const { html } = await render(order.id)
      const posts: Record<string, string>[] = []
      for (const intent of ['replace', 'deliver'] as const) {
        const card = html.split(`id="action-${intent}"`)[1]!.split('</section>')[0]!
        const form = { ...hiddenIn(card), ...typed[intent] }
        expect(form).toMatchObject({ intent, currentItemId: NO_LIVE_ITEM })
        const asked = await render(order.id, form)
        const step = asked.html.slice(asked.html.indexOf('-confirm"')).split('</form>')[0]!
        posts.push({ ...form, confirmed: 'yes' }, hiddenIn(step))
      }
      expect(posts[3]).toMatchObject({ replacing: 'yes', currentItemId: NO_LIVE_ITEM })
      const live = async () =>
        (
          await t.db
            .selectFrom('stockItem')
            .select('id')
            .where('orderId', '=', order.id)
            .where('status', '=', 'delivered')
            .execute()
        ).map((item) => item.id)
      return { order, posts, live }
    }
    const messageAfter = async (orderId: string, form: Record<string, string>) =>
      (await render(orderId, undefined, redirectCookie(await postRedirected(orderId, form)))).text

    // Nothing changed since the page was shown: each form replaces.
    for (const index of [0, 1, 2, 3]) {
      const { order, posts, live } = await pageWithoutLiveItem()
      expect(await messageAfter(order.id, posts[index]!)).toMatch(
        /The item was replaced from stock|The new details replace the old ones/,
      )
      expect(await live()).toHaveLength(1)
    }

    // Another admin replaced the item meanwhile, longer ago than the repeat window: every form
    // of the old page is refused and says why, and that replacement stays live.
    const { order, posts, live } = await pageWithoutLiveItem()
    const earlier = new Date(Date.now() - 5 * 60_000)
    expect(
      (await replaceFromStock(t.db, { orderId: order.id, actor: 'user:other', now: earlier })).ok,
    ).toBe(true)
    const replacement = await live()
    expect(replacement).toHaveLength(1)
    for (const form of posts)
      expect(await messageAfter(order.id, form)).toContain(ORDER_ADMIN_MESSAGES.alreadyReplaced)
    expect(await live()).toEqual(replacement)
  })

  it("names a deleted account's order as such and offers no mail to its buyer", async () => {
    const buyer = await makeCustomer(t.db, { name: 'Ravi Kumar' })
    const order = await makePaidOrder(t.db, (await product()).id, {
      userId: buyer.id,
      customer: { name: 'Ravi Kumar', email: buyer.email, phone: '9876543210' },
    })
    expect(order.status).toBe('delivered')
    await insertOrderReport(
      t.db,
      { orderId: order.id, reason: 'The key does not work at all', reportedBy: `user:${buyer.id}` },
      new Date(),
      async () => undefined,
    )
    await deleteUserAccount(t.db, buyer.id)

    const { html, text } = await render(order.id)
    expect(text).toContain('Deleted account')
    expect(text).not.toContain('Guest checkout')
    expect(html).not.toContain('href="tel:')
    expect(html).not.toContain('href="mailto:')
    expect(html).not.toContain('id="action-resend"')
    expect(html).not.toContain('id="action-reply"')
    expect(text).toContain(
      'No e-mail can be sent to this buyer (the account was deleted and its address removed), so Resend delivery e-mail and Reply to the report are not offered.',
    )

    // The questions of the actions still offered name no address that mail cannot reach.
    const replace = await render(order.id, { intent: 'replace', reason: '' })
    expect(replace.text).toContain(
      'The delivered item is revoked and the next one in stock goes to the buyer.',
    )
    const details = await render(order.id, {
      intent: 'deliver',
      secret: 'Email: a@b.in',
      replacing: 'yes',
    })
    expect(details.text).toContain(
      'The current item stops being shown and no e-mail can reach the buyer (the account was deleted).',
    )
    expect(details.text).not.toContain('@deleted.invalid is e-mailed')

    // A form left open from before is refused, and says why; nothing is recorded as sent.
    const refused = await postRedirected(order.id, { intent: 'resend', confirmed: 'yes' })
    const cookie = redirectCookie(refused)
    expect((await render(order.id, undefined, cookie)).text).toContain(
      'No e-mail can be sent to this buyer: the account was deleted and its address removed. Nothing was changed.',
    )
    await postRedirected(order.id, { intent: 'reply', reply: 'Try again', confirmed: 'yes' })
    const types = (await listOrderEvents(t.db, order.id)).map((event) => event.type)
    expect(types).not.toContain('mail_resent')
    expect(types).not.toContain('report_resolved')
  })
})
