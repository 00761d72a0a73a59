import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { auditActorsQuery, listAuditActors, listAuditEntries } from '~/data/audit.server'
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

describe(`the audit log's actor filter (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  /**
   * Whether listing the actors reads through the log (`'whole log'`) or how many of its rows
   * and index entries it reads. SQLite's plan has no counts: the statement itself must walk the
   * admins, audit_log only looked into by subqueries, never read at the top level (every entry
   * of a range), scanned or sorted. PostgreSQL's plan, run, says how many rows it read, with
   * sequential scans ruled out so that the small test table is read as a large one would be.
   */
  async function auditRowsRead(): Promise<number | 'whole log'> {
    const compiled = auditActorsQuery().compile(t.db)
    if (t.engine === 'sqlite') {
      const plan = await sql<{
        parent: number
        detail: string
      }>`explain query plan ${sql.raw(compiled.sql)}`.execute(t.db)
      const whole = plan.rows.some(
        (row) =>
          /^SCAN audit_log\b|TEMP B-TREE/.test(row.detail) ||
          (row.parent === 0 && /audit_log\b/.test(row.detail)),
      )
      return whole ? 'whole log' : 0
    }
    return t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx)
      const { rows } = await sql<{
        'QUERY PLAN': unknown
      }>`explain (analyze, format json) ${sql.raw(compiled.sql)}`.execute(trx)
      type Node = {
        'Relation Name'?: string
        'Actual Rows'?: number
        'Actual Loops'?: number
        Plans?: Node[]
      }
      const json = Object.values(rows[0]!)[0] as [{ Plan: Node }]
      const read = (node: Node): number =>
        (node['Relation Name'] === 'audit_log'
          ? (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1)
          : 0) + (node.Plans ?? []).reduce((sum, child) => sum + read(child), 0)
      return read(json[0].Plan)
    })
  }

  it('lists each admin once under their newest name, reading a few index entries per admin', async () => {
    const start = Date.parse('2027-01-01T00:00:00Z')
    for (let i = 0; i < 150; i++) {
      await recordAdminChange(
        t.db,
        {
          actor: i % 2 ? { ...OWNER, name: `Owner ${i}` } : HELPER,
          ip: null,
          action: 'settings.update',
          target: { type: 'settings' },
          summary: `Change ${i}`,
        },
        new Date(start + i * 1000),
      )
    }
    // The system's own entries name no admin.
    await recordAdminChange(t.db, {
      actor: null,
      ip: null,
      action: 'settings.update',
      target: { type: 'settings' },
      summary: 'By the system',
    })
    expect(await listAuditActors(t.db)).toEqual([
      { actorId: HELPER.id, actorName: HELPER.name, actorEmail: HELPER.email },
      { actorId: OWNER.id, actorName: 'Owner 149', actorEmail: OWNER.email },
    ])
    const read = await auditRowsRead()
    expect(read).not.toBe('whole log')
    expect(read).toBeLessThan(20)
  })
})
