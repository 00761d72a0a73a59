import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { listAuditActors, listAuditEntries } from '~/data/audit.server'
import { diffForAudit, MASK, recordAdminChange } from './audit.server'

const t = fileTestDb()

const OWNER = { id: 'owner-1', name: 'Shop Owner', email: 'owner@example.test' }
const HELPER = { id: 'helper-1', name: 'Helper', email: 'helper@example.test' }

describe('diffForAudit', () => {
  it('keeps only the fields that changed, added or removed', () => {
    expect(diffForAudit({ a: 1, b: 'x', c: true }, { a: 1, b: 'y', d: 2 })).toEqual({
      b: { before: 'x', after: 'y' },
      c: { before: true, after: null },
      d: { before: null, after: 2 },
    })
    expect(diffForAudit({ a: [1, 2] }, { a: [1, 2] })).toBeNull()
    expect(diffForAudit(null, null)).toBeNull()
  })

  it('masks named secrets and secret-looking fields, still showing set, changed and cleared', () => {
    expect(
      diffForAudit(
        { keySecret: 'old', webhookPassword: '', merchantKey: 'k1', note: 'a' },
        { keySecret: 'new', webhookPassword: 'p', merchantKey: '', note: 'b' },
        ['keySecret'],
      ),
    ).toEqual({
      keySecret: { before: MASK, after: MASK },
      webhookPassword: { before: '', after: MASK },
      merchantKey: { before: MASK, after: '' },
      note: { before: 'a', after: 'b' },
    })
  })
})

describe(`audit log (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('records who, from where, what and the diff; lists newest first with filters and paging', async () => {
    await recordAdminChange(
      t.db,
      {
        actor: OWNER,
        ip: '203.0.113.5',
        action: 'settings.update',
        target: { type: 'settings' },
        summary: 'Updated settings',
        before: { siteName: 'KeyBazaar', smtpPassword: 'a' },
        after: { siteName: 'My Shop', smtpPassword: 'b' },
      },
      new Date('2026-11-01T10:00:00Z'),
    )
    await recordAdminChange(
      t.db,
      {
        actor: HELPER,
        ip: null,
        action: 'user.suspend',
        target: { type: 'user', id: 'u-9' },
        summary: 'Suspended Asha',
      },
      new Date('2026-11-02T10:00:00Z'),
    )

    const all = await listAuditEntries(t.db)
    expect(all.total).toBe(2)
    expect(all.entries.map((entry) => entry.action)).toEqual(['user.suspend', 'settings.update'])
    expect(all.entries[1]).toMatchObject({
      actorId: OWNER.id,
      actorName: OWNER.name,
      actorEmail: OWNER.email,
      ip: '203.0.113.5',
      targetType: 'settings',
      targetId: null,
      changes: {
        siteName: { before: 'KeyBazaar', after: 'My Shop' },
        smtpPassword: { before: MASK, after: MASK },
      },
    })
    expect(all.entries[0]!.changes).toBeNull()

    expect(
      (await listAuditEntries(t.db, { actorId: HELPER.id })).entries.map((e) => e.targetId),
    ).toEqual(['u-9'])
    expect((await listAuditEntries(t.db, { targetType: 'settings' })).total).toBe(1)
    expect(
      (
        await listAuditEntries(t.db, {
          from: '2026-11-02T00:00:00.000Z',
          to: '2026-11-03T00:00:00.000Z',
        })
      ).entries.map((e) => e.action),
    ).toEqual(['user.suspend'])
    const paged = await listAuditEntries(t.db, { pageSize: 1, page: 2 })
    expect(paged).toMatchObject({ page: 2, pageCount: 2, total: 2 })
    expect(paged.entries.map((e) => e.action)).toEqual(['settings.update'])
    expect(await listAuditActors(t.db)).toEqual([
      { actorId: HELPER.id, actorName: HELPER.name, actorEmail: HELPER.email },
      { actorId: OWNER.id, actorName: OWNER.name, actorEmail: OWNER.email },
    ])

    // Renamed since: one choice for the admin, under the newest name.
    await recordAdminChange(
      t.db,
      {
        actor: { ...HELPER, name: 'Helper Renamed' },
        ip: null,
        action: 'user.reactivate',
        target: { type: 'user', id: 'u-9' },
        summary: 'Reactivated Asha',
      },
      new Date('2026-11-03T10:00:00Z'),
    )
    expect(await listAuditActors(t.db)).toEqual([
      { actorId: HELPER.id, actorName: 'Helper Renamed', actorEmail: HELPER.email },
      { actorId: OWNER.id, actorName: OWNER.name, actorEmail: OWNER.email },
    ])
  })
})
