import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

/**
 * Kysely's view of the database, in camelCase (app/lib/db.server.ts maps names to
 * the snake_case columns). Booleans are stored as 0/1 integers and timestamps as
 * ISO-8601 UTC text so that both engines behave the same; see
 * docs/decisions/0002-kysely-with-two-engines.md.
 */
export interface Database {
  category: CategoryTable
  product: ProductTable
  siteSetting: SiteSettingTable
  user: UserTable
  session: SessionTable
  account: AccountTable
  verification: VerificationTable
  job: JobTable
  rateLimit: RateLimitTable
  order: OrderTable & OrderValidityEndColumn
  orderEvent: OrderEventTable
  paymentLink: PaymentLinkTable
  paymentGateway: PaymentGatewayTable
  paymentWebhookEvent: PaymentWebhookEventTable
  gatewayToken: GatewayTokenTable
  orderRefund: OrderRefundTable
  stockItem: StockItemTable
  orderAccessToken: OrderAccessTokenTable
  orderReport: OrderReportTable
  invoice: InvoiceTable
  invoiceCounter: InvoiceCounterTable
  creditNote: CreditNoteTable
  creditNoteCounter: CreditNoteCounterTable
  auditLog: AuditLogTable
  userPreference: UserPreferenceTable
  customerGstDetails: CustomerGstDetailsTable
  wishlistItem: WishlistItemTable
  review: ReviewTable
  reviewVote: ReviewVoteTable
  expiryReminder: ExpiryReminderTable
  cacheVersion: CacheVersionTable
  mailOptOut: MailOptOutTable
}

export interface CategoryTable {
  name: string
  slug: string
  sortOrder: number
}

/** Columns with a database default are Generated<>: optional on insert. */
export interface ProductTable {
  id: string
  title: string
  slug: string
  description: Generated<string>
  shortDescription: Generated<string>
  /** Storage key under the storage root (e.g. products/1715_ab12.webp) or an absolute URL. */
  image: Generated<string>
  /** Sale price in paise. */
  price: number
  /** Original (struck-through) price in paise. */
  originalPrice: number
  category: Generated<string>
  featured: Generated<number>
  inStock: Generated<number>
  buyNowLink: string | null
  /** JSON array of strings. */
  tags: Generated<string>
  validity: Generated<string>
  deliveryTime: Generated<string>
  /** JSON array of strings. */
  features: Generated<string>
  metaTitle: Generated<string>
  metaDescription: Generated<string>
  /** JSON array of strings. */
  keywords: Generated<string>
  /** stock | shared | manual (db/migrations/0040_stock.ts). */
  deliveryMode: Generated<DeliveryMode>
  /** For `shared` products, encrypted by app/data/stock.server.ts. */
  sharedSecret: string | null
  createdAt: string
  updatedAt: string
}

export interface SiteSettingTable {
  key: string
  /** JSON value. */
  value: string
  updatedAt: string
}

/**
 * Accounts (better-auth's tables plus our profile fields). better-auth writes these with
 * each engine's native types: on PostgreSQL flags are booleans and timestamps are
 * timestamptz (read back as Date); on SQLite 0/1 and ISO text. Read them through
 * app/data/user.server.ts, which normalises both. See docs/decisions/0004-accounts-on-better-auth.md.
 */
export type AuthFlag = number | boolean
export type AuthTime = string | Date

export interface UserTable {
  id: string
  name: string
  /** Always lower-case. */
  email: string
  emailVerified: AuthFlag
  /** Profile photo URL (better-auth's `image`, e.g. from Google). */
  photo: string | null
  role: Generated<'user' | 'admin'>
  /** Missing counts as active. */
  status: Generated<'active' | 'suspended' | 'inactive'>
  canCreateProducts: Generated<AuthFlag>
  canManageOrders: Generated<AuthFlag>
  canManageUsers: Generated<AuthFlag>
  lastActiveAt: AuthTime | null
  createdAt: AuthTime
  updatedAt: AuthTime
}

export interface SessionTable {
  id: string
  token: string
  userId: string
  expiresAt: AuthTime
  ipAddress: string | null
  userAgent: string | null
  createdAt: AuthTime
  updatedAt: AuthTime
}

export interface AccountTable {
  id: string
  accountId: string
  /** "credential" for e-mail + password, "google" for Google. */
  providerId: string
  userId: string
  accessToken: string | null
  refreshToken: string | null
  idToken: string | null
  accessTokenExpiresAt: AuthTime | null
  refreshTokenExpiresAt: AuthTime | null
  scope: string | null
  password: string | null
  createdAt: AuthTime
  updatedAt: AuthTime
}

export interface VerificationTable {
  id: string
  identifier: string
  value: string
  expiresAt: AuthTime
  createdAt: AuthTime
  updatedAt: AuthTime
}

/** Background work; see app/lib/jobs.server.ts. Timestamps are ISO text on both engines. */
export interface JobTable {
  id: string
  type: string
  /** JSON. */
  payload: string
  status: Generated<'pending' | 'running' | 'done' | 'failed'>
  attempts: Generated<number>
  maxAttempts: Generated<number>
  runAt: string
  lockedUntil: string | null
  lockedBy: string | null
  lastError: string | null
  createdAt: string
  updatedAt: string
  finishedAt: string | null
}

export interface RateLimitTable {
  key: string
  windowStart: string
  count: number
  expiresAt: string
}

/** Orders and payments (db/migrations/0020_orders.ts); see docs/payments.md. Money in paise. */
export type OrderStatus =
  'pending' | 'paid' | 'failed' | 'expired' | 'delivered' | 'awaiting_stock' | 'refunded'

export interface OrderTable {
  /** ORD_{timestamp}_{0-999}. */
  id: string
  status: Generated<OrderStatus>
  productId: string | null
  productName: string
  amount: number
  customerName: string
  customerEmail: string
  customerPhone: string
  userId: string | null
  paymentLinkId: string | null
  gateway: Generated<string>
  testMode: Generated<number>
  gatewayTxnId: string | null
  /** The gateway's own id for the order (Razorpay's order_...), unique per gateway. */
  gatewayOrderId: string | null
  bankTxnId: string | null
  paymentMode: string | null
  paidAmount: number | null
  gatewayStatus: string | null
  gatewayRespCode: string | null
  gatewayRespMsg: string | null
  accessTokenHash: string
  statusChecks: Generated<number>
  lastStatusCheckAt: string | null
  createdAt: string
  updatedAt: string
  paidAt: string | null
  /**
   * The product's validity text when the order was placed (a blank one reads as "1 Year",
   * app/lib/validity.ts); null for an order whose product was gone before orders kept it.
   */
  validity: string | null
}

/**
 * The order's column only the expiry-reminder check reads and writes, kept apart from
 * OrderTable, whose rows the app reads as an Order (app/data/order.server.ts).
 */
export interface OrderValidityEndColumn {
  /**
   * ISO: when a delivered order's validity runs out, as the check counted it
   * (db/migrations/0190_order_validity_end.ts, app/data/expiry-reminder.server.ts); far in the
   * future for one that never ends; null until the check has counted it.
   */
  validityEndsAt: string | null
}

export interface OrderEventTable {
  id: Generated<number>
  orderId: string
  type: string
  fromStatus: string | null
  toStatus: string | null
  message: Generated<string>
  /** JSON. */
  data: string | null
  actor: Generated<string>
  createdAt: string
}

export interface PaymentLinkTable {
  id: string
  orderId: string
  amount: number
  customerName: string
  customerEmail: string
  customerPhone: string
  productId: string | null
  productName: string
  status: Generated<'active' | 'paid' | 'cancelled'>
  createdBy: string | null
  createdAt: string
  updatedAt: string
  /** The business the link's invoice is made out to (all three or none; null: a consumer). */
  buyerBusinessName: string | null
  buyerGstin: string | null
  buyerAddress: string | null
}

/** Webhook deliveries already handled, by the gateway's event id (deduplication). */
/**
 * The page cache's version (one row, id 1): triggers raise it when anything an anonymous page
 * shows changes (db/migrations/0120_page_cache_version.ts, docs/page-cache.md).
 */
export interface CacheVersionTable {
  id: number
  /** bigint: a string from PostgreSQL, a number from SQLite. */
  version: number | string
}

/** A gateway's access token shared by every process (PhonePe's OAuth token); `token` encrypted. */
export interface GatewayTokenTable {
  key: string
  gateway: string
  token: string
  tokenType: string
  issuedAt: string
  expiresAt: string
  updatedAt: string
}

export interface PaymentWebhookEventTable {
  gateway: string
  eventId: string
  event: string
  orderId: string | null
  /** When the claim was taken (taken over: when the retry took it). */
  receivedAt: string
  /** When it was acted on; null while being handled (0140_webhook_event_handled). */
  handledAt: string | null
}

export type OrderRefundStatus = 'requested' | 'pending' | 'processed' | 'failed'

/** A refund asked of a gateway's refund API; the id is also the idempotency key sent to it. */
export interface OrderRefundTable {
  id: string
  orderId: string
  gateway: string
  /** Paise. */
  amount: number
  reason: Generated<string>
  status: Generated<OrderRefundStatus>
  /** The gateway's refund id (Razorpay's rfnd_..., Paytm's refundId), unique per gateway. */
  gatewayRefundId: string | null
  /** The gateway's last words about the refund. */
  gatewayMessage: string | null
  statusChecks: Generated<number>
  /** When KeyBazaar stopped asking about it, unanswered (db/migrations/0170_refund_checks_stopped.ts). */
  checksStoppedAt: string | null
  requestedBy: string
  createdAt: string
  updatedAt: string
  processedAt: string | null
}

export interface PaymentGatewayTable {
  /** Equal to its type. */
  id: string
  name: string
  type: 'paytm' | 'razorpay' | 'stripe' | 'paypal' | 'phonepe'
  status: Generated<'testing' | 'active' | 'inactive'>
  /** JSON object of the settings that are not secret. */
  config: Generated<string>
  /** JSON object: field name -> value encrypted by app/lib/crypto.server.ts. */
  secrets: Generated<string>
  /** Where checkout offers it among the active gateways (lowest first). */
  position: Generated<number>
  createdAt: string
  updatedAt: string
}

export type DeliveryMode = 'stock' | 'shared' | 'manual'
export type StockItemStatus = 'available' | 'held' | 'delivered' | 'revoked'

/** One credential or key for sale; see app/data/stock.server.ts and docs/delivery.md. */
export interface StockItemTable {
  id: string
  /** Null once the product is deleted (a delivered item outlives it). */
  productId: string | null
  /** AES-256-GCM of the item's JSON, bound to the row id. */
  secretCiphertext: string
  /** HMAC-SHA256 keyed from APP_SECRET; unique per product. */
  secretHash: string
  /**
   * The same item's fingerprint without the product (0220_stock_shop_fingerprint): an import
   * skips an item another product holds. Null for hand-delivered items, and for older rows until
   * start-up fills them (fillShopFingerprints in app/data/stock.server.ts).
   */
  shopHash: Generated<string | null>
  status: Generated<StockItemStatus>
  orderId: string | null
  addedBy: Generated<string>
  /** 1: a test item, sold only for test-mode (simulator) payments (0065_test_stock). */
  testItem: Generated<number>
  revokedReason: string | null
  createdAt: string
  updatedAt: string
  deliveredAt: string | null
  revokedAt: string | null
}

/**
 * The product columns the catalogue reads. The delivery columns are left out: the shared secret
 * is encrypted and must never reach a product object (loader data goes to the browser), and
 * the delivery mode is read through app/data/stock.server.ts until the product form shows it.
 */
export type ProductRow = Omit<Selectable<ProductTable>, 'deliveryMode' | 'sharedSecret'>
export type NewProductRow = Insertable<ProductTable>
export type ProductRowUpdate = Updateable<ProductTable>

/** Further secret links to an order page (db/migrations/0050_order_delivery.ts). */
export interface OrderAccessTokenTable {
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  tokenHash: string
  orderId: string
  purpose: string
  createdAt: string
}

export type ReportStatus = 'open' | 'resolved'
export type ReportResolution = 'replaced' | 'replied' | 'refunded'

/** A buyer's problem report on a delivered order. */
export interface OrderReportTable {
  id: string
  orderId: string
  reason: string
  status: Generated<ReportStatus>
  resolution: ReportResolution | null
  reply: string | null
  reportedBy: Generated<string>
  resolvedBy: string | null
  createdAt: string
  resolvedAt: string | null
}

/** An order's invoice number, given when the invoice is first issued (0051_invoices). */
export interface InvoiceTable {
  orderId: string
  number: string
  financialYear: string
  sequence: number
  issuedAt: string
  /** What the invoice said when issued (null: issued before these were kept). */
  sellerName: string | null
  sellerAddress: string | null
  sellerGstin: string | null
  sellerEmail: string | null
  sellerPhone: string | null
  sacCode: string | null
  /** Hundredths of a per cent (1800 is 18 %). */
  gstRateBasisPoints: number | null
  /** The buyer's business, when the invoice was issued to one (0160_business_invoices). */
  buyerBusinessName: string | null
  buyerGstin: string | null
  buyerAddress: string | null
}

export interface InvoiceCounterTable {
  financialYear: string
  lastNumber: Generated<number>
}

/** A refund's credit note (0155_credit_notes, docs/delivery.md "Credit notes"). */
export interface CreditNoteTable {
  id: string
  orderId: string
  /** The gateway refund's id, or `order:<id>` for a refund recorded by hand. */
  source: string
  /** Null for a test-mode order's (not numbered). */
  number: string | null
  financialYear: string | null
  sequence: number | null
  issuedAt: string
  /** Paise credited. */
  amount: number
  reason: Generated<string>
  invoiceNumber: string
  invoiceIssuedAt: string
  sellerName: string
  sellerAddress: Generated<string>
  sellerEmail: Generated<string>
  sellerPhone: Generated<string>
  /** The invoice's GSTIN, SAC and rate (empty / null: the invoice had no tax lines). */
  sellerGstin: Generated<string>
  sacCode: Generated<string>
  /** Hundredths of a per cent (1800 is 18 %). */
  gstRateBasisPoints: number | null
  /** Paise: the tax reversed, worked out when issued (null: no tax lines). */
  taxableValue: number | null
  centralTax: number | null
  stateTax: number | null
  /** Paise of IGST reversed, for an inter-state sale (0160_business_invoices). */
  integratedTax: number | null
  /** The business it is issued to, as its invoice named it (0160_business_invoices). */
  buyerBusinessName: string | null
  buyerGstin: string | null
  buyerAddress: string | null
}

export interface CreditNoteCounterTable {
  financialYear: string
  lastNumber: Generated<number>
}

/** One change an admin made in the back office (0070_audit_log, docs/audit.md). */
export interface AuditLogTable {
  id: string
  actorId: string | null
  actorName: Generated<string>
  actorEmail: Generated<string>
  ip: string | null
  action: string
  targetType: string
  targetId: string | null
  summary: Generated<string>
  /** JSON object: field -> { before, after }, secrets masked. */
  changes: string | null
  createdAt: string
}

/** A customer's business, named on their GST invoices (0160_business_invoices). */
export interface CustomerGstDetailsTable {
  userId: string
  businessName: string
  gstin: string
  address: string
  updatedAt: string
}

/** A customer's theme, language and mail preference (0090_user_preferences). */
export interface UserPreferenceTable {
  userId: string
  theme: Generated<'light' | 'dark' | 'system'>
  language: Generated<'en' | 'hi' | 'es'>
  /** 1: reminder and marketing-type mails are wanted (order mails are always sent). */
  notifications: Generated<number>
  updatedAt: string
}

/** A product on a customer's wishlist (0085_wishlist, app/data/wishlist.server.ts). */
export interface WishlistItemTable {
  userId: string
  productId: string
  /** 1 while the product was last seen out of stock: its return sends one mail. */
  awaitingRestock: Generated<number>
  /** 1: the customer wants the back-in-stock mail. */
  notifyRestock: Generated<number>
  restockMailedAt: string | null
  createdAt: string
}

/** A verified buyer's review of a delivered order's product (0100_product_reviews). */
export interface ReviewTable {
  id: string
  /** One review per order. */
  orderId: string
  productId: string
  userId: string
  /** 1 to 5. */
  rating: number
  title: Generated<string>
  body: string
  /** 1: taken off the shop by an admin (with `hiddenReason`); counts for nothing. */
  hidden: Generated<number>
  hiddenReason: string | null
  hiddenAt: string | null
  /** The number of `review_vote` rows, kept with each vote. */
  helpfulCount: Generated<number>
  createdAt: string
  updatedAt: string
}

/** One signed-in user's "helpful" on someone else's review. */
export interface ReviewVoteTable {
  reviewId: string
  userId: string
  createdAt: string
}

/** An expiry reminder already queued, once per order and kind (0105_expiry_reminders). */
export interface ExpiryReminderTable {
  orderId: string
  /** 7d | 1d */
  kind: string
  expiresAt: string
  createdAt: string
}

/**
 * An address that unsubscribed from a kind of mail by the link in the mail (0180_mail_opt_out,
 * docs/notifications.md). Guests and accounts alike; no foreign key to a user.
 */
export interface MailOptOutTable {
  /** Trimmed and lower-cased. */
  email: string
  /** offers: expiry reminders and back-in-stock mails (MAIL_KINDS in app/lib/unsubscribe-link.server.ts). */
  kind: string
  createdAt: string
}
