import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, gotoHydrated, test } from '../helpers/fixtures'

/** Accounts in the browser: sign up, log in and out, the modals, the customer area. */
const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

async function signUpInModal(page: Page, user: { name: string; email: string; password: string }) {
  await gotoHydrated(page, '/')
  await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create your account' })
  await dialog.getByLabel('Full name').fill(user.name)
  await dialog.getByLabel('Email').fill(user.email)
  await dialog.getByLabel('Password', { exact: true }).fill(user.password)
  await dialog.getByLabel('Confirm password').fill(user.password)
  await dialog.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
}

test('sign-up shows each validation message, and they clear as the field is edited', async ({
  page,
}) => {
  await gotoHydrated(page, '/signup')
  const submit = page.getByRole('button', { name: 'Create account' })
  await submit.click()
  await expect(page.getByText('Name is required')).toBeVisible()
  await expect(page.getByText('Email is required')).toBeVisible()
  await expect(page.getByText('Password is required')).toBeVisible()

  await page.getByLabel('Full name').fill('Ravi Kumar')
  await expect(page.getByText('Name is required')).toHaveCount(0)
  await page.getByLabel('Email').fill('not-an-address')
  await page.getByLabel('Password', { exact: true }).fill('abc')
  await page.getByLabel('Confirm password').fill('abd')
  await submit.click()
  await expect(page.getByText('Please enter a valid email')).toBeVisible()
  await expect(page.getByText('Password must be at least 6 characters long')).toBeVisible()
  await expect(page.getByText('Passwords do not match')).toBeVisible()

  await page.getByLabel('Email').fill(uniqueEmail('ravi'))
  await page.getByLabel('Password', { exact: true }).fill('secret12')
  await page.getByLabel('Confirm password').fill('secret13')
  await submit.click()
  await expect(page.getByText('Passwords do not match')).toBeVisible()
  await expect(page.getByText('Password must be at least 6 characters long')).toHaveCount(0)

  await page.getByLabel('Confirm password').fill('secret12')
  await submit.click()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
    'href',
    '/dashboard',
  )
})

test('logs in, logs out, and refuses a wrong password with the provider message', async ({
  page,
}) => {
  const user = { name: 'Anita Das', email: uniqueEmail('anita'), password: 'secret12' }
  await signUpInModal(page, user)
  const header = page.getByRole('banner')

  await header.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL('/')
  await expect(header.getByRole('link', { name: 'Login' })).toBeVisible()
  await expect(header.getByRole('button', { name: 'Logout' })).toHaveCount(0)

  await header.getByRole('link', { name: 'Login' }).click()
  const dialog = page.getByRole('dialog', { name: 'Log in' })
  await dialog.getByLabel('Email').fill(user.email)
  await dialog.getByLabel('Password').fill('wrong-password')
  await dialog.getByRole('button', { name: 'Log in' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Invalid email or password')

  await dialog.getByLabel('Password').fill(user.password)
  await dialog.getByRole('button', { name: 'Log in' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(header.getByRole('link', { name: 'Dashboard' })).toBeVisible()
  await expect(header.getByRole('button', { name: 'Logout' })).toBeVisible()
})

test('login and sign-up modals switch to each other and close', async ({ page }) => {
  await gotoHydrated(page, '/product/streamverse-premium-12-months')
  const header = page.getByRole('banner')
  await header.getByRole('link', { name: 'Login' }).click()
  // A modal over the page: the page stays where it was.
  await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible()
  await expect(page).toHaveURL(/\/product\/streamverse-premium-12-months\?login=1$/)

  await page.getByRole('dialog').getByRole('link', { name: 'Sign up' }).click()
  await expect(page.getByRole('dialog', { name: 'Create your account' })).toBeVisible()
  await page.getByRole('dialog').getByRole('link', { name: 'Log in' }).click()
  await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible()
  await page.getByRole('dialog').getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page.getByRole('dialog', { name: 'Reset your password' })).toBeVisible()
  await page.getByRole('dialog').getByRole('link', { name: 'Back to login' }).click()
  await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible()

  await page.getByRole('dialog').getByRole('link', { name: 'Close' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page).toHaveURL(/\/product\/streamverse-premium-12-months$/)

  await header.getByRole('link', { name: 'Sign up' }).click()
  await expect(page.getByRole('dialog', { name: 'Create your account' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('the signed-in header is in the server-rendered HTML (no signed-out flash)', async ({
  request,
}) => {
  const email = uniqueEmail('firstbyte')
  const signup = await request.post('/signup', {
    form: { name: 'First Byte', email, password: 'secret12', confirmPassword: 'secret12' },
    maxRedirects: 0,
  })
  expect(signup.status()).toBe(302)
  const cookie = signup.headers()['set-cookie'] ?? ''
  expect(cookie).toMatch(/kb\.session_token=/)
  expect(cookie).toMatch(/HttpOnly/i)
  expect(cookie).toMatch(/SameSite=Lax/i)
  // PUBLIC_URL is http here, so not Secure.
  expect(cookie).not.toMatch(/Secure/i)

  const html = await (await request.get('/')).text()
  expect(html).toContain('>Logout<')
  expect(html).toContain('href="/dashboard"')
  expect(html).not.toContain('>Sign up<')
})

test('e-mail addresses are case-insensitive', async ({ page, request }) => {
  const email = uniqueEmail('Kavya.Rao')
  await signUpInModal(page, { name: 'Kavya Rao', email: email.toUpperCase(), password: 'secret12' })
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()

  await gotoHydrated(page, '/login')
  await page.getByLabel('Email').fill(email.toLowerCase())
  await page.getByLabel('Password').fill('secret12')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()

  const again = await request.post('/signup', {
    form: {
      name: 'Kavya Again',
      email: email.toLowerCase(),
      password: 'secret12',
      confirmPassword: 'secret12',
    },
    maxRedirects: 0,
  })
  expect(again.status()).toBe(422)
  expect(await again.text()).toContain('User already exists')
})

test('the customer dashboard needs sign-in, greets by name and changes the password', async ({
  page,
}) => {
  const user = { name: 'Dev Malhotra', email: uniqueEmail('dev'), password: 'secret12' }
  await gotoHydrated(page, '/dashboard')
  await expect(page).toHaveURL('/login?redirectTo=%2Fdashboard')
  await page.getByRole('main').getByRole('link', { name: 'Sign up' }).click()
  await expect(page).toHaveURL('/signup?redirectTo=%2Fdashboard')
  await page.getByLabel('Full name').fill(user.name)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await page.getByLabel('Confirm password').fill(user.password)
  await page.getByRole('button', { name: 'Create account' }).click()

  await expect(page).toHaveURL('/dashboard')
  await expect(page.getByRole('heading', { name: 'Welcome back, Dev Malhotra!' })).toBeVisible()
  const sidebar = page.getByRole('navigation', { name: 'Account' })
  await expect(sidebar.getByRole('link')).toHaveText(['Dashboard', 'My Orders', 'Settings'])
  await page.getByRole('link', { name: 'Browse Products' }).click()
  await expect(page).toHaveURL('/')
  await gotoHydrated(page, '/dashboard')

  await sidebar.getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible()
  await page.getByLabel('Current password').fill('not-my-password')
  await page.getByLabel('New password', { exact: true }).fill('better-secret')
  await page.getByLabel('Confirm new password').fill('better-secret')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('alert')).toHaveText('Current password is incorrect')

  await page.getByLabel('Current password').fill(user.password)
  await page.getByLabel('New password', { exact: true }).fill('12345')
  await page.getByLabel('Confirm new password').fill('12345')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText('Password must be at least 6 characters long')).toBeVisible()

  await page.getByLabel('New password', { exact: true }).fill('better-secret')
  await page.getByLabel('Confirm new password').fill('better-secret')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('status')).toContainText('Your password has been changed')

  // Still signed in on this device; the new password works after logging out.
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL('/')
  await gotoHydrated(page, '/login')
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill('better-secret')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
})

test('a customer in the admin area sees Access Denied and can go back', async ({ page }) => {
  await signUpInModal(page, {
    name: 'Curious Customer',
    email: uniqueEmail('curious'),
    password: 'secret12',
  })
  await gotoHydrated(page, '/product/streamverse-premium-12-months')
  await gotoHydrated(page, '/admin/dashboard')
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible()
  await expect(page.getByText("You don't have admin permissions.")).toBeVisible()
  await page.getByRole('button', { name: 'Go Back' }).click()
  await expect(page).toHaveURL('/product/streamverse-premium-12-months')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('sign-up, log-in and the login modal work as plain HTML', async ({ page }) => {
    const email = uniqueEmail('nojs')
    await page.goto('/signup')
    await page.getByRole('button', { name: 'Create account' }).click()
    // Checked on the server, same messages.
    await expect(page.getByText('Name is required')).toBeVisible()
    await page.getByLabel('Full name').fill('Plain Html')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('secret12')
    await page.getByLabel('Confirm password').fill('secret1')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByText('Passwords do not match')).toBeVisible()
    await page.getByLabel('Password', { exact: true }).fill('secret12')
    await page.getByLabel('Confirm password').fill('secret12')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()

    // The modal is in the HTML too: the admin guard's way back works without JavaScript.
    await page.goto('/?login=1&redirectTo=%2Fdashboard')
    const dialog = page.getByRole('dialog', { name: 'Log in' })
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill('secret12')
    await dialog.getByRole('button', { name: 'Log in' }).click()
    await expect(page).toHaveURL('/dashboard')
    await expect(page.getByRole('heading', { name: 'Welcome back, Plain Html!' })).toBeVisible()
  })
})
