import type { Migration } from 'kysely'
import * as m0001 from './0001_catalogue'
import * as m0002 from './0002_site_settings'
import * as m0010 from './0010_accounts'
import * as m0011 from './0011_jobs'
import * as m0012 from './0012_rate_limits'
import * as m0020 from './0020_orders'
import * as m0021 from './0021_payment_gateways'
import * as m0030 from './0030_product_admin_indexes'
import * as m0040 from './0040_stock'
import * as m0050 from './0050_order_delivery'
import * as m0051 from './0051_invoices'

/**
 * Every migration, in order. Listed explicitly (not read from disk) so that the
 * bundled production server carries them. Names sort in the order they run.
 */
export const migrations: Record<string, Migration> = {
  '0001_catalogue': m0001,
  '0002_site_settings': m0002,
  '0010_accounts': m0010,
  '0011_jobs': m0011,
  '0012_rate_limits': m0012,
  '0020_orders': m0020,
  '0021_payment_gateways': m0021,
  '0030_product_admin_indexes': m0030,
  '0040_stock': m0040,
  '0050_order_delivery': m0050,
  '0051_invoices': m0051,
}
