import { sql, type Selectable } from 'kysely'
import type { DB } from '~/lib/db.server'
import { sortableId } from '~/lib/id.server'
import { paginate, type Pagination } from '~/lib/paginate'
import type { AuditLogTable } from '../../db/schema'

/**
 * The audit log's statements (docs/audit.md). Entries are only added; app/services/audit.server.ts
 * builds them (who, the diff, masking) and is the one writer the routes use.
 */
export type AuditEntryRow = Selectable<AuditLogTable>

export interface AuditChange {
  before: unknown
  after: unknown
}

export interface AuditEntry extends Omit<AuditEntryRow, 'changes'> {
  changes: Record<string, AuditChange> | null
}

export interface NewAuditEntry {
  actorId: string | null
  actorName: string
  actorEmail: string
  ip: string | null
  action: string
  targetType: string
  targetId: string | null
  summary: string
  changes: Record<string, AuditChange> | null
}

/** Adds one entry; pass the transaction of the change it records so both land or neither. */
export async function insertAuditEntry(
  db: DB,
  entry: NewAuditEntry,
  now: Date = new Date(),
): Promise<string> {
  const id = sortableId(now)
  await db
    .insertInto('auditLog')
    .values({
      id,
      ...entry,
      changes: entry.changes ? JSON.stringify(entry.changes) : null,
      createdAt: now.toISOString(),
    })
    .execute()
  return id
}

export interface AuditFilters {
  actorId?: string
  /** The kind of thing changed (product, stock_item, order, user, settings, gateway, ...). */
  targetType?: string
  /**
   * The kind of change: the action's first part (product, stock, order, user, settings,
   * gateway, payment-link, review), what the log's Kind filter picks. A stock import is a
   * `stock.` action on a product.
   */
  kind?: string
  targetId?: string
  /** ISO instants, `from` inclusive and `to` exclusive. */
  from?: string
  to?: string
  page?: number
  pageSize?: number
}

export const AUDIT_PAGE_SIZE = 50

function parseChanges(json: string | null): Record<string, AuditChange> | null {
  if (!json) return null
  try {
    return JSON.parse(json) as Record<string, AuditChange>
  } catch {
    return null
  }
}

/** Newest first, filtered and paged. */
export async function listAuditEntries(
  db: DB,
  filters: AuditFilters = {},
): Promise<{ entries: AuditEntry[]; total: number } & Pagination> {
  let query = db.selectFrom('auditLog')
  if (filters.actorId) query = query.where('actorId', '=', filters.actorId)
  if (filters.targetType) query = query.where('targetType', '=', filters.targetType)
  if (filters.kind) query = query.where('action', 'like', `${filters.kind}.%`)
  if (filters.targetId) query = query.where('targetId', '=', filters.targetId)
  if (filters.from) query = query.where('createdAt', '>=', filters.from)
  if (filters.to) query = query.where('createdAt', '<', filters.to)
  const { total } = await query
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow()
  const pagination = paginate(Number(total), filters, {
    defaultSize: AUDIT_PAGE_SIZE,
    maxSize: 200,
  })
  const rows = await query
    .selectAll()
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(pagination.pageSize)
    .offset(pagination.offset)
    .execute()
  return {
    entries: rows.map((row) => ({ ...row, changes: parseChanges(row.changes) })),
    total: Number(total),
    ...pagination,
  }
}

/**
 * The admins who appear in the log, each under the name and address of their newest entry (a
 * renamed admin's older entries carry the old name). Read from audit_log_actor_idx (actor_id,
 * created_at) without reading the log's other rows: one step per admin to the next actor id (a
 * recursive "loose index scan", as neither engine skips through an index by itself), and for
 * each the newest of their entries. A few admins cost a few index lookups however long the log.
 */
export function auditActorsQuery() {
  return sql<{ actorId: string; actorName: string; actorEmail: string }>`
    with recursive actor (id) as (
      select min(actor_id) from audit_log
      union all
      select (select min(actor_id) from audit_log where actor_id > actor.id)
      from actor
      where actor.id is not null
    )
    select
      actor.id as actor_id,
      (select actor_name from audit_log where actor_id = actor.id
        order by created_at desc limit 1) as actor_name,
      (select actor_email from audit_log where actor_id = actor.id
        order by created_at desc limit 1) as actor_email
    from actor
    where actor.id is not null`
}

/** The admins who appear in the log, for the actor filter, by e-mail address. */
export async function listAuditActors(
  db: DB,
): Promise<{ actorId: string; actorName: string; actorEmail: string }[]> {
  const { rows } = await auditActorsQuery().execute(db)
  return rows
    .map((row) => ({ actorId: row.actorId, actorName: row.actorName, actorEmail: row.actorEmail }))
    .sort((a, b) => a.actorEmail.localeCompare(b.actorEmail))
}
