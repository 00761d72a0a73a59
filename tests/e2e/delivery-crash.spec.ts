import { RECONCILE_JOB } from '~/services/payment/paytm-flow.server'
import { startApp } from '../helpers/app'
import { expect, test } from '../helpers/fixtures'
import {
  countBy,
  deliveryState,
  payAtGatewayTenAtATime,
  postCallback,
  SHOP_ENGINES,
  startShop,
  stockedProduct,
  type Shop,
} from '../helpers/shop'
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp'

/**
 * The shop process is killed with SIGKILL while 30 paid callbacks are being processed.
 * After a restart on the same data, every order the gateway confirmed is paid and delivered
 * exactly once (the callbacks that never committed are picked up by reconciliation, which asks
 * the gateway's status API), and every queued delivery mail reaches the SMTP server (a job held
 * by the dead process is taken again when its lease runs out: JOB_LEASE_SECONDS=10 here).
 */
const ORDERS = 30

for (const engine of SHOP_ENGINES) {
  test.describe(`kill -9 during callbacks on ${engine}`, () => {
    let smtp: TestSmtpServer
    let shop: Shop

    test.beforeAll(async () => {
      smtp = await startSmtpServer()
      shop = await startShop(engine, { env: { SMTP_URL: smtp.url, JOB_LEASE_SECONDS: '10' } })
    })
    test.afterAll(async () => {
      await shop?.close()
      await smtp?.close()
    })

    test('every confirmed order is delivered exactly once and every mail is sent after a crash', async () => {
      test.setTimeout(240_000)
      const product = await stockedProduct(shop.db, ORDERS)
      const purchases = await payAtGatewayTenAtATime(shop.app.url, product.slug, ORDERS)
      const orderIds = purchases.map((p) => p.orderId)

      // All callbacks at once; the process dies as soon as the first one has been answered.
      const answers = purchases.map((p) => postCallback(shop.app.url, p.callback))
      await Promise.race(answers)
      await shop.app.kill()
      const statuses = await Promise.all(answers)
      const atCrash = await deliveryState(shop.db, orderIds)
      const committed = Object.values(atCrash.statuses).filter(
        (status) => status === 'delivered',
      ).length
      test.info().annotations.push({
        type: 'crash',
        description: `${statuses.filter((s) => s === 303).length} callbacks answered, ${committed} of ${ORDERS} orders delivered when the process was killed`,
      })
      // The crash really interrupted the work: not everything was done.
      expect(committed).toBeLessThan(ORDERS)
      // Nothing half-done: an order is either still pending or paid and delivered with one item.
      for (const [orderId, status] of Object.entries(atCrash.statuses)) {
        expect(['pending', 'delivered']).toContain(status)
        expect(atCrash.liveItems.get(orderId)?.length ?? 0).toBe(status === 'delivered' ? 1 : 0)
      }

      // Restart on the same data and address.
      shop.app = await startApp({ dataDir: shop.app.dataDir, port: shop.app.port, env: shop.env })

      // Reconciliation asks the gateway about the orders whose callback was lost. Its first check
      // is due a minute after the order was created (docs/payments.md, Reconciliation): the
      // waiting checks are brought forward, as if that minute had passed.
      await shop.db
        .updateTable('job')
        .set({ runAt: new Date().toISOString() })
        .where('type', '=', RECONCILE_JOB)
        .where('status', '=', 'pending')
        .execute()
      await expect
        .poll(
          async () => countBy(Object.values((await deliveryState(shop.db, orderIds)).statuses)),
          {
            timeout: 150_000,
            intervals: [2_000],
          },
        )
        .toEqual({ delivered: ORDERS })
      const final = await deliveryState(shop.db, orderIds)
      const items = [...final.liveItems.values()].flat()
      expect(items).toHaveLength(ORDERS)
      expect(new Set(items).size).toBe(ORDERS)
      expect([...final.itemOrders.values()].every((n) => n === 1)).toBe(true)
      expect([...final.deliveredEvents.values()]).toEqual(Array(ORDERS).fill(1))
      const paidEvents = await shop.db
        .selectFrom('orderEvent')
        .select('orderId')
        .where('orderId', 'in', orderIds)
        .where('type', '=', 'paid')
        .execute()
      expect(countBy(paidEvents.map((e) => e.orderId))).toEqual(
        Object.fromEntries(orderIds.map((id) => [id, 1])),
      )

      // Every delivery mail was sent (at least once: a mail whose sending the crash interrupted may come twice).
      await expect
        .poll(
          async () => {
            const open = await shop.db
              .selectFrom('job')
              .select('id')
              .where('type', '=', 'order.mail')
              .where('status', '!=', 'done')
              .execute()
            return open.length
          },
          { timeout: 60_000, intervals: [1_000] },
        )
        .toBe(0)
      for (const orderId of orderIds) {
        const mails = smtp.mails.filter((mail) =>
          mail.subject.startsWith(`Your order ${orderId} is ready`),
        )
        expect(mails.length, `delivery mail for ${orderId}`).toBeGreaterThanOrEqual(1)
        expect(mails[0]!.text).toContain(`/orders/${orderId}/`)
      }
    })
  })
}
