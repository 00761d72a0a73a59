import http from 'node:http'
import https from 'node:https'

/**
 * `fetch` for the gateways' server-to-server APIs (Paytm's status API, Razorpay's orders and
 * payments, PhonePe's token, pay and status), on Node's own HTTP client with kept-alive
 * connections.
 *
 * Node's global `fetch` (undici) builds a Request, a fetch controller, web streams and a
 * WebAssembly HTTP parser for every call: about half a millisecond of CPU for a small JSON
 * answer, against about a tenth here (bench/README.md, "Checkout"). A checkout makes one or two
 * such calls.
 *
 * It does what those calls need and no more:
 * - the URL as a string or URL; the method; headers as an object or Headers; a string or
 *   URLSearchParams body. Anything else goes to the global fetch.
 * - the whole answer is read before the Response is returned (they are small JSON documents);
 * - redirects are not followed and nothing is decompressed (no Accept-Encoding is sent): a
 *   gateway API answers directly;
 * - an aborted signal rejects with its reason, as fetch does (AbortSignal.timeout's
 *   TimeoutError), and a network error rejects with TypeError('fetch failed', { cause }).
 */
export const gatewayFetch: typeof fetch = (input, init = {}) => {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined
  const body = init.body
  const plainBody =
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof URLSearchParams
  if (!url || !plainBody || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return globalThis.fetch(input, init)

  const headers: Record<string, string> = {}
  new Headers(init.headers).forEach((value, name) => (headers[name] = value))
  let payload: string | undefined
  if (body instanceof URLSearchParams) {
    payload = body.toString()
    headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8'
  } else if (typeof body === 'string') {
    payload = body
    headers['content-type'] ??= 'text/plain;charset=UTF-8'
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload))

  const signal = init.signal ?? undefined
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const secure = url.protocol === 'https:'
    const request = (secure ? https : http).request(
      url,
      { method: init.method ?? 'GET', headers, agent: secure ? httpsAgent : httpAgent },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.once('error', fail)
        answer.once('end', () => {
          signal?.removeEventListener('abort', abort)
          const status = answer.statusCode ?? 0
          const responseHeaders = new Headers()
          const raw = answer.rawHeaders
          for (let i = 0; i + 1 < raw.length; i += 2) responseHeaders.append(raw[i]!, raw[i + 1]!)
          try {
            resolve(
              new Response(NULL_BODY_STATUS.has(status) ? null : Buffer.concat(chunks), {
                status,
                statusText: answer.statusMessage ?? '',
                headers: responseHeaders,
              }),
            )
          } catch (error) {
            // A status a Response cannot carry (1xx): not an answer fetch would give either.
            fail(error)
          }
        })
      },
    )
    function fail(error: unknown) {
      signal?.removeEventListener('abort', abort)
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }))
    }
    function abort() {
      request.destroy()
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', abort, { once: true })
    request.once('error', fail)
    request.end(payload)
  })
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])

/**
 * Kept-alive connections to each gateway host, as fetch keeps them. An idle one is closed after
 * 4 s (fetch's own default), before a server's usual 5 s or more, so a call seldom meets a
 * connection the server is closing.
 */
const IDLE_MS = 4_000
const httpAgent = new http.Agent({ keepAlive: true, timeout: IDLE_MS })
const httpsAgent = new https.Agent({ keepAlive: true, timeout: IDLE_MS })
