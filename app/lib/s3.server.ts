import crypto from 'node:crypto'
import { AwsV4Signer } from 'aws4fetch'
import { IMAGES_PATH_PREFIX } from './images'
import type { S3Config } from './env.server'
import {
  assertSafeKey,
  assertSafePrefix,
  statCache,
  type Storage,
  type StoredFile,
} from './storage.server'

export type { S3Config }

/**
 * S3-compatible object storage (AWS S3, Cloudflare R2, MinIO, Backblaze B2, DigitalOcean
 * Spaces, ...): path-style requests (endpoint/bucket/key) signed with AWS Signature Version 4
 * by `aws4fetch`, sent with fetch. Why that library and not the AWS SDK:
 * docs/decisions/0010-infrastructure-libraries.md.
 *
 * Retries follow the original's storage client: 5xx, 408 and 429 and network failures are
 * retried with exponential backoff and jitter, each wait capped at 64 s, until the operation's
 * deadline (2 minutes; 10 minutes for uploads). 401, 402, 403 and 404 become StorageError
 * codes unauthenticated, quota-exceeded, unauthorized, object-not-found. aws4fetch's own
 * retry loop is not used: its waits and deadline are not these.
 */

// ---------------------------------------------------------------------------------------
// Errors and retries

export type StorageErrorCode =
  | 'object-not-found'
  | 'unauthenticated'
  | 'unauthorized'
  | 'quota-exceeded'
  | 'retry-limit-exceeded'
  | 'unknown'

export class StorageError extends Error {
  override name = 'StorageError'
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message)
  }
}

export function storageErrorCode(status: number): StorageErrorCode {
  if (status === 401) return 'unauthenticated'
  if (status === 402) return 'quota-exceeded'
  if (status === 403) return 'unauthorized'
  if (status === 404) return 'object-not-found'
  return 'unknown'
}

export const isRetryableStatus = (status: number) =>
  status >= 500 || status === 408 || status === 429

export interface RetryPolicy {
  /** The whole operation's budget (2 minutes). */
  operationMs: number
  /** An upload's budget (10 minutes). */
  uploadMs: number
  /** The longest single wait (64 seconds). */
  maxBackoffMs: number
  /** The first wait; doubled after each failure. */
  initialBackoffMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  operationMs: 2 * 60_000,
  uploadMs: 10 * 60_000,
  maxBackoffMs: 64_000,
  initialBackoffMs: 1_000,
}

/** The wait before retry number `attempt` (0-based): 1 s, 2 s, 4 s, ... plus up to 1 s of jitter, never above the cap. */
export function backoffMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = policy.initialBackoffMs * 2 ** Math.min(attempt, 30)
  return Math.min(policy.maxBackoffMs, exponential + Math.floor(random() * policy.initialBackoffMs))
}

// ---------------------------------------------------------------------------------------
// Signing

/** 20130524T000000Z, the form x-amz-date and the signer take. */
const amzDate = (date: Date) => date.toISOString().replace(/[-:]|\.\d{3}/g, '')

/**
 * The headers to send for one S3 request, Authorization included. The payload's SHA-256 is
 * signed (x-amz-content-sha256) rather than UNSIGNED-PAYLOAD, aws4fetch's default for S3, so
 * the server refuses a body that changed on the way.
 */
export async function signS3Request(
  request: { method: string; url: URL; headers?: Record<string, string>; body?: Uint8Array },
  credentials: Pick<S3Config, 'accessKeyId' | 'secretAccessKey' | 'region'>,
  date: Date,
): Promise<Headers> {
  const payloadHash = crypto
    .createHash('sha256')
    .update(request.body ?? new Uint8Array())
    .digest('hex')
  const signer = new AwsV4Signer({
    method: request.method,
    url: request.url.toString(),
    headers: { ...request.headers, 'x-amz-content-sha256': payloadHash },
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    region: credentials.region,
    service: 's3',
    datetime: amzDate(date),
  })
  return (await signer.sign()).headers
}

// ---------------------------------------------------------------------------------------
// The client

export interface S3ClientOptions {
  retry?: Partial<RetryPolicy>
  /** Injectable for tests (a fake clock that sleep advances). */
  sleep?: (ms: number) => Promise<void>
  /** The clock for request dates and the operation's deadline. */
  now?: () => Date
  random?: () => number
  fetch?: typeof fetch
}

export interface S3Object {
  body: Buffer
  contentType: string | null
}

export interface S3Head {
  size: number
  modifiedMs: number
  contentType: string | null
}

/** One page of a bucket listing (ListObjectsV2). */
export interface S3ListPage {
  /** The objects of the page in key order; `modifiedMs` is NaN when the server gave no date. */
  objects: StoredFile[]
  /** The token that asks for the next page, or null on the last one. */
  nextContinuationToken: string | null
}

export interface S3Client {
  putObject(
    key: string,
    body: Buffer,
    contentType: string,
    extraHeaders?: Record<string, string>,
  ): Promise<void>
  getObject(key: string): Promise<S3Object>
  /** null when there is no such object. */
  headObject(key: string): Promise<S3Head | null>
  /** Succeeds when the object is gone (deleting a missing object is not an error). */
  deleteObject(key: string): Promise<void>
  /** One page (at most `maxKeys`, 1,000 by default) of the objects whose keys start with `prefix`. */
  listObjectsPage(
    prefix: string,
    options?: { continuationToken?: string; maxKeys?: number },
  ): Promise<S3ListPage>
  /** Every object whose key starts with `prefix`, in key order, asking for the pages as it goes. */
  listObjects(prefix: string, options?: { pageSize?: number }): AsyncGenerator<StoredFile>
  objectUrl(key: string): URL
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Storage keys are checked by assertSafeKey; each path segment is still percent-encoded. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/')

/** Percent-encoding as Signature Version 4 does it (RFC 3986: also ! ' ( ) *). */
const encodeRfc3986 = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )

/**
 * A query string in the form SigV4 signs it (each name and value RFC 3986 encoded, sorted by
 * name), so what is sent is exactly what was signed, whichever way the server rebuilds it.
 */
export function canonicalQueryString(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
}

const XML_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
}

/** The text of an XML element's content: entities and character references decoded. */
function xmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X'))
      return String.fromCodePoint(parseInt(entity.slice(2), 16))
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10))
    return XML_ENTITIES[entity] ?? whole
  })
}

/**
 * Reads a ListObjectsV2 answer (ListBucketResult): each Contents' Key, Size and LastModified,
 * and NextContinuationToken while IsTruncated is true. A listing said to go on without a token
 * to ask for the rest is an error, not a short listing.
 */
export function parseListObjectsV2(xml: string): S3ListPage {
  const element = (within: string, name: string) =>
    new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(within)?.[1]
  const objects: StoredFile[] = []
  for (const [, contents = ''] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
    const key = element(contents, 'Key')
    if (key === undefined) continue
    objects.push({
      key: xmlText(key),
      size: Number(element(contents, 'Size') ?? 0),
      modifiedMs: Date.parse(element(contents, 'LastModified') ?? ''),
    })
  }
  const truncated = element(xml, 'IsTruncated')?.trim().toLowerCase() === 'true'
  const token = element(xml, 'NextContinuationToken')
  if (truncated && !token)
    throw new StorageError('unknown', 'S3 listing is truncated but gave no continuation token')
  return { objects, nextContinuationToken: truncated && token ? xmlText(token) : null }
}

export function createS3Client(config: S3Config, options: S3ClientOptions = {}): S3Client {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry }
  const sleep = options.sleep ?? defaultSleep
  const now = options.now ?? (() => new Date())
  const doFetch = options.fetch ?? fetch
  const endpoint = config.endpoint.replace(/\/+$/, '')

  function objectUrl(key: string): URL {
    assertSafeKey(key)
    return new URL(`${endpoint}/${encodeURIComponent(config.bucket)}/${encodeKey(key)}`)
  }

  /** The bucket's own URL with a query (listings). */
  function bucketUrl(query: string): URL {
    return new URL(`${endpoint}/${encodeURIComponent(config.bucket)}?${query}`)
  }

  function send(
    method: 'GET' | 'PUT' | 'HEAD' | 'DELETE',
    key: string,
    body?: Buffer,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    return sendTo(method, objectUrl(key), key, body, extraHeaders)
  }

  /** One request with the retries and deadline above; `label` names it in errors. */
  async function sendTo(
    method: 'GET' | 'PUT' | 'HEAD' | 'DELETE',
    url: URL,
    label: string,
    body?: Buffer,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const payload = body ? new Uint8Array(body) : undefined
    const budget = method === 'PUT' ? policy.uploadMs : policy.operationMs
    const started = now().getTime()
    const elapsed = () => now().getTime() - started
    let lastProblem = ''
    for (let attempt = 0; ; attempt += 1) {
      const remaining = budget - elapsed()
      if (remaining <= 0) break
      try {
        // Signed afresh on every attempt: the date is part of the signature.
        const headers = await signS3Request(
          { method, url, headers: extraHeaders, body: payload },
          config,
          now(),
        )
        const response = await doFetch(url, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(remaining),
        })
        if (!isRetryableStatus(response.status)) return response
        lastProblem = `HTTP ${response.status}`
        await response.body?.cancel()
      } catch (error) {
        // Network failures and the attempt's timeout are retried like a 5xx.
        lastProblem = error instanceof Error ? error.message : String(error)
      }
      const wait = backoffMs(attempt, policy, options.random)
      if (elapsed() + wait >= budget) break
      await sleep(wait)
    }
    throw new StorageError(
      'retry-limit-exceeded',
      `S3 ${method} ${label} kept failing (${lastProblem || 'timed out'})`,
    )
  }

  async function fail(response: Response, method: string, key: string): Promise<never> {
    const detail = (await response.text().catch(() => '')).match(/<Code>([^<]+)<\/Code>/)?.[1]
    throw new StorageError(
      storageErrorCode(response.status),
      `S3 ${method} ${key} failed: HTTP ${response.status}${detail ? ` ${detail}` : ''}`,
      response.status,
    )
  }
  async function listObjectsPage(
    prefix: string,
    pageOptions: { continuationToken?: string; maxKeys?: number } = {},
  ): Promise<S3ListPage> {
    assertSafePrefix(prefix)
    const label = `list ${prefix}`
    const url = bucketUrl(
      canonicalQueryString({
        'list-type': '2',
        prefix,
        'max-keys': String(pageOptions.maxKeys ?? 1000),
        ...(pageOptions.continuationToken
          ? { 'continuation-token': pageOptions.continuationToken }
          : {}),
      }),
    )
    const response = await sendTo('GET', url, label)
    if (!response.ok) await fail(response, 'GET', label)
    return parseListObjectsV2(await response.text())
  }

  return {
    objectUrl,
    async putObject(key, body, contentType, extraHeaders = {}) {
      const response = await send('PUT', key, body, {
        'content-type': contentType,
        ...extraHeaders,
      })
      if (!response.ok) await fail(response, 'PUT', key)
      await response.body?.cancel()
    },
    async getObject(key) {
      const response = await send('GET', key)
      if (!response.ok) await fail(response, 'GET', key)
      return {
        body: Buffer.from(await response.arrayBuffer()),
        contentType: response.headers.get('content-type'),
      }
    },
    async headObject(key) {
      const response = await send('HEAD', key)
      if (response.status === 404) return null
      if (!response.ok) await fail(response, 'HEAD', key)
      const modified = Date.parse(response.headers.get('last-modified') ?? '')
      return {
        size: Number(response.headers.get('content-length') ?? 0),
        modifiedMs: Number.isNaN(modified) ? 0 : modified,
        contentType: response.headers.get('content-type'),
      }
    },
    async deleteObject(key) {
      const response = await send('DELETE', key)
      if (!response.ok && response.status !== 404) await fail(response, 'DELETE', key)
      await response.body?.cancel()
    },
    listObjectsPage,
    async *listObjects(prefix, listOptions = {}) {
      let continuationToken: string | undefined
      do {
        const page = await listObjectsPage(prefix, {
          continuationToken,
          maxKeys: listOptions.pageSize,
        })
        yield* page.objects
        continuationToken = page.nextContinuationToken ?? undefined
      } while (continuationToken)
    },
  }
}

// ---------------------------------------------------------------------------------------
// Storage over S3

/** How long a HEAD answer is reused: pages stat every image they show (see images.server.ts). */
const STAT_CACHE_MS = 30_000

/**
 * The Storage interface over an S3 bucket. Object keys are the storage keys. Stored keys are
 * never overwritten with other content (uploads get new names), so caching HEAD answers
 * briefly in this process is safe; writes and deletes here forget them at once.
 */
export function createS3Storage(
  config: S3Config,
  options: S3ClientOptions = {},
): Storage & { client: S3Client } {
  const client = createS3Client(config, options)
  const stats = statCache(async (key) => {
    const head = await client.headObject(key)
    return head ? { size: head.size, modifiedMs: head.modifiedMs } : null
  }, STAT_CACHE_MS)
  const stat = stats.stat
  const publicUrl = config.publicUrl?.replace(/\/+$/, '')

  return {
    client,
    async put(key, body, contentType) {
      stats.forget(key)
      // Keys are unique per upload, so browsers and CDNs may keep them for good.
      await client.putObject(key, body, contentType, {
        'cache-control': 'public, max-age=31536000, immutable',
      })
      stats.forget(key)
    },
    async delete(key) {
      stats.forget(key)
      await client.deleteObject(key)
    },
    async exists(key) {
      return (await stat(key)) !== null
    },
    stat,
    async read(key) {
      return (await client.getObject(key)).body
    },
    url(key) {
      assertSafeKey(key)
      // Without a public URL, browsers get the image through the app (/images/<key>, WebP).
      return publicUrl ? `${publicUrl}/${encodeKey(key)}` : `${IMAGES_PATH_PREFIX}${key}`
    },
    list(prefix) {
      return client.listObjects(prefix)
    },
  }
}
