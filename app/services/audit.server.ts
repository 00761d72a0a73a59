import { insertAuditEntry, type AuditChange } from '~/data/audit.server'
import type { DB } from '~/lib/db.server'

/**
 * Records a change an admin made (docs/audit.md). Every back-office action that changes
 * something calls this, in the same transaction as the change when it has one:
 *
 *   await recordAdminChange(trx, {
 *     actor: user, ip: clientIp(context),
 *     action: 'product.update', target: { type: 'product', id: product.id },
 *     summary: `Updated ${product.title}`,
 *     before, after, secretFields: ['keySecret'],
 *   })
 *
 * Only the fields whose values differ are kept. Fields named in `secretFields`, and any field
 * whose name looks secret (password, secret, token, key material), are stored as "••••" (set,
 * changed or cleared is still visible, the value never).
 */
export interface AuditActor {
  id: string
  name: string
  email: string
}

export interface AdminChange {
  actor: AuditActor | null
  ip: string | null
  /** `<target type>.<verb>`, e.g. user.suspend, settings.update, stock.import. */
  action: string
  target: { type: string; id?: string | null }
  summary: string
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
  secretFields?: readonly string[]
}

export const MASK = '••••'
const SECRET_NAME = /password|secret|token|apikey|api_key|privatekey|merchantkey|salt/i

function comparable(value: unknown): string {
  return JSON.stringify(value ?? null)
}

function masked(value: unknown): unknown {
  return value === undefined || value === null || value === '' ? (value ?? null) : MASK
}

/** The fields that differ between `before` and `after`, secrets masked. */
export function diffForAudit(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  secretFields: readonly string[] = [],
): Record<string, AuditChange> | null {
  if (!before && !after) return null
  const changes: Record<string, AuditChange> = {}
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  for (const key of keys) {
    const was = before?.[key]
    const is = after?.[key]
    if (comparable(was) === comparable(is)) continue
    const secret = secretFields.includes(key) || SECRET_NAME.test(key)
    changes[key] = secret
      ? { before: masked(was), after: masked(is) }
      : { before: was ?? null, after: is ?? null }
  }
  return Object.keys(changes).length > 0 ? changes : null
}

export async function recordAdminChange(
  db: DB,
  change: AdminChange,
  now: Date = new Date(),
): Promise<string> {
  const [targetType] = change.action.split('.')
  return insertAuditEntry(
    db,
    {
      actorId: change.actor?.id ?? null,
      actorName: change.actor?.name ?? '',
      actorEmail: change.actor?.email ?? '',
      ip: change.ip,
      action: change.action,
      targetType: change.target.type || targetType || 'unknown',
      targetId: change.target.id ?? null,
      summary: change.summary,
      changes: diffForAudit(change.before, change.after, change.secretFields),
    },
    now,
  )
}
