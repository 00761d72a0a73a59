import fs from 'node:fs'
import http from 'node:http'

/**
 * Raw HTTP against the app, for what fetch hides or forbids: a declared Content-Length with no
 * body, a chunked body streamed until the server answers, exact Location headers.
 */
export interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

export interface RawRequest {
  method?: string
  headers?: Record<string, string | number>
  /** Sent as it is. */
  body?: Buffer | string
  /** Sent as a chunked body, one chunk at a time, until the server answers or they run out. */
  chunks?: { size: number; count: number }
}

/** A POST of `body` as it is, declared as `contentType` (rawRequest). */
export function postAs(
  contentType: string,
  baseUrl: string,
  path: string,
  body: Buffer | string,
): Promise<RawResponse> {
  return rawRequest(baseUrl, path, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
  })
}

export function rawRequest(
  baseUrl: string,
  path: string,
  options: RawRequest = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl)
  // Keep-alive, as browsers do: a server may then answer early and read the rest of the body.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  return new Promise<RawResponse>((resolve, reject) => {
    let answered = false
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path,
        headers: options.headers,
        agent,
      },
      (response) => {
        answered = true
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        )
        response.on('error', reject)
      },
    )
    // The server may close the connection while we are still sending an over-long body;
    // its answer is what counts.
    request.on('error', (error) => {
      if (!answered) reject(error)
    })
    if (options.chunks) {
      const chunk = Buffer.alloc(options.chunks.size, 'a')
      let sent = 0
      const write = () => {
        while (!answered && !request.destroyed && sent < options.chunks!.count) {
          sent++
          if (!request.write(chunk)) return void request.once('drain', write)
        }
        if (!request.destroyed) request.end()
      }
      write()
    } else {
      request.end(options.body)
    }
  }).finally(() => agent.destroy())
}

/** The resident memory of a process, in bytes (Linux). */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 'NaN')
  return kb * 1024
}

/** A multipart/form-data body built by hand, so it can also be broken on purpose. */
export function multipartBody(
  fields: Record<string, string>,
  boundary = 'kbfuzzboundary',
): { body: Buffer; contentType: string } {
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  )
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}
