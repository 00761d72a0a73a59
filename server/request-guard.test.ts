import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  BODY_BUDGET_BYTES,
  BUSY_RETRY_AFTER_SECONDS,
  BodyBudget,
  DEFAULT_BODY_LIMIT,
  MESSAGES,
  type BodyTiming,
  bodyBudget,
  bodyLimitFor,
  createRequestGuard,
  isValidHost,
  refuseMisaddressed,
  requestGuard,
} from './request-guard'

/** The host of PUBLIC_URL, as server/index.ts hands it to refuseMisaddressed. */
const PUBLIC_HOST = 'shop.example:8443'

/**
 * The request guard (server/request-guard.ts, docs/security.md) in front of a stand-in for the
 * app that counts the requests reaching it and answers with the size of the body it read. The
 * HTTP server calls refuseMisaddressed first, as server/index.ts does before the page cache.
 */
function stack(guard: express.RequestHandler, options: { hostCheckFirst: boolean }) {
  const reached: string[] = []
  /** Requests sent with `x-hold: <name>` wait after reading their body until released. */
  const holds = new Map<string, () => void>()
  const app = express()
  app.set('trust proxy', 'loopback')
  app.use(guard)
  app.use((req, res) => {
    // The host as React Router's Express adapter reads it, which throws (a 500) without one.
    const host = req.hostname.split(/[\\/?#@]/)[0]
    reached.push(`${req.method} ${req.originalUrl} ${req.get('host') ?? ''} ${host}`)
    let bytes = 0
    req.on('data', (chunk: Buffer) => (bytes += chunk.length))
    req.on('end', () => {
      const hold = req.get('x-hold')
      const answer = () => res.json({ bytes })
      if (hold) holds.set(hold, answer)
      else answer()
    })
  })
  const server = http.createServer((req, res) => {
    if (options.hostCheckFirst && refuseMisaddressed(req, res, PUBLIC_HOST)) return
    app(req, res)
  })
  let port = 0
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { reached, holds, port: () => port }
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * A raw HTTP connection: `head` is sent as it is (so any Host header can be), then `send` writes
 * body bytes. `answer` resolves once a whole response has arrived (all of ours carry a length).
 */
function connect(port: number, head: string) {
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.write(head)
  const answer = new Promise<Answer>((resolve, reject) => {
    let received = Buffer.alloc(0)
    const tryParse = () => {
      const end = received.indexOf('\r\n\r\n')
      if (end === -1) return
      const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      const length = Number(headers['content-length'] ?? 0)
      const rest = received.subarray(end + 4)
      if (rest.length < length) return
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.subarray(0, length).toString('utf8'),
      })
    }
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      tryParse()
    })
    socket.on('close', () => reject(new Error(`closed without an answer: ${received}`)))
  })
  // A connection the test abandons has no answer, and nobody waits for one.
  answer.catch(() => {})
  return { socket, answer, send: (bytes: Buffer | string) => socket.write(bytes) }
}

/** Body bytes without a NUL (the guard refuses those in any body but a multipart one). */
const body = (length: number) => Buffer.alloc(length, 'a')

const request = (
  method: string,
  path: string,
  headers: Record<string, string | number> | Array<[string, string | number]>,
  version = '1.1',
) =>
  `${method} ${path} HTTP/${version}\r\n` +
  (Array.isArray(headers) ? headers : Object.entries(headers))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  '\r\n'

describe('the Host header', () => {
  const BAD = [
    'shop.test/admin',
    'shop.test/',
    'shop.test\\admin',
    'shop.test?x=1',
    'shop.test#x',
    'user@shop.test',
    'shop .test',
    'shop.test:3000/admin',
    'shop.test:abc',
    'shop.test:99999',
    '[::1',
    '[::1]x',
    '[zz::1]:3000',
    '[1::2::3]',
    '999.1.1.1',
    '.',
  ]
  const GOOD = [
    'shop.test',
    'shop.test:3000',
    'Shop.Test',
    'localhost',
    '127.0.0.1:8080',
    '[::1]',
    '[::1]:3000',
    '[2001:db8::7]:443',
    'xn--e1afmkfd.xn--p1ai',
    'my_app:3000',
  ]

  it('is a host[:port]', () => {
    for (const host of BAD) expect(isValidHost(host), host).toBe(false)
    for (const host of GOOD) expect(isValidHost(host), host).toBe(true)
  })

  // As server/index.ts runs it (the listener first), and with the guard alone.
  for (const hostCheckFirst of [true, false]) {
    describe(hostCheckFirst ? 'in the HTTP server' : 'in the guard alone', () => {
      const shop = stack(requestGuard, { hostCheckFirst })

      async function send(headers: Array<[string, string]>, path = '/', version = '1.1') {
        const before = shop.reached.length
        const { answer } = connect(shop.port(), request('GET', path, headers, version))
        const result = await answer
        return { ...result, ran: shop.reached.length > before }
      }

      it('refuses one with a path, a query, a user or spaces with a bare 400, running nothing', async () => {
        for (const host of [...BAD, '']) {
          const answer = await send([['Host', host]], '/checkout/streamverse')
          expect(answer.status, JSON.stringify(host)).toBe(400)
          expect(answer.body, host).toBe('Bad Request')
          expect(answer.headers['content-type']).toMatch(/^text\/plain/)
          expect(answer.ran, host).toBe(false)
        }
      })

      it('refuses a request line naming a full URL instead of a path', async () => {
        for (const target of ['http://other.test/checkout/streamverse', 'shop.test/admin']) {
          const answer = await send([['Host', 'shop.test']], target)
          expect(answer.status, target).toBe(400)
          expect(answer.ran, target).toBe(false)
        }
      })

      it('refuses two Host headers, whichever is first', async () => {
        for (const pair of [
          ['shop.test', 'shop.test/admin'],
          ['shop.test/admin', 'shop.test'],
          ['shop.test', 'shop.test'],
        ]) {
          const answer = await send(pair.map((host) => ['Host', host] as [string, string]))
          expect(answer.status, pair.join(' + ')).toBe(400)
          expect(answer.ran).toBe(false)
        }
      })

      it('lets every valid host through, IPv6 literals included', async () => {
        for (const host of GOOD) {
          const answer = await send([
            ['Host', host],
            ['Connection', 'close'],
          ])
          expect(answer.status, host).toBe(200)
          expect(answer.ran, host).toBe(true)
        }
      })

      it('refuses an HTTP/1.1 request without Host', async () => {
        const answer = await send([])
        expect(answer.status).toBe(400)
        expect(answer.ran).toBe(false)
      })

      if (hostCheckFirst)
        it("serves an HTTP/1.0 request without Host as addressed to PUBLIC_URL's host", async () => {
          const old = await send([], '/product/streamverse', '1.0')
          expect(old.status).toBe(200)
          expect(shop.reached.at(-1)).toBe(
            `GET /product/streamverse ${PUBLIC_HOST} ${PUBLIC_HOST.split(':')[0]}`,
          )
          // One with a Host of its own keeps it.
          const named = await send([['Host', 'shop.test']], '/', '1.0')
          expect(named.status).toBe(200)
          expect(shop.reached.at(-1)).toBe('GET / shop.test shop.test')
        })
      else
        it('refuses an HTTP/1.0 request without Host when no public host is known', async () => {
          const old = await send([], '/', '1.0')
          expect(old.status).toBe(400)
          expect(old.body).toBe('Bad Request')
          expect(old.ran).toBe(false)
        })

      it("refuses a trusted proxy's X-Forwarded-Host with a path", async () => {
        const forged = await send([
          ['Host', 'shop.test'],
          ['X-Forwarded-Host', 'shop.test/admin'],
        ])
        expect(forged.status).toBe(400)
        expect(forged.ran).toBe(false)
        const plain = await send([
          ['Host', 'shop.test'],
          ['X-Forwarded-Host', 'shop.example, proxy.internal:8080'],
          ['Connection', 'close'],
        ])
        expect(plain.status).toBe(200)
      })
    })
  }
})

describe('the budget of large bodies', () => {
  const settings = '/dashboard/settings'
  const limit = bodyLimitFor(settings)
  const upload = (length: number, hold?: string) =>
    request('POST', settings, {
      Host: 'shop.test',
      'Content-Type': 'application/octet-stream',
      'Content-Length': length,
      ...(hold ? { 'X-Hold': hold } : {}),
      Connection: 'close',
    })

  describe('of this process', () => {
    const shop = stack(requestGuard, { hostCheckFirst: true })

    it('always has room for one upload of the largest size', async () => {
      expect(BODY_BUDGET_BYTES).toBeGreaterThanOrEqual(
        Math.max(...['/admin/api/uploads', '/admin/products/p1/stock', settings].map(bodyLimitFor)),
      )
      const one = connect(shop.port(), upload(limit))
      one.send(Buffer.alloc(limit, 1))
      const answer = await one.answer
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toEqual({ bytes: limit })
      await vi.waitFor(() => expect(bodyBudget.used).toBe(0))
    })

    it('answers 503 with Retry-After to uploads beyond it, before reading them, and has room again once they end', async () => {
      const fits = Math.floor(BODY_BUDGET_BYTES / limit)
      // Uploads that started and are still arriving (a slow phone, or an attacker) hold room.
      const started = Array.from({ length: fits }, () => connect(shop.port(), upload(limit)))
      for (const held of started) held.send(body(1024))
      await vi.waitFor(() => expect(bodyBudget.used).toBe(fits * limit))

      const refused = await connect(shop.port(), upload(limit)).answer
      expect(refused.status).toBe(503)
      expect(refused.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS))
      expect(refused.body).toBe(MESSAGES.busy)
      // A browser's own form post gets a page with a way back.
      const page = await connect(
        shop.port(),
        request('POST', settings, {
          Host: 'shop.test',
          Accept: 'text/html',
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': DEFAULT_BODY_LIMIT + 1,
        }),
      ).answer
      expect(page.status).toBe(503)
      expect(page.body).toContain('href="/dashboard/settings"')
      // Nothing was reserved for the refused ones; small bodies do not draw on the budget.
      expect(bodyBudget.used).toBe(fits * limit)
      const small = connect(shop.port(), upload(100))
      small.send(body(100))
      expect((await small.answer).status).toBe(200)

      // One started upload finishes: it passes whole, and its room is given back.
      const [first, ...rest] = started
      first!.send(body(limit - 1024))
      expect(JSON.parse((await first!.answer).body)).toEqual({ bytes: limit })
      await vi.waitFor(() => expect(bodyBudget.used).toBe((fits - 1) * limit))

      // The others are abandoned mid-body: their room is given back too.
      for (const held of rest) held.socket.destroy()
      await vi.waitFor(() => expect(bodyBudget.used).toBe(0))

      const again = connect(shop.port(), upload(limit))
      again.send(body(limit))
      expect((await again.answer).status).toBe(200)
      await vi.waitFor(() => expect(bodyBudget.used).toBe(0))
    })

    it('holds the room until the answer is sent, and gives it back if the client leaves first', async () => {
      const held = connect(shop.port(), upload(limit, 'a'))
      held.send(body(limit))
      await vi.waitFor(() => expect(shop.holds.has('a')).toBe(true))
      // The whole body is with the app now, and still counted.
      expect(bodyBudget.used).toBe(limit)
      shop.holds.get('a')!()
      expect((await held.answer).status).toBe(200)
      await vi.waitFor(() => expect(bodyBudget.used).toBe(0))

      const left = connect(shop.port(), upload(limit, 'b'))
      left.send(body(limit))
      await vi.waitFor(() => expect(shop.holds.has('b')).toBe(true))
      left.socket.destroy()
      await vi.waitFor(() => expect(bodyBudget.used).toBe(0))
    })

    it('gives back the room of a body refused as too large or for a NUL', async () => {
      const chunked = connect(
        shop.port(),
        request('POST', settings, { Host: 'shop.test', 'Transfer-Encoding': 'chunked' }),
      )
      const piece = body(1024 * 1024)
      const chunk = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece])
      for (let sent = 0; sent <= limit; sent += piece.length)
        chunked.send(Buffer.concat([chunk, Buffer.from('\r\n')]))
      expect((await chunked.answer).status).toBe(413)
      expect(bodyBudget.used).toBe(0)
      chunked.socket.destroy()

      const nul = connect(
        shop.port(),
        request('POST', settings, {
          Host: 'shop.test',
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': DEFAULT_BODY_LIMIT * 2,
        }),
      )
      nul.send(Buffer.alloc(DEFAULT_BODY_LIMIT * 2, 0))
      expect((await nul.answer).status).toBe(400)
      await vi.waitFor(() => expect(bodyBudget.used).toBe(0))
    })
  })

  describe('of chunked bodies', () => {
    // A small budget: a chunked body (no declared length) takes room as it arrives.
    const budget = new BodyBudget(3 * DEFAULT_BODY_LIMIT)
    const shop = stack(createRequestGuard(budget), { hostCheckFirst: true })
    const chunkedUpload = (hold?: string) =>
      connect(
        shop.port(),
        request('POST', settings, {
          Host: 'shop.test',
          'Transfer-Encoding': 'chunked',
          ...(hold ? { 'X-Hold': hold } : {}),
        }),
      )
    const chunk = (bytes: number) =>
      Buffer.concat([
        Buffer.from(`${bytes.toString(16)}\r\n`),
        Buffer.alloc(bytes, 1),
        Buffer.from('\r\n'),
      ])

    it('refuses one mid-way with 503 when the room runs out, and gives back what it held', async () => {
      const first = chunkedUpload('first')
      first.send(chunk(2 * DEFAULT_BODY_LIMIT))
      await vi.waitFor(() => expect(budget.used).toBe(2 * DEFAULT_BODY_LIMIT))

      const second = chunkedUpload()
      second.send(chunk(DEFAULT_BODY_LIMIT / 2))
      second.send(chunk(DEFAULT_BODY_LIMIT))
      const refused = await second.answer
      expect(refused.status).toBe(503)
      expect(refused.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS))
      expect(budget.used).toBe(2 * DEFAULT_BODY_LIMIT)
      second.socket.destroy()

      first.send('0\r\n\r\n')
      await vi.waitFor(() => expect(shop.holds.has('first')).toBe(true))
      shop.holds.get('first')!()
      expect(JSON.parse((await first.answer).body)).toEqual({ bytes: 2 * DEFAULT_BODY_LIMIT })
      await vi.waitFor(() => expect(budget.used).toBe(0))
      expect(shop.reached).toHaveLength(1)
    })
  })

  describe('of bodies that stop arriving', () => {
    // Small sizes and short times: a body over the default limit draws on the budget and runs
    // on the clock (BODY_TIMING) exactly as an 8 MB upload does.
    const size = 4 * DEFAULT_BODY_LIMIT
    const post = (length: number, hold?: string) =>
      request('POST', settings, {
        Host: 'shop.test',
        'Content-Type': 'application/octet-stream',
        'Content-Length': length,
        ...(hold ? { 'X-Hold': hold } : {}),
      })
    /** A guard with its own budget and clock, and an upload whose whole body it holds. */
    function shopWith(timing: BodyTiming) {
      const budget = new BodyBudget(8 * size)
      const shop = stack(createRequestGuard(budget, timing), { hostCheckFirst: true })
      const open = (head: string) => {
        const connection = connect(shop.port(), head)
        const closed = new Promise<void>((resolve) =>
          connection.socket.once('close', () => resolve()),
        )
        return { ...connection, closed }
      }
      /** An upload that arrived whole and waits in the app: its room stays held. */
      async function held(name: string) {
        const upload = open(post(size, name))
        upload.send(body(size))
        await vi.waitFor(() => expect(shop.holds.has(name)).toBe(true))
        return upload
      }
      return { budget, shop, open, held }
    }
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

    describe('with a pause limit', () => {
      const { budget, shop, open, held } = shopWith({ idleMs: 150, wholeMs: 60_000 })

      it('answers 408 to an upload that sends nothing, or stops, closes it and gives its room back at once', async () => {
        const other = await held('other')
        expect(budget.used).toBe(size)

        const silent = open(post(size))
        await vi.waitFor(() => expect(budget.used).toBe(2 * size))
        const stalled = open(post(size))
        stalled.send(body(1024))
        await vi.waitFor(() => expect(budget.used).toBe(3 * size))

        for (const upload of [silent, stalled]) {
          const answer = await upload.answer
          expect(answer.status).toBe(408)
          expect(answer.body).toBe(MESSAGES.tooSlow)
          expect(answer.headers.connection).toBe('close')
          await upload.closed
        }
        // Given back once each: the upload the app holds keeps its room.
        expect(budget.used).toBe(size)
        expect(shop.reached).toHaveLength(1)

        // A browser's own form post gets a page with a way back.
        const page = open(
          request('POST', settings, {
            Host: 'shop.test',
            Accept: 'text/html',
            'Content-Type': 'multipart/form-data; boundary=x',
            'Content-Length': size,
          }),
        )
        const answer = await page.answer
        expect(answer.status).toBe(408)
        expect(answer.body).toContain('href="/dashboard/settings"')
        await page.closed
        expect(budget.used).toBe(size)

        shop.holds.get('other')!()
        expect((await other.answer).status).toBe(200)
        await vi.waitFor(() => expect(budget.used).toBe(0))
      })

      it('lets an upload with short pauses through, and does not time the app', async () => {
        const upload = open(post(size, 'slow'))
        for (let sent = 0; sent < size; sent += size / 4) {
          upload.send(body(size / 4))
          await pause(50)
        }
        await vi.waitFor(() => expect(shop.holds.has('slow')).toBe(true))
        // Whole: the app may take its time, and the room stays held until it answers.
        await pause(300)
        expect(budget.used).toBe(size)
        shop.holds.get('slow')!()
        const answer = await upload.answer
        expect(answer.status).toBe(200)
        expect(JSON.parse(answer.body)).toEqual({ bytes: size })
        await vi.waitFor(() => expect(budget.used).toBe(0))
      })

      it('gives back the room of a client that leaves or is refused exactly once, the clock included', async () => {
        const other = await held('kept')
        const leaving = open(post(size))
        leaving.send(body(1024))
        await vi.waitFor(() => expect(budget.used).toBe(2 * size))
        leaving.socket.destroy()
        await vi.waitFor(() => expect(budget.used).toBe(size))

        // Refused before a byte is read (nothing taken), and after the whole body (a NUL).
        const tooLarge = open(post(bodyLimitFor(settings) + 1))
        expect((await tooLarge.answer).status).toBe(413)
        const noRoom = open(post(8 * size))
        expect((await noRoom.answer).status).toBe(503)
        noRoom.socket.destroy()
        tooLarge.socket.destroy()
        const nul = open(
          request('POST', settings, {
            Host: 'shop.test',
            'Content-Type': 'application/x-www-form-urlencoded',
            'Content-Length': size,
          }),
        )
        nul.send(Buffer.alloc(size, 0))
        expect((await nul.answer).status).toBe(400)
        await vi.waitFor(() => expect(budget.used).toBe(size))

        // Past the pause limit, nothing is given back a second time.
        await pause(400)
        expect(budget.used).toBe(size)
        shop.holds.get('kept')!()
        expect((await other.answer).status).toBe(200)
        await vi.waitFor(() => expect(budget.used).toBe(0))
      })
    })

    describe('with a limit on the whole body', () => {
      const { budget, shop, open, held } = shopWith({ idleMs: 60_000, wholeMs: 400 })

      it('answers 408 to an upload that trickles past it, and gives its room back once', async () => {
        const other = await held('other')
        const trickle = open(post(size))
        const started = Date.now()
        const drip = setInterval(() => trickle.send(body(16)), 50)
        try {
          const answer = await trickle.answer
          expect(answer.status).toBe(408)
          expect(Date.now() - started).toBeGreaterThanOrEqual(350)
        } finally {
          clearInterval(drip)
        }
        await trickle.closed
        expect(budget.used).toBe(size)
        expect(shop.reached).toHaveLength(1)
        shop.holds.get('other')!()
        expect((await other.answer).status).toBe(200)
        await vi.waitFor(() => expect(budget.used).toBe(0))
      })
    })
  })
})
