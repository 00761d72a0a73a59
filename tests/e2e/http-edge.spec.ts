import { signUpConfirmed } from '../helpers/mailbox'
import { expect, test } from '../helpers/fixtures'
import { multipartBody, postAs, rawRequest, residentBytes } from '../helpers/http'

/**
 * What an attacker probing the production server found, each answered at the edge: open
 * redirects hidden in characters browsers drop, bodies too large to read, bodies that are not
 * forms, and NUL characters that PostgreSQL refuses (server/request-guard.ts,
 * app/lib/safe-redirect.ts, app/lib/form-data.server.ts).
 */
const SNEAKY_DESTINATIONS = [
  '/%09/evil.example/x',
  '/%0a/evil.example/x',
  '/.//evil.example/x',
  '/%5C/evil.example/x',
]

/** A Location header that a browser resolves on our own origin. */
function expectOwnOrigin(base: string, location: string | string[] | undefined) {
  expect(typeof location).toBe('string')
  const target = new URL(location as string, base)
  expect(target.origin, `Location ${JSON.stringify(location)}`).toBe(new URL(base).origin)
  expect(location as string).not.toMatch(/[\s\\]|^\/\/|^\/\.\//)
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }

test.describe('redirects stay on this site', () => {
  const account = {
    name: 'Redirect Tester',
    email: 'redirect-tester@example.com',
    password: 'secret-pass-1',
  }
  let cookie = ''

  test.beforeAll(async ({ app }) => {
    // Sign-up continues by the mailed link (docs/decisions/0008-sign-up-by-mailed-link.md).
    cookie = await signUpConfirmed(app.url, app, account)
    expect(cookie).not.toBe('')
  })

  for (const destination of SNEAKY_DESTINATIONS) {
    test(`GET /login and /signup when signed in: redirectTo=${destination}`, async ({ app }) => {
      for (const page of ['/login', '/signup']) {
        const response = await rawRequest(
          app.url,
          `${page}?redirectTo=${encodeURIComponent(decodeURIComponent(destination))}`,
          {
            headers: { Cookie: cookie },
          },
        )
        expect(response.status).toBe(302)
        expectOwnOrigin(app.url, response.headers.location)
      }
    })

    test(`POST /login without JavaScript: redirectTo=${destination}`, async ({ app }) => {
      const response = await rawRequest(app.url, '/login', {
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams({
          email: account.email,
          password: account.password,
          redirectTo: decodeURIComponent(destination),
        }).toString(),
      })
      expect(response.status).toBe(302)
      expectOwnOrigin(app.url, response.headers.location)
    })

    test(`POST /theme: redirectTo=${destination}`, async ({ app }) => {
      const response = await rawRequest(app.url, '/theme', {
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams({
          theme: 'dark',
          redirectTo: decodeURIComponent(destination),
        }).toString(),
      })
      expect(response.status).toBe(303)
      expectOwnOrigin(app.url, response.headers.location)
    })
  }

  test('a same-site destination is still honoured', async ({ app }) => {
    const response = await rawRequest(app.url, '/theme', {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({ theme: 'light', redirectTo: '/product/x?y=1' }).toString(),
    })
    expect(response.status).toBe(303)
    expect(response.headers.location).toBe('/product/x?y=1')
  })
})

test.describe('request bodies are limited', () => {
  test('a huge declared Content-Length is refused at once, without reading', async ({ app }) => {
    const started = Date.now()
    const response = await rawRequest(app.url, '/login', {
      method: 'POST',
      headers: { ...FORM, 'Content-Length': 200 * 1024 * 1024 },
    })
    expect(response.status).toBe(413)
    expect(response.body).toBe('The request is too large.')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  test('an over-long chunked body is refused and the server does not hold it', async ({ app }) => {
    const before = residentBytes(app.process.pid!)
    // 100 MB offered in 64 KB chunks; the server answers after the first few.
    const response = await rawRequest(app.url, '/login', {
      method: 'POST',
      headers: { ...FORM, 'Transfer-Encoding': 'chunked' },
      chunks: { size: 64 * 1024, count: 1600 },
    })
    expect(response.status).toBe(413)
    expect(response.body).toBe('The request is too large.')
    expect(residentBytes(app.process.pid!) - before).toBeLessThan(40 * 1024 * 1024)
    // And the server is still well.
    expect((await rawRequest(app.url, '/healthz')).status).toBe(200)
  })

  for (const path of [
    '/api/payments/paytm/callback',
    '/api/paytm/generate-checksum',
    '/api/paytm/verify-payment',
  ]) {
    test(`the gateway endpoint ${path} refuses 20 KB, chunked or declared`, async ({ app }) => {
      const chunked = await rawRequest(app.url, path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        chunks: { size: 1024, count: 20 },
      })
      expect(chunked.status).toBe(413)
      const declared = await rawRequest(app.url, path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': 20 * 1024 },
      })
      expect(declared.status).toBe(413)
    })
  }

  test("a browser's own form post that is too large gets a page with the route's message", async ({
    app,
  }) => {
    // A photo of 10 MB sent by the settings page's form without JavaScript.
    const photo = await rawRequest(app.url, '/dashboard/settings', {
      method: 'POST',
      headers: {
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': 10 * 1024 * 1024,
        Accept: 'text/html,application/xhtml+xml',
      },
    })
    expect(photo.status).toBe(413)
    expect(photo.headers['content-type']).toMatch(/^text\/html/)
    expect(photo.body).toContain('<p role="alert">Image size should be less than 5MB</p>')
    expect(photo.body).toContain('<a href="/dashboard/settings">Go back</a>')
    // React Router's data request (the page with JavaScript) keeps the plain answer.
    const data = await rawRequest(app.url, '/dashboard/settings.data', {
      method: 'POST',
      headers: {
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': 10 * 1024 * 1024,
        Accept: 'text/html',
      },
    })
    expect(data.status).toBe(413)
    expect(data.body).toBe('The request is too large.')
    // Any other path's page leads home, whatever the path was.
    const elsewhere = await rawRequest(app.url, '//evil.example/x', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': 1024 * 1024,
        Accept: 'text/html',
      },
    })
    expect(elsewhere.status).toBe(413)
    expect(elsewhere.body).toContain('<a href="/">Go back</a>')
  })

  test('image uploads and stock imports may be larger than a form post', async ({ app }) => {
    const { body, contentType } = multipartBody({
      intent: 'import',
      content: 'K'.repeat(1024 * 1024),
    })
    for (const path of [
      '/admin/api/uploads',
      '/admin/products/some-id/stock',
      '/admin/products/add',
    ]) {
      const response = await postAs(contentType, app.url, path, body)
      // Past the edge: the route's own guard answers (not signed in), not the body limit.
      expect(response.status, path).not.toBe(413)
      expect(response.status, path).toBeLessThan(500)
    }
    const login = await postAs(contentType, app.url, '/login', body)
    expect(login.status).toBe(413)
  })
})

test.describe('malformed input is a 4xx with a message', () => {
  test('a form action sent JSON, plain text or a broken multipart body', async ({ app }) => {
    for (const path of ['/login', '/signup', '/theme', '/forgot-password']) {
      const json = await postAs('application/json', app.url, path, '{"email":"a@example.com"}')
      expect(json.status, path).toBe(415)
      expect(json.body).toContain('This address accepts a submitted form only.')
      const text = await postAs('text/plain', app.url, path, 'email=a')
      expect(text.status, path).toBe(415)
      const broken = await postAs(
        'multipart/form-data; boundary=xyz',
        app.url,
        path,
        '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nunterminated',
      )
      expect(broken.status, path).toBe(400)
      expect(broken.body).toContain('The submitted form could not be read.')
    }
  })

  test('NUL characters in a path are a missing page, in a query or a form a 400', async ({
    app,
  }) => {
    const expected = [
      {
        paths: ['/product/x%00', '/orders/x%00', '/orders/x%00/invoice.pdf', '/checkout/a%00b'],
        status: 404,
        text: 'Page not found',
      },
      {
        paths: ['/payment/callback?ORDERID=%00', '/?q=a%00', '/admin/products?search=%00'],
        status: 400,
        text: 'not allowed',
      },
    ]
    for (const { paths, status, text } of expected)
      for (const path of paths) {
        const response = await rawRequest(app.url, path)
        expect(response.status, path).toBe(status)
        expect(response.body).toContain(text)
      }
    const urlencoded = await rawRequest(app.url, '/login', {
      method: 'POST',
      headers: FORM,
      body: 'email=a%00%40example.com&password=x',
    })
    expect(urlencoded.status).toBe(400)
    const json = await postAs(
      'application/json',
      app.url,
      '/api/paytm/verify-payment',
      JSON.stringify({ orderId: 'a\u0000b', transactionId: 't' }),
    )
    expect(json.status).toBe(400)
    const { body, contentType } = multipartBody({
      email: 'a\u0000@example.com',
      password: 'secret-pass-1',
    })
    const multipart = await postAs(contentType, app.url, '/login', body)
    expect(multipart.status).toBe(400)
    expect(multipart.body).toContain('The form contains a character that is not allowed')
  })
})
