import http from 'node:http'
import net from 'node:net'
import { startApp, type RunningApp } from '../helpers/app'
import { addRazorpayInTesting } from '../helpers/payments'
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp'
import { expect, test } from '../helpers/fixtures'

/**
 * `npm start` with WEB_CONCURRENCY=2 (server/cluster.ts): the primary prepares the database and
 * hosts the payment simulators, two workers serve. Every request below that names a worker
 * goes on a new connection, so the primary's round robin hands them to the workers in turn.
 */
const SLUG = 'streamverse-premium-12-months'

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
  pid: number
}

/** One request on a connection of its own (no keep-alive), so any worker may take it. */
function fresh(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: init.method ?? 'GET', headers: init.headers, agent: false },
      (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            pid: Number(response.headers['x-worker-pid']),
          }),
        )
      },
    )
    request.once('error', reject)
    request.end(init.body)
  })
}

async function pidsAnswering(url: string, requests = 6): Promise<Set<number>> {
  const pids = new Set<number>()
  for (let i = 0; i < requests; i++) pids.add((await fresh(`${url}/healthz`)).pid)
  return pids
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString()
}

function hiddenFields(
  html: string,
  marker: string,
): { action: string; fields: Record<string, string> } {
  const match = new RegExp(
    `<form[^>]*action="([^"]*${marker}[^"]*)"[^>]*>([\\s\\S]*?)</form>`,
  ).exec(html)
  if (!match) throw new Error(`No form posting to ${marker} in:\n${html.slice(0, 2000)}`)
  const fields: Record<string, string> = {}
  for (const input of match[2]!.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g,
  ))
    fields[input[1]!] = input[2]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')
  return { action: match[1]!.replace(/&amp;/g, '&'), fields }
}

const FORM_HEADERS = { 'Content-Type': 'application/x-www-form-urlencoded' }

/**
 * A whole Paytm checkout through the built-in simulator without a browser, each step on a new
 * connection: the order, the simulator's payment page, 'Simulate success', the signed callback
 * (whose status check the shop makes to the simulator over HTTP) and the result page.
 */
async function checkoutOverFreshConnections(app: RunningApp, email: string, address: string) {
  const pids = new Set<number>()
  const step = async (url: string, init: Parameters<typeof fresh>[1]) => {
    const answer = await fresh(url, {
      ...init,
      headers: { Origin: app.url, 'X-Forwarded-For': address, ...init?.headers },
    })
    pids.add(answer.pid)
    return answer
  }
  const order = await step(`${app.url}/checkout/${SLUG}`, {
    method: 'POST',
    headers: FORM_HEADERS,
    body: form({ name: 'Asha Verma', email, phone: '9876543210' }),
  })
  expect(order.status).toBe(200)
  const payment = hiddenFields(order.body, 'processTransaction')
  expect(payment.action).toBe(`${app.url}/__simulator/paytm/theia/processTransaction`)
  const gateway = await step(payment.action, {
    method: 'POST',
    headers: FORM_HEADERS,
    body: form(payment.fields),
  })
  expect(gateway.body).toContain('Simulate success')
  const buttons = hiddenFields(gateway.body, 'respond')
  const answered = await step(new URL(buttons.action, app.url).href, {
    method: 'POST',
    headers: FORM_HEADERS,
    body: form({ ...buttons.fields, PAYMENTMODE: 'UPI', outcome: 'success' }),
  })
  const callback = hiddenFields(answered.body, '/api/payments/paytm/callback')
  expect(callback.fields.STATUS).toBe('TXN_SUCCESS')
  const paid = await step(callback.action, {
    method: 'POST',
    headers: FORM_HEADERS,
    body: form(callback.fields),
  })
  expect(paid.status).toBe(303)
  // The buyer's browser shows the result with the cookie the checkout set.
  const cookie = (order.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ')
  const resultPage = await step(new URL(paid.headers.location!, app.url).href, {
    headers: { Cookie: cookie },
  })
  expect(resultPage.body).toContain('Payment Successful!')
  return pids
}

test.describe('with two workers', () => {
  let app: RunningApp
  let smtp: TestSmtpServer

  test.beforeAll(async () => {
    smtp = await startSmtpServer()
    app = await startApp({
      env: {
        WEB_CONCURRENCY: '2',
        EXPOSE_WORKER_PID: '1',
        TRUST_PROXY: 'loopback',
        SMTP_URL: smtp.url,
      },
    })
    // /healthz answers as soon as one worker listens; the primary says when all do.
    await expect.poll(() => app.output(), { timeout: 30_000 }).toContain('KeyBazaar is running at')
  })
  test.afterAll(async () => {
    await app?.dispose()
    await smtp?.close()
  })

  test('two worker processes answer; the database is prepared and the start-up told once', async () => {
    const pids = await pidsAnswering(app.url)
    expect(pids.size).toBe(2)
    expect(pids.has(app.process.pid!)).toBe(false)
    const output = app.output()
    expect(output.match(/KeyBazaar is running at/g)).toHaveLength(1)
    expect(output).toMatch(
      /KeyBazaar is running at http:\/\/localhost:\d+ \(SQLite at .*; 2 worker processes/,
    )
    expect(output.match(/\[db\] applied migrations/g)).toHaveLength(1)
    expect(output.match(/\[seed\] demo catalogue/g)).toHaveLength(1)
    expect(output.match(/\[payments\] built-in Paytm simulator/g)).toHaveLength(1)
  })

  test('Paytm checkouts through the built-in simulator succeed whichever worker takes each step, and each buyer is mailed once', async () => {
    const buyers = Array.from(
      { length: 4 },
      (_, i) => `cluster.buyer${i}.${Date.now()}@example.test`,
    )
    const seen = new Set<number>()
    for (const [i, email] of buyers.entries()) {
      for (const pid of await checkoutOverFreshConnections(app, email, `198.18.40.${i + 1}`))
        seen.add(pid)
    }
    // The steps really were spread over both workers, so the simulator's state was shared.
    expect(seen.size).toBe(2)
    // Both workers run the job runner; the lease gives each order's mail to one of them.
    await expect
      .poll(() => buyers.every((email) => smtp.mails.some((mail) => mail.to.includes(email))), {
        timeout: 20_000,
      })
      .toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 3000))
    for (const email of buyers) {
      const subjects = smtp.mails.filter((mail) => mail.to.includes(email)).map((m) => m.subject)
      expect(subjects).toHaveLength(new Set(subjects).size)
      expect(subjects.some((subject) => subject.startsWith('Your order '))).toBe(true)
    }
  })

  test('a buyer pays in the browser with the built-in Paytm simulator', async ({ page }) => {
    await page.goto(`${app.url}/product/${SLUG}`)
    await page.getByRole('link', { name: 'Buy Now' }).click()
    await page.getByLabel('Full name').fill('Asha Verma')
    await page.getByLabel('Email').fill(`cluster.browser.${Date.now()}@example.test`)
    await page.getByLabel('Phone number').fill('98765 43210')
    await page.getByRole('button', { name: 'Pay ₹1,499' }).click()
    await page.getByRole('button', { name: 'Simulate success' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
  })

  test('a buyer pays in the browser with the built-in Razorpay simulator', async ({ page }) => {
    // A Razorpay record in testing without keys puts its simulator beside Paytm's at checkout.
    await addRazorpayInTesting(app)
    await page.goto(`${app.url}/checkout/${SLUG}`)
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
    await page
      .getByRole('group', { name: 'Pay with' })
      .getByRole('radio', { name: /Razorpay/ })
      .check()
    await page.getByLabel('Full name').fill('Asha Verma')
    await page.getByLabel('Email').fill(`cluster.razorpay.${Date.now()}@example.test`)
    await page.getByLabel('Phone number').fill('9876543210')
    await page.getByRole('button', { name: 'Pay ₹1,499' }).click()
    await expect(page.getByText('Razorpay simulator — test mode, no real money')).toBeVisible()
    await page.getByRole('button', { name: 'Simulate success' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
  })

  test('a worker killed with SIGKILL is replaced and the shop keeps serving', async () => {
    const [victim] = await pidsAnswering(app.url, 2)
    test.setTimeout(90_000)
    process.kill(victim!, 'SIGKILL')
    // A connection handed to the worker as it died is reset, as behind any balancer; once the
    // primary has seen the death, the other worker takes every connection.
    await expect
      .poll(() => app.output().split('\n').slice(-6).join('\n'), { timeout: 10_000 })
      .toContain(`[cluster] worker ${victim} was killed by SIGKILL; starting a replacement`)
    for (let i = 0; i < 4; i++) expect((await fresh(`${app.url}/`)).status).toBe(200)
    await expect
      .poll(
        async () => [...(await pidsAnswering(app.url, 4))].filter((pid) => pid !== victim).length,
        {
          timeout: 30_000,
        },
      )
      .toBe(2)
  })
})

test('SIGTERM lets a request in flight finish, then every process exits with code 0', async () => {
  const app = await startApp({ env: { WEB_CONCURRENCY: '2', TRUST_PROXY: 'loopback' } })
  try {
    await expect.poll(() => app.output(), { timeout: 30_000 }).toContain('KeyBazaar is running at')
    const body = form({
      name: 'Slow Buyer',
      email: `slow.${Date.now()}@example.test`,
      phone: '9876543210',
    })
    const socket = net.connect(app.port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (answer += chunk))
    const ended = new Promise((resolve) => socket.once('close', resolve))
    // The checkout form's headers and half its body; the worker waits for the rest.
    socket.write(
      `POST /checkout/${SLUG} HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nOrigin: ${app.url}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n` +
        `X-Forwarded-For: 198.18.41.1\r\n\r\n${body.slice(0, 10)}`,
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    const stopped = app.stop()
    // Stopped: no new connection is taken.
    await expect
      .poll(() => app.output(), { timeout: 5000 })
      .toContain('Received SIGTERM, shutting down')
    await new Promise((resolve) => setTimeout(resolve, 1000))
    socket.write(body.slice(10))
    await ended
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(answer).toContain('processTransaction')
    await stopped
    expect(app.process.exitCode).toBe(0)
  } finally {
    await app.dispose()
  }
})
