import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatewayFetch } from './http.server'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

describe('gatewayFetch', () => {
  let server: http.Server
  let base: string
  const seen: Seen[] = []
  let connections = 0
  let closedWhileWaiting = 0

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (chunk: string) => (body += chunk))
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
        if (req.url === '/json') {
          res.setHeader('Content-Type', 'application/json')
          res.setHeader('Set-Cookie', ['a=1', 'b=2'])
          res.end(JSON.stringify({ resultInfo: { resultStatus: 'TXN_SUCCESS' }, echo: body }))
        } else if (req.url === '/missing') {
          res.statusCode = 404
          res.end('no such order')
        } else if (req.url === '/empty') {
          res.statusCode = 204
          res.end()
        } else if (req.url === '/never') {
          res.once('close', () => closedWhileWaiting++)
        } else {
          res.end(`${req.method} ${req.url}`)
        }
      })
    })
    server.on('connection', () => connections++)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('posts a JSON body with its headers and reads the answer', async () => {
    const body = JSON.stringify({ body: { mid: 'MID', orderId: 'ORD_1' } })
    const response = await gatewayFetch(`${base}/json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(5_000),
    })
    expect(response.ok).toBe(true)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(await response.json()).toEqual({
      resultInfo: { resultStatus: 'TXN_SUCCESS' },
      echo: body,
    })
    const request = seen.at(-1)!
    expect(request).toMatchObject({ method: 'POST', url: '/json', body })
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength(body)))
    expect(request.headers.accept).toBe('application/json')
    // Nothing is decompressed, so nothing compressed is asked for.
    expect(request.headers['accept-encoding']).toBeUndefined()
  })

  it('sends a form as fetch does, and a URL object with a query', async () => {
    const form = new URLSearchParams({ client_id: 'id', client_secret: 's€cret' })
    const response = await gatewayFetch(new URL(`${base}/token?x=1`), {
      method: 'POST',
      body: form,
    })
    expect(await response.text()).toBe('POST /token?x=1')
    const request = seen.at(-1)!
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8')
    expect(new URLSearchParams(request.body).get('client_secret')).toBe('s€cret')
  })

  it('answers refusals and empty answers with their status', async () => {
    const missing = await gatewayFetch(`${base}/missing`)
    expect(missing.ok).toBe(false)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toBe('no such order')
    expect(seen.at(-1)!.method).toBe('GET')
    const empty = await gatewayFetch(`${base}/empty`, { method: 'DELETE' })
    expect(empty.status).toBe(204)
    expect(await empty.text()).toBe('')
  })

  it('keeps the connection for the next call', async () => {
    await (await gatewayFetch(`${base}/a`)).text()
    const before = connections
    for (let i = 0; i < 5; i++) await (await gatewayFetch(`${base}/b${i}`)).text()
    expect(connections).toBe(before)
  })

  it('gives up when the signal times out, with its TimeoutError, and closes the request', async () => {
    const error = await gatewayFetch(`${base}/never`, { signal: AbortSignal.timeout(100) }).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ name: 'TimeoutError' })
    await expect.poll(() => closedWhileWaiting).toBe(1)
    const controller = new AbortController()
    controller.abort()
    await expect(gatewayFetch(`${base}/a`, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    })
  })

  it('reports an unreachable host as fetch does', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await gatewayFetch(`http://127.0.0.1:${port}/x`).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } })
  })

  it('leaves other kinds of request to the global fetch', async () => {
    const response = await gatewayFetch(new Request(`${base}/via-request`, { method: 'PUT' }))
    expect(await response.text()).toBe('PUT /via-request')
  })
})
