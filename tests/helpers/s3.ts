import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'

/**
 * A small S3-compatible server for tests: path-style objects (`/{bucket}/{key}`) in memory,
 * PUT, GET, HEAD and DELETE, and ListObjectsV2 (`GET /{bucket}?list-type=2`: prefix, max-keys,
 * continuation-token; keys in order, each page's token opaque). Every request's AWS Signature Version 4 is checked with this
 * file's own implementation of the algorithm (not the app's), and requests with a wrong
 * signature get S3's 403 SignatureDoesNotMatch. Scripted failures show retries.
 */
export interface FakeS3 {
  url: string
  bucket: string
  objects: Map<string, { body: Buffer; contentType: string; modified: Date }>
  /** Statuses to answer (in order) before handling requests normally; 'drop' closes the socket. */
  failures: Array<number | 'drop'>
  /** Each request as it came; `query` only when it had one (listings). */
  requests: Array<{ method: string; path: string; signed: boolean; query?: string }>
  close(): Promise<void>
}

export interface FakeS3Options {
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** Listen on this host (default 127.0.0.1). */
  host?: string
}

const hmac = (key: crypto.BinaryLike, data: string) =>
  crypto.createHmac('sha256', key).update(data).digest()
const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex')

// S3 accepts the three parts separated by a comma with or without a space; signers differ.
const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/

/** Checks a request's SigV4 Authorization header against the body that arrived. */
export function verifySigV4(
  req: http.IncomingMessage,
  body: Buffer,
  credentials: { accessKeyId: string; secretAccessKey: string },
): boolean {
  const match = AUTHORIZATION.exec(req.headers.authorization ?? '')
  if (!match) return false
  const [, accessKey, day, region, signedHeaders, signature] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ]
  if (accessKey !== credentials.accessKeyId) return false
  // The body must be the one that was signed.
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '')
  if (payloadHash !== sha256(body)) return false
  const date = String(req.headers['x-amz-date'] ?? '')
  if (!date.startsWith(day)) return false
  const names = signedHeaders.split(';')
  if (!['host', 'x-amz-date', 'x-amz-content-sha256'].every((name) => names.includes(name)))
    return false

  const [rawPath = '/', rawQuery = ''] = (req.url ?? '/').split('?')
  const canonical = [
    req.method,
    rawPath,
    rawQuery
      .split('&')
      .filter(Boolean)
      .map((pair) => (pair.includes('=') ? pair : `${pair}=`))
      .sort()
      .join('&'),
    names.map((name) => `${name}:${String(req.headers[name] ?? '').trim()}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n')
  const scope = `${day}/${region}/s3/aws4_request`
  const toSign = `AWS4-HMAC-SHA256\n${date}\n${scope}\n${sha256(canonical)}`
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), 's3'),
    'aws4_request',
  )
  const expected = crypto.createHmac('sha256', key).update(toSign).digest('hex')
  return crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
}

export async function startFakeS3(options: FakeS3Options): Promise<FakeS3> {
  const objects: FakeS3['objects'] = new Map()
  const failures: FakeS3['failures'] = []
  const requests: FakeS3['requests'] = []
  const xml = (code: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`
  const XML_ESCAPES: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  }
  const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c)
  /** ListObjectsV2 over the objects in memory; the token is the last key given, encoded. */
  const listing = (query: URLSearchParams) => {
    const prefix = query.get('prefix') ?? ''
    const maxKeys = Math.min(1000, Number(query.get('max-keys') ?? 1000))
    const token = query.get('continuation-token')
    const after = token ? Buffer.from(token, 'base64').toString('utf8') : ''
    const keys = [...objects.keys()]
      .filter((key) => key.startsWith(prefix) && key > after)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    const page = keys.slice(0, maxKeys)
    const truncated = keys.length > page.length
    const next = truncated
      ? `<NextContinuationToken>${escapeXml(Buffer.from(page.at(-1) ?? '').toString('base64'))}</NextContinuationToken>`
      : ''
    const contents = page
      .map((key) => {
        const object = objects.get(key)!
        return `<Contents><Key>${escapeXml(key)}</Key><LastModified>${object.modified.toISOString()}</LastModified><ETag>&quot;${sha256(object.body).slice(0, 32)}&quot;</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`
      })
      .join('')
    return `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${options.bucket}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${token ? `<ContinuationToken>${escapeXml(token)}</ContinuationToken>` : ''}${contents}${next}</ListBucketResult>`
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const [path = '/', query = ''] = (req.url ?? '/').split('?')
      const signed = verifySigV4(req, body, options)
      requests.push({ method: req.method ?? '', path, signed, ...(query ? { query } : {}) })
      const failure = failures.shift()
      if (failure === 'drop') return req.socket.destroy()
      if (failure) return res.writeHead(failure).end()
      if (!signed)
        return res
          .writeHead(403, { 'Content-Type': 'application/xml' })
          .end(xml('SignatureDoesNotMatch'))
      const prefix = `/${options.bucket}/`
      const params = new URLSearchParams(query)
      if (req.method === 'GET' && (path === prefix || path === prefix.slice(0, -1))) {
        if (params.get('list-type') !== '2') return res.writeHead(501).end(xml('NotImplemented'))
        return res.writeHead(200, { 'Content-Type': 'application/xml' }).end(listing(params))
      }
      if (!path.startsWith(prefix))
        return res.writeHead(404, { 'Content-Type': 'application/xml' }).end(xml('NoSuchBucket'))
      const key = decodeURIComponent(path.slice(prefix.length))
      const object = objects.get(key)
      switch (req.method) {
        case 'PUT':
          objects.set(key, {
            body,
            contentType: String(req.headers['content-type'] ?? ''),
            modified: new Date(),
          })
          return res.writeHead(200, { ETag: `"${sha256(body).slice(0, 32)}"` }).end()
        case 'GET':
        case 'HEAD':
          if (!object) {
            res.writeHead(404, { 'Content-Type': 'application/xml' })
            return res.end(req.method === 'GET' ? xml('NoSuchKey') : undefined)
          }
          res.writeHead(200, {
            'Content-Type': object.contentType,
            'Content-Length': object.body.length,
            'Last-Modified': object.modified.toUTCString(),
          })
          return res.end(req.method === 'GET' ? object.body : undefined)
        case 'DELETE':
          objects.delete(key)
          return res.writeHead(204).end()
        default:
          return res.writeHead(405).end()
      }
    })
  })
  await new Promise<void>((resolve) =>
    server.listen(0, options.host ?? '127.0.0.1', () => resolve()),
  )
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    bucket: options.bucket,
    objects,
    failures,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/**
 * A third-party S3-compatible server (@20minutes/s3rver, the maintained fork of s3rver that
 * verifies Signature Version 4), in this process on a free port, storing objects in a
 * temporary directory. It shares no code with the app's signer or with the fake above, so
 * a signing mistake made the same way on both sides cannot pass here.
 * Its one account's keys are fixed by the server: S3RVER / S3RVER.
 */
export interface ThirdPartyS3 {
  url: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  close(): Promise<void>
}

export async function startS3rver(options: { bucket: string }): Promise<ThirdPartyS3> {
  const { default: S3rver } = await import('@20minutes/s3rver')
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'kb-s3rver-'))
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: options.bucket }],
  })
  const { port } = await server.run()
  return {
    url: `http://127.0.0.1:${port}`,
    bucket: options.bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async close() {
      await server.close()
      await fs.rm(directory, { recursive: true, force: true })
    },
  }
}
