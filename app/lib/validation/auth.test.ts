import { describe, expect, it } from 'vitest'
import { displayName } from '~/components/auth/logout-button'
import { googleErrorMessage } from '~/components/auth/messages'
import { submitForm } from '../../../tests/helpers/forms'
import { loginSchema, resetPasswordSchema, safeRedirect, signupSchema } from './auth'

/** The account forms' rules, as both the browser and the server apply them. */
describe('sign-up and login rules', () => {
  it('requires name, e-mail, password, and a matching confirmation, with the spec messages', () => {
    expect(submitForm(signupSchema, {}).errors).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      password: 'Password is required',
    })
    expect(
      submitForm(signupSchema, {
        name: ' A ',
        email: 'a@b',
        password: 'abcde',
        confirmPassword: 'abcdf',
      }).errors,
    ).toEqual({
      email: 'Please enter a valid email',
      password: 'Password must be at least 6 characters long',
      confirmPassword: 'Passwords do not match',
    })
    expect(
      submitForm(signupSchema, {
        name: 'Asha',
        email: 'a@b.in',
        password: 'abcdef',
        confirmPassword: 'abcdeg',
      }).errors,
    ).toEqual({
      confirmPassword: 'Passwords do not match',
    })
  })

  it('trims names, lower-cases e-mail addresses and keeps only same-site redirects', () => {
    const ok = submitForm(signupSchema, {
      name: '  Asha Rao ',
      email: ' Asha.Rao@Example.IN ',
      password: 'abcdef',
      confirmPassword: 'abcdef',
      redirectTo: 'https://evil.example/',
    })
    expect(ok.data).toEqual({
      name: 'Asha Rao',
      email: 'asha.rao@example.in',
      password: 'abcdef',
      confirmPassword: 'abcdef',
      redirectTo: '',
    })
    expect(
      submitForm(loginSchema, { email: 'A@B.in', password: 'x', redirectTo: '/admin/dashboard' })
        .data,
    ).toEqual({
      email: 'a@b.in',
      password: 'x',
      redirectTo: '/admin/dashboard',
    })
    expect(submitForm(loginSchema, { email: '', password: '' }).errors).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    })
  })

  it('counts no invisible or direction-control characters in a name', () => {
    const signUp = (name: string) =>
      submitForm(signupSchema, {
        name,
        email: 'asha@example.in',
        password: 'abcdef',
        confirmPassword: 'abcdef',
      })
    // Zero-width space, right-to-left override, BOM, zero-width joiner, a tab and a soft hyphen.
    for (const name of ['\u200B', ' \u202E ', '\uFEFF\u200D', '\t\u00AD'])
      expect(signUp(name).errors).toEqual({ name: 'Name is required' })
    // The override that would reverse the page's text around the name is dropped; full-width
    // letters are the plain ones (NFKC).
    expect(signUp('\u202EAsha Rao\u202C').data?.name).toBe('Asha Rao')
    expect(signUp('\uFF21sha').data?.name).toBe('Asha')
    expect(signUp('आशा राव').data?.name).toBe('आशा राव')
    // A joiner that shapes a conjunct (after a virama, before a letter) stays.
    expect(signUp('\u0915\u094D\u200D\u0937').data?.name).toBe('\u0915\u094D\u200D\u0937')
    expect(signUp('x'.repeat(100) + '\u200B').data?.name).toBe('x'.repeat(100))
    expect(signUp('x'.repeat(101)).errors).toEqual({
      name: 'Name must be at most 100 characters long',
    })
  })

  it('applies the same password rules to a reset', () => {
    expect(
      submitForm(resetPasswordSchema, { token: 't', password: '12345', confirmPassword: '12345' })
        .errors,
    ).toEqual({
      password: 'Password must be at least 6 characters long',
    })
  })

  it('refuses open redirects', () => {
    expect(safeRedirect('/dashboard')).toBe('/dashboard')
    expect(safeRedirect('//evil.example')).toBe('/')
    expect(safeRedirect('/\\evil.example')).toBe('/')
    expect(safeRedirect('https://evil.example')).toBe('/')
    expect(safeRedirect(null, '/x')).toBe('/x')
  })

  it('shows the display name, or the part of the e-mail before the @', () => {
    expect(displayName({ name: 'Asha', email: 'asha@example.in' })).toBe('Asha')
    expect(displayName({ name: ' ', email: 'asha.rao@example.in' })).toBe('asha.rao')
  })

  it('falls back to the spec messages for Google errors', () => {
    expect(googleErrorMessage('login', 'invalid_code')).toBe('Failed to log in with Google')
    expect(googleErrorMessage('signup', 'invalid_code')).toBe('Failed to sign up with Google')
    expect(googleErrorMessage('login', 'ACCOUNT_SUSPENDED')).toBe(
      'Your account has been suspended. Please contact support.',
    )
  })
})
