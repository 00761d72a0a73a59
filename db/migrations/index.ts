import type { Migration } from 'kysely'
import * as m0001 from './0001_catalogue'
import * as m0002 from './0002_site_settings'

/**
 * Every migration, in order. Listed explicitly (not read from disk) so that the
 * bundled production server carries them. Names sort in the order they run.
 */
export const migrations: Record<string, Migration> = {
  '0001_catalogue': m0001,
  '0002_site_settings': m0002,
}
