import { describe, expect, it } from 'vitest'
import { hasSessionCookie, sessionCookies } from './session-cookie'

describe('session cookies', () => {
  it('recognises the token, the cookie cache and its chunks, on http and https', () => {
    for (const header of [
      'kb.session_token=abc',
      '__Secure-kb.session_token=abc',
      'theme=dark; kb.session_data=xyz',
      'kb.session_data.0=xyz',
    ])
      expect(hasSessionCookie(header), header).toBe(true)
  })

  it('ignores other cookies, look-alikes and a missing header', () => {
    for (const header of [
      undefined,
      null,
      '',
      'theme=dark; lang=hi',
      'xkb.session_token=abc',
      'kb.session_tokenx=abc',
      'kb.state=abc',
      'other=kb.session_token=abc',
    ])
      expect(hasSessionCookie(header), String(header)).toBe(false)
  })

  it('keys a session by its cookies alone, in a stable order', () => {
    const key = sessionCookies('theme=dark; kb.session_token=t1; kb.session_data=d1')
    expect(key).toBe('kb.session_data=d1; kb.session_token=t1')
    expect(sessionCookies('kb.session_data=d1;lang=hi;  kb.session_token=t1')).toBe(key)
    expect(sessionCookies('theme=dark')).toBe('')
  })
})
