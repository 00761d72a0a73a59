import crypto from 'node:crypto'
import { expect, test } from '../helpers/fixtures'

/** Sign-in is rate limited per account and per address, in the database (HTTP 429). */
const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

/** Posts a form without a cookie jar (a signed-in client would be sent on by the page's loader). */
async function post(
  baseURL: string | undefined,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(`${baseURL}${path}`, {
    method: 'POST',
    body: new URLSearchParams(form),
    headers,
    redirect: 'manual',
  })
}

// The limits of app/lib/rate-limit.server.ts (AUTH_RATE_LIMITS).
const PER_ACCOUNT = 5
const PER_IP = 50

test('the failed login after the fifth for one account gets 429 with a clear message', async ({
  baseURL,
  page,
}) => {
  const email = uniqueEmail('guessed')
  const signup = await post(baseURL, '/signup', {
    name: 'Guessed',
    email,
    password: 'right-password',
    confirmPassword: 'right-password',
  })
  expect(signup.status).toBe(302)

  for (let attempt = 1; attempt <= PER_ACCOUNT; attempt++) {
    const response = await post(baseURL, '/login', { email, password: `wrong-${attempt}` })
    expect(response.status, `attempt ${attempt}`).toBe(401)
  }
  const blocked = await post(baseURL, '/login', { email, password: 'wrong-again' })
  expect(blocked.status).toBe(429)
  expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(await blocked.text()).toMatch(
    /Too many attempts\. Please wait \d+ minutes? and try again\./,
  )

  // Even the right password waits for the window: the guesser cannot tell.
  const right = await post(baseURL, '/login', { email, password: 'right-password' })
  expect(right.status).toBe(429)

  // In the browser the form says so; another account is not affected.
  await page.goto('/login')
  await page.getByLabel('Email').fill(email.toUpperCase())
  await page.getByLabel('Password').fill('right-password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toContainText('Too many attempts.')

  const other = uniqueEmail('other')
  await post(baseURL, '/signup', {
    name: 'Other',
    email: other,
    password: 'secret12',
    confirmPassword: 'secret12',
  })
  const fine = await post(baseURL, '/login', { email: other, password: 'secret12' })
  expect(fine.status).toBe(302)
})

test('one address gets 429 after 50 failed logins, whatever the accounts', async ({ baseURL }) => {
  // The server trusts X-Forwarded-For from a proxy on the same machine, as behind nginx.
  const address = `203.0.113.${crypto.randomInt(1, 254)}`
  const headers = { 'X-Forwarded-For': address }
  for (let attempt = 1; attempt <= PER_IP; attempt++) {
    const response = await post(
      baseURL,
      '/login',
      { email: uniqueEmail(`nobody${attempt}`), password: 'whatever1' },
      headers,
    )
    expect(response.status, `attempt ${attempt}`).toBe(401)
  }
  const blocked = await post(
    baseURL,
    '/login',
    { email: uniqueEmail('next'), password: 'whatever1' },
    headers,
  )
  expect(blocked.status).toBe(429)

  const elsewhere = await post(
    baseURL,
    '/login',
    { email: uniqueEmail('elsewhere'), password: 'whatever1' },
    { 'X-Forwarded-For': '198.51.100.7' },
  )
  expect(elsewhere.status).toBe(401)
})

test('sign-up and password reset answer 429 when an account asks too often', async ({
  baseURL,
}) => {
  const email = uniqueEmail('resetter')
  await post(baseURL, '/signup', {
    name: 'Resetter',
    email,
    password: 'secret12',
    confirmPassword: 'secret12',
  })
  // Three reset mails per account and hour.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const response = await post(baseURL, '/forgot-password', { email })
    expect(response.status, `attempt ${attempt}`).toBe(200)
  }
  const blocked = await post(baseURL, '/forgot-password', { email })
  expect(blocked.status).toBe(429)
  expect(await blocked.text()).toContain('Too many attempts.')

  // Five sign-up attempts per e-mail address.
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
  expect(statuses).toEqual([302, 422, 422, 422, 422, 429])
})
