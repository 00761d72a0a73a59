import crypto from 'node:crypto'
import { decryptSecret, encryptSecret, SecretDecryptionError } from '~/lib/crypto.server'
import { engineOf, type DB } from '~/lib/db.server'
import { readCache } from '~/lib/read-cache.server'
import {
  GATEWAY_FIELDS,
  GATEWAY_TYPE_LABELS,
  type GatewayFieldErrors,
  type GatewayFormData,
  type GatewayStatus,
  type GatewayType,
} from '~/lib/validation/gateway'
import { gatewayTotals, type GatewayTotals } from './order.server'

/**
 * Payment gateway records (admin Gateways page).
 * One record per type, its id equal to the type. Settings that are not secret are kept as
 * JSON; secrets are encrypted one by one with AES-256-GCM (crypto.server.ts), bound to their
 * gateway and field, and never leave the server: views carry only whether each one is set.
 * Transactions and revenue come from the orders.
 */
export interface GatewayView {
  id: string
  name: string
  type: GatewayType
  status: GatewayStatus
  /** Settings that are not secret. */
  config: Record<string, string>
  /**
   * For each secret field, whether a value is stored that this APP_SECRET can read (the value
   * itself never leaves the server).
   */
  secretsSet: Record<string, boolean>
  /**
   * The secret fields holding a value stored under another APP_SECRET: it counts as not set and
   * must be entered again (docs/payments.md, "Gateways page").
   */
  unreadableSecrets: string[]
  /** The edit form's version of the record (gatewayEditVersion), posted back with a save. */
  version: string
  /** Its payments, real and test mode apart (GatewayTotals). */
  transactions: number
  revenue: number
  testTransactions: number
  testRevenue: number
  createdAt: string
  updatedAt: string
}

const secretContext = (id: string, field: string) => `payment_gateway:${id}:${field}`

function parseObject(json: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(json)
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    )
  } catch {
    return {}
  }
}

/**
 * Which Paytm environment the admin's record points at, without decrypting its key (for the
 * pages' Content-Security-Policy); null when there is no record with a merchant id.
 */
/**
 * A gateway's status and public configuration (no secrets), which every page's
 * Content-Security-Policy reads (server/security.ts): a copy shared for up to a second and
 * dropped by a write in this process (app/lib/read-cache.server.ts).
 */
const publicGatewayRows = readCache<string, { status: GatewayStatus; config: string } | undefined>([
  'paymentGateway',
])
function publicGatewayRow(db: DB, type: 'paytm' | 'razorpay') {
  return publicGatewayRows.get(db, type, () =>
    db
      .selectFrom('paymentGateway')
      .select(['status', 'config'])
      .where('type', '=', type)
      .executeTakeFirst(),
  )
}

export async function paytmGatewayEnvironment(
  db: DB,
): Promise<{ status: string; environment: 'staging' | 'production' } | null> {
  const row = await publicGatewayRow(db, 'paytm')
  if (!row) return null
  const config = parseObject(row.config)
  if (!config.merchantId) return null
  return {
    status: row.status,
    environment: config.environment === 'production' ? 'production' : 'staging',
  }
}

/** The default gateway record: a paytm gateway in testing, on staging (docs/payments.md). */
export async function ensureDefaultGateway(db: DB, now = new Date()): Promise<boolean> {
  const existing = await db.selectFrom('paymentGateway').select('id').limit(1).executeTakeFirst()
  if (existing) return false
  const at = now.toISOString()
  // Two admins opening the page together both try; the first insert wins and the other does
  // nothing, whichever unique key (the id, or the one record per type) it meets first.
  const inserted = await db
    .insertInto('paymentGateway')
    .values({
      id: 'paytm',
      name: 'Paytm',
      type: 'paytm',
      status: 'testing',
      config: JSON.stringify({
        merchantId: '',
        website: 'WEBSTAGING',
        environment: 'staging',
        callbackUrl: '',
      }),
      secrets: '{}',
      createdAt: at,
      updatedAt: at,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst()
  return Boolean(inserted)
}

/** Whether a stored secret decrypts under `appSecret` (false when it was stored under another). */
function readable(stored: string, appSecret: string, id: string, field: string): boolean {
  try {
    decryptSecret(stored, appSecret, secretContext(id, field))
    return true
  } catch (error) {
    if (error instanceof SecretDecryptionError) return false
    throw error
  }
}

/**
 * What the edit form shows of a gateway, as a short fingerprint: the form posts it back, and a
 * save from a page showing other values is refused (saveGateway), so one admin's save never
 * silently undoes another's. Only what the form edits counts (not `position` or `updatedAt`,
 * which a move changes); a secret counts by its stored ciphertext, so a key another admin
 * entered meanwhile makes the form stale too. The hash reveals nothing of the secrets.
 */
export function gatewayEditVersion(row: {
  name: string
  status: string
  config: string
  secrets: string
}): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([row.name, row.status, row.config, row.secrets]))
    .digest('base64url')
    .slice(0, 16)
}

/**
 * The gateway records for the Gateways page, in checkout order. A secret stored under another
 * APP_SECRET is listed as not set and named in `unreadableSecrets`, as checkout treats it.
 */
export async function listGateways(db: DB, appSecret: string): Promise<GatewayView[]> {
  return (await gatewayOverview(db, appSecret)).records
}

/**
 * The Gateways page's figures: the records (listGateways) with their own, and every gateway's
 * totals by its type, so a gateway that takes payments without a record of its own (a built-in
 * simulator of a fresh install, one set by the environment) is shown its figures too.
 */
export async function gatewayOverview(
  db: DB,
  appSecret: string,
): Promise<{ records: GatewayView[]; totals: Record<string, GatewayTotals> }> {
  const [rows, totals] = await Promise.all([
    db
      .selectFrom('paymentGateway')
      .select(['id', 'name', 'type', 'status', 'config', 'secrets', 'createdAt', 'updatedAt'])
      .orderBy('position')
      .orderBy('createdAt')
      .orderBy('id')
      .execute(),
    gatewayTotals(db),
  ])
  const records = rows.map((row): GatewayView => {
    const secrets = parseObject(row.secrets)
    const fields = GATEWAY_FIELDS[row.type] ?? []
    const config = parseObject(row.config)
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      status: row.status,
      config: Object.fromEntries(
        fields.filter((f) => !f.secret).map((f) => [f.name, config[f.name] ?? '']),
      ),
      secretsSet: Object.fromEntries(
        fields
          .filter((f) => f.secret)
          .map((f) => [
            f.name,
            Boolean(secrets[f.name]) && readable(secrets[f.name]!, appSecret, row.id, f.name),
          ]),
      ),
      unreadableSecrets: fields
        .filter(
          (f) =>
            f.secret && secrets[f.name] && !readable(secrets[f.name]!, appSecret, row.id, f.name),
        )
        .map((f) => f.name),
      version: gatewayEditVersion(row),
      transactions: 0,
      revenue: 0,
      testTransactions: 0,
      testRevenue: 0,
      ...totals[row.type],
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }
  })
  return { records, totals }
}

export type SaveGatewayResult =
  | { ok: true; id: string }
  /** `stale`: the record changed since the form's page was loaded; nothing was saved. */
  | { ok: false; errors: GatewayFieldErrors; stale?: true }

/** An edit saved over another admin's change would undo it: refused (docs/payments.md). */
export const GATEWAY_STALE_EDIT =
  'This gateway was changed by someone else since you opened it, so nothing was saved. Reload the page to see the changes, then edit again.'
/** An edit posted without the version of the record it showed (a page from an older release). */
export const GATEWAY_EDIT_EXPIRED =
  'This form is out of date, so nothing was saved. Reload the page, then edit again.'

/** What a save changed, for the audit log: settings and encrypted secrets by field name. */
export interface SavedGatewayChange {
  id: string
  type: string
  created: boolean
  before: Record<string, unknown> | null
  after: Record<string, unknown>
  /** The fields whose values are secrets (stored masked). */
  secretFields: string[]
}

export interface SaveGatewayInput extends GatewayFormData {
  mode: 'add' | 'edit'
  id?: string
  /**
   * The settings and status come from elsewhere (PAYTM_* and the like win over the record):
   * only the name is saved, and a new record starts in testing.
   */
  keepFields?: boolean
  /**
   * Edit: the gatewayEditVersion of the record the form showed. When given, a save from a page
   * showing other values than the stored ones changes nothing ('' is a form without one).
   */
  version?: string
}

/**
 * Adds (mode add) or updates (mode edit) a gateway, in one transaction with its audit entry
 * (`record`, docs/audit.md). The type of an existing gateway never changes; a secret left blank
 * keeps the stored one. An active gateway needs its credentials, readable under `appSecret`.
 * An edit re-reads the record under a row lock and checks `version` before writing.
 */
export async function saveGateway(
  db: DB,
  appSecret: string,
  input: SaveGatewayInput,
  now = new Date(),
  record?: (trx: DB, change: SavedGatewayChange) => Promise<void>,
): Promise<SaveGatewayResult> {
  return db.transaction().execute((trx) => saveGatewayIn(trx, appSecret, input, now, record))
}

async function saveGatewayIn(
  db: DB,
  appSecret: string,
  input: SaveGatewayInput,
  now: Date,
  record?: (trx: DB, change: SavedGatewayChange) => Promise<void>,
): Promise<SaveGatewayResult> {
  const at = now.toISOString()
  const read = db
    .selectFrom('paymentGateway')
    .select(['id', 'type', 'name', 'status', 'config', 'secrets'])
  // Two admins saving the same gateway take turns: PostgreSQL holds the row; SQLite's
  // transactions hold the write lock from their start (app/lib/db.server.ts).
  const existing =
    input.mode === 'edit'
      ? await read
          .where('id', '=', input.id ?? '')
          .$if(engineOf(db) === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst()
      : await read.where('type', '=', input.type).executeTakeFirst()
  if (input.mode === 'edit' && !existing)
    return { ok: false, errors: { form: 'This gateway no longer exists.' } }
  if (input.mode === 'edit' && existing && input.version !== undefined) {
    if (input.version !== gatewayEditVersion(existing))
      return {
        ok: false,
        stale: true,
        errors: { form: input.version ? GATEWAY_STALE_EDIT : GATEWAY_EDIT_EXPIRED },
      }
  }
  if (input.mode === 'add' && existing) {
    return {
      ok: false,
      errors: {
        type: `A ${GATEWAY_TYPE_LABELS[input.type]} gateway already exists; edit it instead.`,
      },
    }
  }
  // Editing keeps the stored type whatever the form says.
  const type = existing ? existing.type : input.type
  const id = existing ? existing.id : type
  const fields = GATEWAY_FIELDS[type]
  // Settings checked against another type (a form posting a changed type) are not this gateway's.
  const keepFields = Boolean(input.keepFields) || input.type !== type
  const config: Record<string, string> = existing ? parseObject(existing.config) : {}
  const secrets: Record<string, string> = existing ? parseObject(existing.secrets) : {}
  const before = existing
    ? { name: existing.name, status: existing.status, ...config, ...secrets }
    : null
  // Settings from the environment decide whether checkout uses the gateway: the record's status
  // would have no effect, so it stays as it is (docs/payments.md, "Gateways page").
  const status: GatewayStatus = input.keepFields ? (existing?.status ?? 'testing') : input.status
  for (const field of keepFields ? [] : fields) {
    const value = input.fields[field.name] ?? ''
    if (field.secret) {
      if (value !== '')
        secrets[field.name] = encryptSecret(value, appSecret, secretContext(id, field.name))
    } else {
      config[field.name] = value
    }
  }
  if (status === 'active' && !input.keepFields) {
    const errors: GatewayFieldErrors = {}
    for (const field of fields.filter((f) => f.credential)) {
      // A secret stored under another APP_SECRET counts as not set, as checkout treats it.
      const unreadable =
        field.secret &&
        Boolean(secrets[field.name]) &&
        !readable(secrets[field.name]!, appSecret, id, field.name)
      const present = field.secret ? Boolean(secrets[field.name]) : Boolean(config[field.name])
      if (unreadable)
        errors[field.name] =
          `${field.label} was stored under another APP_SECRET: enter it again to make the gateway active`
      else if (!present)
        errors[field.name] = `${field.label} is required to make the gateway active`
    }
    if (Object.keys(errors).length) return { ok: false, errors }
  }
  const values = {
    name: input.name,
    status,
    config: JSON.stringify(config),
    secrets: JSON.stringify(secrets),
    updatedAt: at,
  }
  if (existing) {
    await db.updateTable('paymentGateway').set(values).where('id', '=', id).execute()
  } else {
    // Last in the checkout order: moveGateway numbers the records 0, 1, 2, ...
    const last = await db
      .selectFrom('paymentGateway')
      .select((eb) => eb.fn.max('position').as('position'))
      .executeTakeFirst()
    const position =
      last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1
    const inserted = await db
      .insertInto('paymentGateway')
      .values({ id, type, createdAt: at, position, ...values })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted)
      return {
        ok: false,
        errors: { type: `A ${GATEWAY_TYPE_LABELS[type]} gateway already exists; edit it instead.` },
      }
  }
  await record?.(db, {
    id,
    type,
    created: !existing,
    before,
    after: { name: input.name, status, ...config, ...secrets },
    secretFields: fields.filter((field) => field.secret).map((field) => field.name),
  })
  return { ok: true, id }
}

/** A gateway record as stored (secrets still encrypted). */
export interface GatewayRecord {
  id: string
  type: string
  status: GatewayStatus
  config: string
  secrets: string
}

/**
 * Every gateway record in the order checkout offers them (a handful of rows), in one read. The
 * settings readers below read them when not given them; a decision that looks at several
 * gateways (which ones checkout offers) reads them once and passes them on.
 */
export function readGatewayRecords(db: DB): Promise<GatewayRecord[]> {
  return db
    .selectFrom('paymentGateway')
    .select(['id', 'type', 'status', 'config', 'secrets'])
    .orderBy('position')
    .orderBy('createdAt')
    .orderBy('id')
    .execute()
}

/**
 * One stored gateway record for the server's own use: its status, its settings that are not
 * secret, and a reader that decrypts one secret field. A secret that cannot be decrypted (the
 * APP_SECRET it was stored under has changed) reads as null, as if it were not set, and the log
 * says where to enter it again (docs/payments.md, "Changing APP_SECRET").
 */
async function storedGateway(
  db: DB,
  type: 'paytm' | 'razorpay' | 'phonepe',
  appSecret: string,
  records?: readonly GatewayRecord[],
) {
  const row = (records ?? (await readGatewayRecords(db))).find((record) => record.type === type)
  if (!row) return null
  const secrets = parseObject(row.secrets)
  /** `label` names the field in the log line (the field's own name where none is given). */
  const read = (field: string, label = field): string | null => {
    if (!secrets[field]) return null
    try {
      return decryptSecret(secrets[field], appSecret, secretContext(row.id, field))
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error
      console.error(
        `[payments] the stored ${GATEWAY_TYPE_LABELS[type]} ${label} cannot be decrypted (was APP_SECRET changed?); enter it again on /admin/gateways`,
      )
      return null
    }
  }
  return { status: row.status, config: parseObject(row.config), read }
}

export interface PaytmGatewaySettings {
  status: GatewayStatus
  merchantId: string
  /** null when none is stored or it cannot be decrypted (APP_SECRET changed). */
  merchantKey: string | null
  website: string
  environment: 'staging' | 'production'
  callbackUrl: string
}

/** The stored Paytm gateway with its key decrypted, for the server's own use only. */
export async function paytmGatewaySettings(
  db: DB,
  appSecret: string,
  records?: readonly GatewayRecord[],
): Promise<PaytmGatewaySettings | null> {
  const stored = await storedGateway(db, 'paytm', appSecret, records)
  if (!stored) return null
  const { status, config, read } = stored
  return {
    status,
    merchantId: config.merchantId ?? '',
    merchantKey: read('merchantKey', 'merchant key'),
    website: config.website || 'WEBSTAGING',
    environment: config.environment === 'production' ? 'production' : 'staging',
    callbackUrl: config.callbackUrl ?? '',
  }
}

export interface RazorpayGatewaySettings {
  status: GatewayStatus
  keyId: string
  /** null when none is stored or it cannot be decrypted (APP_SECRET changed). */
  keySecret: string | null
  webhookSecret: string | null
}

/** The stored Razorpay gateway with its secrets decrypted, for the server's own use only. */
export async function razorpayGatewaySettings(
  db: DB,
  appSecret: string,
  records?: readonly GatewayRecord[],
): Promise<RazorpayGatewaySettings | null> {
  const stored = await storedGateway(db, 'razorpay', appSecret, records)
  if (!stored) return null
  const { status, config, read } = stored
  return {
    status,
    keyId: config.keyId ?? '',
    keySecret: read('keySecret'),
    webhookSecret: read('webhookSecret'),
  }
}

/** Status of the stored Razorpay record without decrypting anything (for the pages' CSP). */
export async function razorpayGatewayStatus(
  db: DB,
): Promise<{ status: GatewayStatus; hasKey: boolean } | null> {
  const row = await publicGatewayRow(db, 'razorpay')
  if (!row) return null
  return { status: row.status, hasKey: Boolean(parseObject(row.config).keyId) }
}

export interface PhonePeGatewaySettings {
  status: GatewayStatus
  clientId: string
  /** null when none is stored or it cannot be decrypted (APP_SECRET changed). */
  clientSecret: string | null
  clientVersion: string
  environment: 'sandbox' | 'production'
  webhookUsername: string
  webhookPassword: string | null
}

/** The stored PhonePe gateway with its secrets decrypted, for the server's own use only. */
export async function phonePeGatewaySettings(
  db: DB,
  appSecret: string,
  records?: readonly GatewayRecord[],
): Promise<PhonePeGatewaySettings | null> {
  const stored = await storedGateway(db, 'phonepe', appSecret, records)
  if (!stored) return null
  const { status, config, read } = stored
  return {
    status,
    clientId: config.clientId ?? '',
    clientSecret: read('clientSecret'),
    clientVersion: config.clientVersion || '1',
    environment: config.environment === 'production' ? 'production' : 'sandbox',
    webhookUsername: config.webhookUsername ?? '',
    webhookPassword: read('webhookPassword'),
  }
}

/** A move of the checkout order, for the audit log: the gateway ids before and after. */
export interface GatewayMove {
  before: string[]
  after: string[]
}

/**
 * Moves a gateway one place up or down in the order checkout offers them, renumbering every
 * record 0, 1, 2, ... in one transaction, with its audit entry (`record`, docs/audit.md).
 * Returns the order before and after, or null when the gateway is unknown or already first (up)
 * or last (down).
 */
export async function moveGateway(
  db: DB,
  id: string,
  direction: 'up' | 'down',
  now = new Date(),
  record?: (trx: DB, move: GatewayMove) => Promise<void>,
): Promise<GatewayMove | null> {
  return db.transaction().execute(async (trx) => {
    // A write first: two admins moving at the same time take turns (PostgreSQL's row locks).
    await trx
      .updateTable('paymentGateway')
      .set((eb) => ({ position: eb.ref('position') }))
      .execute()
    const rows = await trx
      .selectFrom('paymentGateway')
      .select('id')
      .orderBy('position')
      .orderBy('createdAt')
      .orderBy('id')
      .execute()
    const before = rows.map((row) => row.id)
    const index = before.indexOf(id)
    const other = direction === 'up' ? index - 1 : index + 1
    if (index < 0 || other < 0 || other >= before.length) return null
    const after = [...before]
    ;[after[index], after[other]] = [after[other]!, after[index]!]
    const at = now.toISOString()
    for (const [position, gatewayId] of after.entries()) {
      await trx
        .updateTable('paymentGateway')
        .set({ position, updatedAt: at })
        .where('id', '=', gatewayId)
        .execute()
    }
    await record?.(trx, { before, after })
    return { before, after }
  })
}

/**
 * Whether the Gateways page holds a real gateway: a record with a merchant id (Paytm), key id
 * (Razorpay) or client id (PhonePe), even one switched off for now: a shop whose owner entered
 * real credentials is no fresh install. Read without decrypting secrets.
 */
export async function storedRealGateway(
  db: DB,
  records?: readonly GatewayRecord[],
): Promise<boolean> {
  return (records ?? (await readGatewayRecords(db))).some((row) => {
    const config = parseObject(row.config)
    return Boolean(config.merchantId || config.keyId || config.clientId)
  })
}
