import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { PRIVATE_DIR_MODE } from './data-dir.server'

/**
 * Configuration comes only from the environment and is checked once at start-up.
 * A bad value stops the process with one line naming the variable (ConfigError),
 * never a stack trace.
 */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** S3-compatible storage, when STORAGE_S3_BUCKET is set (used by s3.server.ts). */
export interface S3Config {
  /** http(s)://host[:port] of the S3 API (no bucket in it). */
  endpoint: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  region: string
  /** Where browsers can read objects directly (a CDN or public bucket URL), if anywhere. */
  publicUrl?: string
}

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value

const optionalText = z.preprocess(emptyToUndefined, z.string().trim().optional())

const flag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
      error: 'must be one of 1, 0, true, false, yes, no, on, off',
    })
    .transform((value) => ['1', 'true', 'yes', 'on'].includes(value))
    .optional(),
)

const httpUrl = (what: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: `must be an http(s) URL ${what}` })
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
  )

/**
 * Whether MAIL_FROM names a sender address: `orders@shop.example.in`, or a name and one in angle
 * brackets (`Shop <orders@shop.example.in>`). Without one, nodemailer sends every mail with no
 * From header and an empty envelope sender, which mail providers refuse or file as spam.
 */
function hasSenderAddress(value: string): boolean {
  const address = /<([^<>]*)>$/.exec(value)?.[1] ?? value
  return z.email().safeParse(address.trim()).success
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** An entry Express's 'trust proxy' accepts: a named range, an address, or address/prefix (or /netmask). */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true
  const [address = '', range, ...rest] = entry.split('/')
  const family = net.isIP(address)
  if (!family || rest.length) return false
  if (range === undefined) return true
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128)
  return family === 4 && net.isIPv4(range)
}

const TRUST_PROXY_ERROR =
  'must be a number of proxies (such as 1), loopback, linklocal, uniquelocal, or comma-separated IP addresses or CIDR ranges'

/**
 * Which proxies may set X-Forwarded-For (the client address rate limits count). Unset: none, so
 * the address is the socket's. `true` is refused: it would believe any client's header.
 */
const trustProxy = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx): false | number | string[] => {
      if (value === undefined || value === 'false' || value === '0') return false
      if (/^\d{1,3}$/.test(value)) return Number(value)
      const entries = value.split(',').map((entry) => entry.trim())
      if (entries.every(isProxyEntry)) return entries
      ctx.addIssue({ code: 'custom', message: TRUST_PROXY_ERROR })
      return z.NEVER
    }),
)

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'must be development, production or test',
    })
    .default('production'),
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a port number from 1 to 65535' })
      .int({ error: 'must be a port number from 1 to 65535' })
      .min(1, { error: 'must be a port number from 1 to 65535' })
      .max(65535, { error: 'must be a port number from 1 to 65535' })
      .default(3000),
  ),
  HOST: z.preprocess(emptyToUndefined, z.string().trim().default('0.0.0.0')),
  /**
   * How many server processes `npm start` runs: one per core by default. 1 runs a single
   * process with no cluster primary (server/cluster.ts).
   */
  WEB_CONCURRENCY: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a whole number of processes from 1 to 256' })
      .int({ error: 'must be a whole number of processes from 1 to 256' })
      .min(1, { error: 'must be a whole number of processes from 1 to 256' })
      .max(256, { error: 'must be a whole number of processes from 1 to 256' })
      .default(() => os.availableParallelism()),
  ),
  /**
   * Tests only: every answer names the process that served it (X-Worker-Pid), so a test can
   * see the requests spread over the workers. Off by default: a process id is nobody's business.
   */
  EXPOSE_WORKER_PID: flag,
  PUBLIC_URL: httpUrl('such as https://shop.example.in'),
  TRUST_PROXY: trustProxy,
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().trim().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^postgres(ql)?:\/\/.+/, {
        error: 'must be a postgres:// URL (leave it unset to use the embedded SQLite database)',
      })
      .optional(),
  ),
  APP_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters long' }).optional(),
  ),
  ADMIN_EMAILS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.email({ error: 'must be a comma-separated list of e-mail addresses' }))),
  ),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\/.+/, { error: 'must be an smtp:// or smtps:// URL' })
      .optional(),
  ),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .refine(hasSenderAddress, {
        error:
          'must be an e-mail address, or a name and one such as "Shop <orders@shop.example.in>"',
      })
      .optional(),
  ),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_ISSUER: httpUrl('(the OpenID issuer; only for tests)'),
  PAYTM_MID: z.preprocess(
    emptyToUndefined,
    z.string().max(20, { error: 'must be at most 20 characters' }).optional(),
  ),
  PAYTM_MERCHANT_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .length(16, { error: 'must be exactly 16 characters (the Paytm merchant key)' })
      .optional(),
  ),
  PAYTM_WEBSITE: optionalText,
  PAYTM_HOST: httpUrl('such as https://securegw-stage.paytm.in'),
  /** Serve the built-in Paytm simulator's test controls (/__control) outside NODE_ENV=test. */
  PAYTM_SIMULATOR_CONTROL: flag,
  /** Razorpay's key id, secret and webhook secret; when set they win over the Gateways page. */
  RAZORPAY_KEY_ID: optionalText,
  RAZORPAY_KEY_SECRET: optionalText,
  RAZORPAY_WEBHOOK_SECRET: optionalText,
  /** Razorpay's API host (https://api.razorpay.com), or a simulator's base URL. */
  RAZORPAY_HOST: httpUrl('such as https://api.razorpay.com'),
  /** PhonePe's client credentials and webhook credentials; when set they win over the Gateways page. */
  PHONEPE_CLIENT_ID: optionalText,
  PHONEPE_CLIENT_SECRET: optionalText,
  PHONEPE_CLIENT_VERSION: optionalText,
  PHONEPE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['sandbox', 'production'], { error: 'must be sandbox or production' }).optional(),
  ),
  PHONEPE_WEBHOOK_USERNAME: optionalText,
  PHONEPE_WEBHOOK_PASSWORD: optionalText,
  /** One base URL for PhonePe's payment and token APIs (a simulator); PHONEPE_ENV's hosts otherwise. */
  PHONEPE_HOST: httpUrl('such as http://127.0.0.1:4300'),
  SEED_DEMO: flag,
  /**
   * PostgreSQL runs the app's repeated statements prepared (app/lib/pg-statements.server.ts);
   * DATABASE_PREPARED_STATEMENTS=off for a connection pooler that cannot keep them.
   */
  DATABASE_PREPARED_STATEMENTS: flag,
  /** Send each response's number of database queries in X-Query-Count (tests). */
  QUERY_COUNT_HEADER: flag,
  /**
   * The page cache (docs/page-cache.md): anonymous storefront pages from memory. On unless
   * PAGE_CACHE=off; PAGE_CACHE_MB bounds its memory per process.
   */
  PAGE_CACHE: flag,
  PAGE_CACHE_MB: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number of megabytes from 1 to 4096' })
      .int({ error: 'must be a number of megabytes from 1 to 4096' })
      .min(1, { error: 'must be a number of megabytes from 1 to 4096' })
      .max(4096, { error: 'must be a number of megabytes from 1 to 4096' })
      .default(32),
  ),
  /**
   * How long a process holds a background job it took (mail, payment checks). A job held by a
   * process that died is taken again when this runs out. Longer than any job takes.
   */
  JOB_LEASE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number of seconds from 10 to 3600' })
      .int({ error: 'must be a number of seconds from 10 to 3600' })
      .min(10, { error: 'must be a number of seconds from 10 to 3600' })
      .max(3600, { error: 'must be a number of seconds from 10 to 3600' })
      .default(300),
  ),
  /** S3-compatible storage for uploads (all four of endpoint, bucket and keys, or none). */
  STORAGE_S3_ENDPOINT: httpUrl('such as https://s3.ap-south-1.amazonaws.com'),
  STORAGE_S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
        error: 'must be a bucket name (3-63 lowercase letters, digits, dots and hyphens)',
      })
      .optional(),
  ),
  STORAGE_S3_ACCESS_KEY_ID: optionalText,
  STORAGE_S3_SECRET_ACCESS_KEY: optionalText,
  STORAGE_S3_REGION: optionalText,
  STORAGE_S3_PUBLIC_URL: httpUrl(
    'such as https://cdn.example.in (where browsers can read the bucket)',
  ),
})

export type Env = Omit<z.output<typeof envSchema>, 'DATA_DIR' | 'PUBLIC_URL' | 'APP_SECRET'> & {
  /** Absolute path. */
  DATA_DIR: string
  PUBLIC_URL: string
  APP_SECRET: string
  /** Where APP_SECRET came from, for the start-up log. */
  appSecretSource: 'environment' | 'generated' | 'file'
  /** S3-compatible storage, when STORAGE_S3_* are set; otherwise uploads stay on local disk. */
  storageS3?: S3Config
}

/** Parses and checks the environment; throws ConfigError with one readable line. */
export function parseEnv(
  source: NodeJS.ProcessEnv = process.env,
): Omit<Env, 'APP_SECRET' | 'appSecretSource'> & { APP_SECRET?: string } {
  const result = envSchema.safeParse(source)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment')
      const raw = source[name]
      const shown =
        raw === undefined
          ? ''
          : ` (got "${name.includes('SECRET') || name.includes('KEY') ? '***' : raw}")`
      return `${name} ${issue.message}${shown}`
    })
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`)
  }
  const env = result.data
  // Several app servers on one PostgreSQL must share the secret, so a deployment that says
  // NODE_ENV=production must give it; a plain `npm start` on PostgreSQL generates one as on SQLite
  // (server.js sets NODE_ENV=production for the libraries then, and says so in NODE_ENV_DEFAULTED).
  const saidProduction = source.NODE_ENV === 'production' && source.NODE_ENV_DEFAULTED !== '1'
  if (saidProduction && env.DATABASE_URL && !env.APP_SECRET) {
    throw new ConfigError(
      'Invalid configuration: APP_SECRET is required when NODE_ENV=production and DATABASE_URL is set (every app server must share it); generate one with: openssl rand -hex 32',
    )
  }
  if (Boolean(env.PAYTM_MID) !== Boolean(env.PAYTM_MERCHANT_KEY)) {
    throw new ConfigError(
      'Invalid configuration: PAYTM_MID and PAYTM_MERCHANT_KEY must be set together (leave both unset to use the built-in Paytm simulator)',
    )
  }
  if (Boolean(env.RAZORPAY_KEY_ID) !== Boolean(env.RAZORPAY_KEY_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET must be set together',
    )
  }
  if (Boolean(env.PHONEPE_CLIENT_ID) !== Boolean(env.PHONEPE_CLIENT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: PHONEPE_CLIENT_ID and PHONEPE_CLIENT_SECRET must be set together',
    )
  }
  const s3 = [
    env.STORAGE_S3_ENDPOINT,
    env.STORAGE_S3_BUCKET,
    env.STORAGE_S3_ACCESS_KEY_ID,
    env.STORAGE_S3_SECRET_ACCESS_KEY,
  ]
  if (s3.some(Boolean) && !s3.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration: STORAGE_S3_ENDPOINT, STORAGE_S3_BUCKET, STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY must be set together (leave all unset to keep uploads on local disk)',
    )
  }
  const storageS3: S3Config | undefined =
    env.STORAGE_S3_ENDPOINT &&
    env.STORAGE_S3_BUCKET &&
    env.STORAGE_S3_ACCESS_KEY_ID &&
    env.STORAGE_S3_SECRET_ACCESS_KEY
      ? {
          endpoint: env.STORAGE_S3_ENDPOINT,
          bucket: env.STORAGE_S3_BUCKET,
          accessKeyId: env.STORAGE_S3_ACCESS_KEY_ID,
          secretAccessKey: env.STORAGE_S3_SECRET_ACCESS_KEY,
          region: env.STORAGE_S3_REGION ?? 'us-east-1',
          ...(env.STORAGE_S3_PUBLIC_URL ? { publicUrl: env.STORAGE_S3_PUBLIC_URL } : {}),
        }
      : undefined
  return {
    ...env,
    ...(storageS3 ? { storageS3 } : {}),
    DATA_DIR: path.resolve(env.DATA_DIR),
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  }
}

/**
 * Returns APP_SECRET from the environment, or the one generated into DATA_DIR/secret
 * on first start (created with mode 0600 and reused after).
 */
export function resolveAppSecret(
  dataDir: string,
  fromEnv: string | undefined,
): { secret: string; source: Env['appSecretSource'] } {
  if (fromEnv) return { secret: fromEnv, source: 'environment' }
  const file = path.join(dataDir, 'secret')
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE })
  try {
    const existing = fs.readFileSync(file, 'utf8').trim()
    if (existing.length >= 32) return { secret: existing, source: 'file' }
    throw new ConfigError(
      `Invalid configuration: ${file} holds a secret shorter than 32 characters`,
    )
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const secret = crypto.randomBytes(32).toString('hex')
  try {
    // 'wx' fails if another process created the file meanwhile; then theirs wins.
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
    return { secret, source: 'generated' }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return { secret: fs.readFileSync(file, 'utf8').trim(), source: 'file' }
  }
}

let current: Env | undefined

/** Loads the configuration once per process (parse, then resolve the secret). */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = parseEnv(source)
  const { secret, source: secretSource } = resolveAppSecret(parsed.DATA_DIR, parsed.APP_SECRET)
  current = { ...parsed, APP_SECRET: secret, appSecretSource: secretSource }
  return current
}

/** The configuration loaded at start-up (loads it on first use). */
export function getEnv(): Env {
  return current ?? loadEnv()
}
