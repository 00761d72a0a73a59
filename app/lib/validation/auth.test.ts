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
