import { describe, expect, it } from 'vitest'
import { listAuditEntries } from '~/data/audit.server'
import { OrderError } from '~/data/order.server'
import { getPaymentLink } from '~/data/payment-link.server'
import { fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeAdmin, makeProduct } from '../../tests/factories'
import { cancelPaymentLinkAudited, createPaymentLinkAudited } from './payment-link-admin.server'

/** Payment links made and cancelled from the back office, each with its audit entry. */
const t = fileTestDb()
const URL_BASE = 'https://shop.example.in'

async function owner() {
  const admin = await makeAdmin(t.db)
  return { actor: { id: admin.id, name: admin.name, email: admin.email }, ip: '203.0.113.7' }
}

async function linkEntries(linkId: string) {
  const { entries } = await listAuditEntries(t.db, { targetType: 'payment-link' })
  return entries.filter((entry) => entry.targetId === linkId)
}

describe(`payment links in the back office (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('creates a link and one audit entry naming who made it', async () => {
    const who = await owner()
    const product = await makeProduct(t.db, { price: 149_900 })
    const link = await createPaymentLinkAudited(
      t.db,
      { productId: product.id, amount: 99_900, customer: BUYER },
      who,
      URL_BASE,
    )
    expect(await getPaymentLink(t.db, link.id, URL_BASE)).toMatchObject({
      status: 'active',
      amount: 99_900,
      createdBy: who.actor.id,
    })
    const entries = await linkEntries(link.id)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      action: 'payment-link.create',
      actorId: who.actor.id,
      ip: '203.0.113.7',
      targetId: link.id,
    })
    expect(entries[0]!.summary).toContain('₹999')
    expect(entries[0]!.summary).toContain(BUYER.email)
  })

  it('records nothing when the product is gone', async () => {
    const who = await owner()
    const before = (await listAuditEntries(t.db, { targetType: 'payment-link' })).total
    await expect(
      createPaymentLinkAudited(
        t.db,
        { productId: 'no-such-product', customer: BUYER },
        who,
        URL_BASE,
      ),
    ).rejects.toBeInstanceOf(OrderError)
    expect((await listAuditEntries(t.db, { targetType: 'payment-link' })).total).toBe(before)
  })

  it('cancels once: a second cancel changes and records nothing', async () => {
    const who = await owner()
    const product = await makeProduct(t.db, { price: 49_900 })
    const link = await createPaymentLinkAudited(
      t.db,
      { productId: product.id, customer: BUYER },
      who,
      URL_BASE,
    )
    expect(await cancelPaymentLinkAudited(t.db, link.id, who)).toMatchObject({
      status: 'cancelled',
    })
    expect(await cancelPaymentLinkAudited(t.db, link.id, who)).toMatchObject({
      status: 'not-active',
      current: 'cancelled',
    })
    // Sorted: both may be written in the same millisecond.
    const actions = (await linkEntries(link.id)).map((entry) => entry.action).sort()
    expect(actions).toEqual(['payment-link.cancel', 'payment-link.create'])
  })
})
