import {
  forgetCachedSettings,
  readSiteSettings,
  setMarker,
  SETTINGS_VERSION_KEY,
  updateSiteSettings,
  type SiteSettings,
} from '~/data/settings.server'
import crypto from 'node:crypto'
import type { DB } from '~/lib/db.server'
import { SETTINGS_TAB_FIELDS, type SettingsTab } from '~/lib/validation/settings'
import { recordAdminChange, type AuditActor } from './audit.server'

/**
 * What a tab's form shows of the settings, as a short fingerprint: the form posts it back, and a
 * save from a page showing other values is refused (saveSiteSettings), so one admin's save never
 * silently undoes another's. Only the tab's own fields count: a save on another tab meanwhile
 * does not stand in the way.
 */
export function settingsVersion(settings: SiteSettings, tab: SettingsTab): string {
  const shown = SETTINGS_TAB_FIELDS[tab].map((key) => settings[key as keyof SiteSettings])
  return crypto.createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 16)
}

export type SaveSettingsResult = { ok: true; settings: SiteSettings } | { ok: false; stale: true }

/**
 * An admin saves one tab of the shop's settings (app/routes/admin/settings.tsx), made from a page
 * that showed `version` of it (settingsVersion). When the stored tab no longer matches that
 * version, another admin saved it meanwhile and nothing is written. Otherwise the new values and
 * the audit entry (action settings.update, the fields that changed, before and after) are
 * written in one transaction; this process's settings cache is dropped at once, other processes
 * see the new version row within a second (app/data/settings.server.ts).
 */
export async function saveSiteSettings(
  db: DB,
  input: {
    actor: AuditActor
    ip: string | null
    tab: SettingsTab
    changes: Partial<SiteSettings>
    /** settingsVersion of what the form showed; left out only by code that is not a form. */
    version?: string
  },
): Promise<SaveSettingsResult> {
  const saved = await db
    .transaction()
    .execute(async (trx) => {
      // The version row first: on PostgreSQL its row lock makes a second save wait for the first
      // to commit, and then read what it saved (SQLite has one writer), so two saves from pages
      // showing the same values cannot both pass the check.
      await setMarker(trx, SETTINGS_VERSION_KEY, crypto.randomUUID())
      const before = await readSiteSettings(trx)
      if (input.version !== undefined && input.version !== settingsVersion(before, input.tab))
        throw new StaleSettings()
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
    .catch((error: unknown) => {
      if (error instanceof StaleSettings) return null
      throw error
    })
  if (!saved) return { ok: false, stale: true }
  forgetCachedSettings(db)
  return { ok: true, settings: saved }
}

/** Rolls the save back: the tab changed since the form showed it. */
class StaleSettings extends Error {}
