import {
  forgetCachedSettings,
  readSiteSettings,
  updateSiteSettings,
  type SiteSettings,
} from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import { recordAdminChange, type AuditActor } from './audit.server'

/**
 * An admin saves part of the shop's settings (app/routes/admin/settings.tsx): the new values
 * and the audit entry (action settings.update, the fields that changed, before and after) are
 * written in one transaction; this process's settings cache is dropped at once, other
 * processes see the new version row within a second (app/data/settings.server.ts).
 */
export async function saveSiteSettings(
  db: DB,
  input: { actor: AuditActor; ip: string | null; tab: string; changes: Partial<SiteSettings> },
): Promise<SiteSettings> {
  const saved = await db.transaction().execute(async (trx) => {
    const before = await readSiteSettings(trx)
    const after = await updateSiteSettings(trx, input.changes)
    const keys = Object.keys(input.changes) as (keyof SiteSettings)[]
    await recordAdminChange(trx, {
      actor: input.actor,
      ip: input.ip,
      action: 'settings.update',
      target: { type: 'settings', id: input.tab },
      summary: `Updated the ${input.tab} settings`,
      before: Object.fromEntries(keys.map((key) => [key, before[key]])),
      after: Object.fromEntries(keys.map((key) => [key, after[key]])),
    })
    return after
  })
  forgetCachedSettings(db)
  return saved
}
