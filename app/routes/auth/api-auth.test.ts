import { describe, expect, it, vi } from 'vitest'
import { action, loader } from './api-auth'

/**
 * The Google callback reaches better-auth's own handler, which stores the client address it
 * reads from X-Forwarded-For with the session it opens: only the address the server trusts
 * (context.clientIp, docs/security.md "Trusted proxies") may arrive there, never the visitor's.
 */
const seen = vi.hoisted(() => ({ requests: [] as Request[] }))
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getAuth: () => ({
    handler: async (request: Request) => {
      seen.requests.push(request)
      return new Response('ok')
    },
  }),
}))

describe('/api/auth/*', () => {
  it('passes the trusted client address to better-auth, not the one the visitor sent', async () => {
    seen.requests.length = 0
    const get = new Request('https://shop.example.in/api/auth/callback/google?code=x&state=y', {
      headers: { 'x-forwarded-for': '198.51.100.66', cookie: 'a=b' },
    })
    await loader({ request: get, params: {}, context: { clientIp: '203.0.113.5' } } as never)
    const post = new Request('https://shop.example.in/api/auth/callback/google', {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.66, 10.0.0.1' },
      body: new URLSearchParams({ code: 'x', state: 'y' }),
    })
    await action({ request: post, params: {}, context: { clientIp: '203.0.113.5' } } as never)
    expect(seen.requests.map((r) => r.headers.get('x-forwarded-for'))).toEqual([
      '203.0.113.5',
      '203.0.113.5',
    ])
    expect(seen.requests[0]!.headers.get('cookie')).toBe('a=b')
    expect(await seen.requests[1]!.text()).toBe('code=x&state=y')
  })

  it('answers 404 for every other better-auth endpoint', async () => {
    seen.requests.length = 0
    const request = new Request('https://shop.example.in/api/auth/sign-up/email', {
      method: 'POST',
    })
    const answer = await action({ request, params: {}, context: {} } as never)
    expect(answer.status).toBe(404)
    expect(seen.requests).toHaveLength(0)
  })
})
