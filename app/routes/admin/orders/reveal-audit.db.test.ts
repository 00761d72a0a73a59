import { sql } from 'kysely'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import { pageText, renderPage, serveTestDb } from '../../../../tests/helpers/route-render'
import {
  makeAdmin,
  makeOrder,
  makePaidOrder,
  makeStockedProduct,
} from '../../../../tests/factories'
import { listAuditEntries } from '~/data/audit.server'
import { listOrderEvents } from '~/data/order.server'
import type { UserProfile } from '~/data/user.server'
import { engineOf } from '~/lib/db.server'
import AdminAudit, { loader as auditLoader } from '../audit'
import { action } from './detail'

/**
 * An admin revealing the item delivered to a buyer (/admin/orders/{orderId}, intent=reveal):
 * recorded on the order's timeline and in the audit log as order.reveal, never with the item,
 * and shown readably on /admin/audit (docs/audit.md). Signing in is not what is tested here: the
 * permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const APP_SECRET = 'x'.repeat(32)
const t = fileTestDb()
serveTestDb(t, { env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET, ADMIN_EMAILS: [] } })
let admin: UserProfile
beforeAll(async () => {
  admin = await makeAdmin(t.db, { name: 'Owner Revealing' })
  signedIn.user = { ...admin, permissions: { canManageOrders: true, canManageUsers: true } }
})

/** What the order page's reveal answers: the item, or why not, with its status. */
async function reveal(orderId: string) {
  const answer = (await action({
    request: new Request(`http://shop.test/admin/orders/${orderId}`, {
      method: 'POST',
      body: new URLSearchParams({ intent: 'reveal' }),
    }),
    params: { orderId },
    context: { clientIp: '203.0.113.9' },
  } as never)) as { data: { step: string; secret?: unknown; error?: string }; init: ResponseInit }
  return { status: answer.init?.status ?? 200, ...answer.data }
}

const reveals = async (orderId: string) =>
  (await listAuditEntries(t.db, { targetId: orderId })).entries.filter(
    (entry) => entry.action === 'order.reveal',
  )
const timelineReveals = async (orderId: string) =>
  (await listOrderEvents(t.db, orderId)).filter((event) => event.type === 'secret_revealed')

describe(`an admin revealing a delivered item (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('records it in the audit log as order.reveal, without the item, and /admin/audit shows it', async () => {
    const key = `KEY-REVEAL-${crypto.randomUUID()}`
    const product = await makeStockedProduct(t.db, APP_SECRET, [key], { price: 49_900 })
    const order = await makePaidOrder(t.db, product.id)
    expect(order.status).toBe('delivered')

    const shown = await reveal(order.id)
    expect(shown).toMatchObject({ status: 200, step: 'revealed' })
    expect(JSON.stringify(shown.secret)).toContain(key)

    const [entry, ...more] = await reveals(order.id)
    expect(more).toEqual([])
    expect(entry).toMatchObject({
      actorId: admin.id,
      actorName: 'Owner Revealing',
      actorEmail: admin.email,
      ip: '203.0.113.9',
      targetType: 'order',
      targetId: order.id,
      summary: `Revealed the delivered item of order ${order.id}`,
      changes: null,
    })
    expect(JSON.stringify(entry)).not.toContain(key)
    expect(await timelineReveals(order.id)).toHaveLength(1)

    // The log's Orders kind lists it: who, from where, what, and a link to the order.
    const { html } = await renderPage(
      {
        id: 'routes/admin/audit',
        path: '/admin/audit',
        Component: AdminAudit,
        loader: auditLoader,
      },
      new Request('http://shop.test/admin/audit?kind=order'),
    )
    const text = pageText(html)
    expect(text).toContain(`Revealed the delivered item of order ${order.id}`)
    expect(text).toContain(
      `Owner Revealing (${admin.email}) from 203.0.113.9 · Orders · order.reveal`,
    )
    expect(html).toContain(`href="/admin/orders/${order.id}"`)
    expect(html).not.toContain(key)
  })

  it('records nothing when there is nothing to reveal', async () => {
    const product = await makeStockedProduct(t.db, APP_SECRET, ['KEY-UNPAID'], { price: 49_900 })
    const order = await makeOrder(t.db, product.id)
    expect(await reveal(order.id)).toMatchObject({ status: 409, step: 'error' })
    expect(await reveals(order.id)).toEqual([])
  })

  it('shows nothing when the reveal cannot be recorded in the audit log', async () => {
    const key = `KEY-UNRECORDED-${crypto.randomUUID()}`
    const product = await makeStockedProduct(t.db, APP_SECRET, [key], { price: 49_900 })
    const order = await makePaidOrder(t.db, product.id)
    const postgres = engineOf(t.db) === 'postgres'
    if (postgres) {
      await sql`create function kb_test_no_audit() returns trigger language plpgsql as $$ begin raise exception 'audit log unavailable'; end $$`.execute(
        t.db,
      )
      await sql`create trigger kb_test_no_audit before insert on audit_log for each row execute function kb_test_no_audit()`.execute(
        t.db,
      )
    } else {
      await sql`create trigger kb_test_no_audit before insert on audit_log begin select raise(abort, 'audit log unavailable'); end`.execute(
        t.db,
      )
    }
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      const answer = await reveal(order.id)
      expect(answer).toMatchObject({ status: 500, step: 'error' })
      expect(JSON.stringify(answer)).not.toContain(key)
    } finally {
      logged.mockRestore()
      await sql`drop trigger kb_test_no_audit${postgres ? sql` on audit_log` : sql``}`.execute(t.db)
      if (postgres) await sql`drop function kb_test_no_audit()`.execute(t.db)
    }
    // Neither on the timeline: the reveal did not happen.
    expect(await timelineReveals(order.id)).toEqual([])
  })
})
