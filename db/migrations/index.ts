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
import * as m0060 from './0060_hash_verification_tokens'
import * as m0061 from './0061_confirm_existing_accounts'
import * as m0065 from './0065_test_stock'
import * as m0070 from './0070_audit_log'
import * as m0075 from './0075_user_admin_indexes'
import * as m0080 from './0080_dashboard_indexes'
import * as m0085 from './0085_wishlist'
import * as m0090 from './0090_user_preferences'
import * as m0095 from './0095_gateway_orders'
import * as m0096 from './0096_gateway_position'
import * as m0100 from './0100_product_reviews'
import * as m0101 from './0101_drop_typed_ratings'
import * as m0105 from './0105_expiry_reminders'
import * as m0110 from './0110_gateway_tokens'
import * as m0115 from './0115_order_refunds'
import * as m0120 from './0120_page_cache_version'
import * as m0125 from './0125_stock_allocation_index'
import * as m0130 from './0130_drop_prefix_indexes'
import * as m0135 from './0135_gateway_answers_in_own_words'
import * as m0140 from './0140_webhook_event_handled'
import * as m0145 from './0145_page_cache_stock_by_kind'
import * as m0150 from './0150_invoice_seller_snapshot'
import * as m0155 from './0155_credit_notes'
import * as m0160 from './0160_business_invoices'
import * as m0165 from './0165_payment_link_business'
import * as m0170 from './0170_refund_checks_stopped'
import * as m0175 from './0175_order_validity'
import * as m0180 from './0180_mail_opt_out'
import * as m0185 from './0185_page_cache_reviewer_names'
import * as m0190 from './0190_order_validity_end'
import * as m0195 from './0195_page_cache_refunded_reviews'
import * as m0220 from './0220_stock_shop_fingerprint'

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
  '0060_hash_verification_tokens': m0060,
  '0061_confirm_existing_accounts': m0061,
  '0065_test_stock': m0065,
  '0070_audit_log': m0070,
  '0075_user_admin_indexes': m0075,
  '0080_dashboard_indexes': m0080,
  '0085_wishlist': m0085,
  '0090_user_preferences': m0090,
  '0095_gateway_orders': m0095,
  '0096_gateway_position': m0096,
  '0100_product_reviews': m0100,
  '0101_drop_typed_ratings': m0101,
  '0105_expiry_reminders': m0105,
  '0110_gateway_tokens': m0110,
  '0115_order_refunds': m0115,
  '0120_page_cache_version': m0120,
  '0125_stock_allocation_index': m0125,
  '0130_drop_prefix_indexes': m0130,
  '0135_gateway_answers_in_own_words': m0135,
  '0140_webhook_event_handled': m0140,
  '0145_page_cache_stock_by_kind': m0145,
  '0150_invoice_seller_snapshot': m0150,
  '0155_credit_notes': m0155,
  '0160_business_invoices': m0160,
  '0165_payment_link_business': m0165,
  '0170_refund_checks_stopped': m0170,
  '0175_order_validity': m0175,
  '0180_mail_opt_out': m0180,
  '0185_page_cache_reviewer_names': m0185,
  '0190_order_validity_end': m0190,
  '0195_page_cache_refunded_reviews': m0195,
  '0220_stock_shop_fingerprint': m0220,
}
