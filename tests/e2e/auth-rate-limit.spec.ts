import crypto from 'node:crypto'
import http from 'node:http'
import { expect, test } from '../helpers/fixtures'
import { signUpConfirmed } from '../helpers/mailbox'
import { withinOneWindow } from '../helpers/rate-limit'

/**
 * Abuse limits over HTTP (429 with Retry-After), counted in the database. Sign-in slows down
 * one account from one address (back-off), never the owner elsewhere; an address has a
 * ceiling across accounts. The limits are RATE_LIMIT_POLICIES in app/lib/rate-limit.server.ts.
 */
const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

interface Answer {
  status: number
  retryAfter: number
  body: string
}

/**
 * Posts a form without a cookie jar from a chosen loopback address: the server sees the
 * socket's address as the client's, so 127.0.0.2 is "another machine" to it.
 */
function postFrom(
  localAddress: string,
  baseURL: string | undefined,
  path: string,
  form: Record<string, string>,
): Promise<Answer> {
  const body = new URLSearchParams(form).toString()
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseURL}${path}`,
      {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: Number(response.headers['retry-after'] ?? 0),
            body: text,
          }),
        )
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

const post = (baseURL: string | undefined, path: string, form: Record<string, string>) =>
  postFrom('127.0.0.1', baseURL, path, form)

const FREE_FAILURES = 5
const PER_IP = 50

test('after five wrong passwords one address waits 2^n seconds, told how long; the owner elsewhere signs in', async ({
  baseURL,
  app,
  page,
}) => {
  const email = uniqueEmail('guessed')
  await signUpConfirmed(app.url, app, { name: 'Guessed', email, password: 'right-password' })

  for (let attempt = 1; attempt <= FREE_FAILURES; attempt++) {
    const response = await post(baseURL, '/login', { email, password: `wrong-${attempt}` })
    expect(response.status, `attempt ${attempt}`).toBe(401)
  }
  const blocked = await post(baseURL, '/login', { email, password: 'wrong-again' })
  expect(blocked.status).toBe(429)
  // 2^5 seconds after the fifth failure, less the time the requests took.
  expect(blocked.retryAfter).toBeGreaterThan(20)
  expect(blocked.retryAfter).toBeLessThanOrEqual(32)
  expect(blocked.body).toMatch(/Too many attempts\. Please wait \d+ seconds and try again\./)

  // Even the right password waits from this address: the guesser cannot tell.
  expect((await post(baseURL, '/login', { email, password: 'right-password' })).status).toBe(429)

  // The owner from another address is not held back at all.
  const owner = await postFrom('127.0.0.2', baseURL, '/login', {
    email,
    password: 'right-password',
  })
  expect(owner.status).toBe(302)

  // In the browser (from the guesser's address) the form says how long to wait.
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': '127.0.0.1' })
  await page.goto('/login')
  await page.getByLabel('Email').fill(email.toUpperCase())
  await page.getByLabel('Password').fill('right-password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toContainText(/Too many attempts\. Please wait \d+ seconds/)
})

test('one address gets 429 after 50 failed logins, whatever the accounts', async ({ baseURL }) => {
  test.setTimeout(120_000)
  await withinOneWindow('signInIp', 45_000)
  const address = '127.0.0.3'
  for (let attempt = 1; attempt <= PER_IP; attempt++) {
    const response = await postFrom(address, baseURL, '/login', {
      email: uniqueEmail(`nobody${attempt}`),
      password: 'whatever1',
    })
    expect(response.status, `attempt ${attempt}`).toBe(401)
  }
  const blocked = await postFrom(address, baseURL, '/login', {
    email: uniqueEmail('next'),
    password: 'whatever1',
  })
  expect(blocked.status).toBe(429)

  const elsewhere = await postFrom('127.0.0.4', baseURL, '/login', {
    email: uniqueEmail('elsewhere'),
    password: 'whatever1',
  })
  expect(elsewhere.status).toBe(401)
})

test('sign-up and password reset answer 429 when one address is asked for too often', async ({
  baseURL,
  app,
}) => {
  const email = uniqueEmail('resetter')
  await signUpConfirmed(app.url, app, { name: 'Resetter', email, password: 'secret12' })
  test.setTimeout(120_000)
  await withinOneWindow('passwordResetEmail', 30_000)
  // Three reset mails per address and hour.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const response = await post(baseURL, '/forgot-password', { email })
    expect(response.status, `attempt ${attempt}`).toBe(200)
  }
  const blocked = await post(baseURL, '/forgot-password', { email })
  expect(blocked.status).toBe(429)
  expect(blocked.body).toContain('Too many attempts.')

  // Five sign-up forms per e-mail address (each one mails it), taken or not.
  await withinOneWindow('signUpEmail', 30_000)
  const taken = uniqueEmail('taken')
  const statuses: number[] = []
  for (let attempt = 1; attempt <= 6; attempt++) {
    const response = await post(baseURL, '/signup', {
      name: 'Taken',
      email: taken,
      password: 'secret12',
      confirmPassword: 'secret12',
    })
    statuses.push(response.status)
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
})
