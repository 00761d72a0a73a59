import crypto from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from '../helpers/csp'
import { gotoHydrated } from '../helpers/fixtures'
import { ACCOUNT_PAGES } from '../helpers/account'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import {
  confirmationPath,
  confirmInBrowser,
  signUpConfirmed,
  submitSignUp,
  waitForMail,
  type Mailbox,
} from '../helpers/mailbox'

/** Accounts in the browser: sign up, log in and out, the modals, the customer area. */
const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

/** Signs up in the modal, then opens the mailed confirmation link, which signs in. */
async function signUpInModal(
  page: Page,
  mailbox: Mailbox,
  user: { name: string; email: string; password: string },
) {
  await gotoHydrated(page, '/')
  await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).click()
  await submitSignUp(page.getByRole('dialog', { name: 'Create your account' }), user)
  await confirmInBrowser(
    page,
    await confirmationPath(mailbox, user.email.toLowerCase()),
    user.password,
  )
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
}

test('sign-up shows each validation message, and they clear as the field is edited', async ({
  page,
  app,
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

  const email = uniqueEmail('ravi')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill('secret12')
  await page.getByLabel('Confirm password').fill('secret13')
  await submit.click()
  await expect(page.getByText('Passwords do not match')).toBeVisible()
  await expect(page.getByText('Password must be at least 6 characters long')).toHaveCount(0)

  await page.getByLabel('Confirm password').fill('secret12')
  await submit.click()
  await expect(page.getByText('Check your inbox to confirm your address.')).toBeVisible()
  await confirmInBrowser(page, await confirmationPath(app, email), 'secret12')
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
    'href',
    '/dashboard',
  )
})

/** What a sign-up that went through shows in place of its form (`where`: the page or the modal). */
async function expectSignUpSent(where: Page | Locator, email: string) {
  const sent = where.getByRole('status')
  await expect(sent).toHaveText(
    `Check your inbox to confirm your address. We have sent an e-mail to ${email}: open the link in it to finish signing up.`,
  )
  // The filled form is gone, passwords and all: nothing invites a second sign-up.
  await expect(where.getByRole('button', { name: 'Create account' })).toHaveCount(0)
  await expect(where.getByLabel('Full name')).toHaveCount(0)
  await expect(where.locator('input[type="password"]')).toHaveCount(0)
  await expect(where.getByText('No e-mail?')).toBeVisible()
  await expect(where.getByText('Look in your spam or junk folder too.')).toBeVisible()
}

test('a sign-up that went through shows "check your inbox" in place of the form, on the page and in the modal', async ({
  page,
}) => {
  const user = { name: 'Meera Iyer', email: uniqueEmail('meera'), password: 'secret12' }
  await gotoHydrated(page, '/signup')
  await page.getByLabel('Full name').fill(user.name)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await page.getByLabel('Confirm password').fill(user.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  const main = page.getByRole('main')
  await expectSignUpSent(main, user.email)
  // The form the focus was in is gone: the message has it.
  await expect(main.locator('[tabindex="-1"]', { hasText: 'Check your inbox' })).toBeFocused()
  expect(await page.content()).not.toContain(user.password)
  await expect(main.getByRole('link', { name: 'Set a new password' })).toHaveAttribute(
    'href',
    '/forgot-password',
  )
  await expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
  await screenshotWidthsAndThemes(page, 'signup-sent')

  // A mistyped address: the form again, empty.
  await main.getByRole('link', { name: 'Sign up again' }).click()
  await expect(page.getByLabel('Full name')).toHaveValue('')
  await expect(page.getByLabel('Email')).toHaveValue('')
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('')
  await expect(page.getByRole('status')).toHaveCount(0)

  // The modal over a page does the same.
  await gotoHydrated(page, '/')
  await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create your account' })
  const other = { ...user, email: uniqueEmail('meera.modal') }
  await submitSignUp(dialog, other)
  await expectSignUpSent(dialog, other.email)
  await expect(dialog.getByRole('link', { name: 'Set a new password' })).toHaveAttribute(
    'href',
    '/?forgot=1',
  )
  await screenshotWidthsAndThemes(page, 'signup-sent-modal')
})

test('logs in, logs out, and refuses a wrong password with the provider message', async ({
  page,
  app,
}) => {
  const user = { name: 'Anita Das', email: uniqueEmail('anita'), password: 'secret12' }
  await signUpInModal(page, app, user)
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
  app,
}) => {
  const email = uniqueEmail('firstbyte')
  const signup = await request.post('/signup', {
    form: { name: 'First Byte', email, password: 'secret12', confirmPassword: 'secret12' },
    maxRedirects: 0,
  })
  // Nobody is signed in by the form itself: the mailed link does that.
  expect(signup.status()).toBe(200)
  expect(signup.headers()['set-cookie'] ?? '').not.toMatch(/session_token/)
  const link = await confirmationPath(app, email)
  // Opening the link signs in nobody either: its form, with the sign-up's password, does.
  const opened = await request.get(link, { maxRedirects: 0 })
  expect(opened.status()).toBe(200)
  expect(opened.headers()['set-cookie'] ?? '').not.toMatch(/session_token/)
  const token = new URL(link, app.url).searchParams.get('token') ?? ''
  const wrong = await request.post(link, {
    form: { token, password: 'not-the-one', redirectTo: '' },
    maxRedirects: 0,
  })
  expect(wrong.status()).toBe(400)
  expect(wrong.headers()['set-cookie'] ?? '').not.toMatch(/session_token/)
  const confirmed = await request.post(link, {
    form: { token, password: 'secret12', redirectTo: '' },
    maxRedirects: 0,
  })
  expect(confirmed.status()).toBe(302)
  const cookie = confirmed.headers()['set-cookie'] ?? ''
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

test('e-mail addresses are case-insensitive', async ({ page, app }) => {
  const email = uniqueEmail('Kavya.Rao')
  await signUpInModal(page, app, {
    name: 'Kavya Rao',
    email: email.toUpperCase(),
    password: 'secret12',
  })
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click()
  // Signed out once the header offers Login again; leaving sooner would cancel the sign-out.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()

  await gotoHydrated(page, '/login')
  await page.getByLabel('Email').fill(email.toLowerCase())
  await page.getByLabel('Password').fill('secret12')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
})

test('sign-up answers a taken address exactly like a new one, and mails the owner instead', async ({
  app,
}) => {
  const owner = uniqueEmail('owner')
  await signUpConfirmed(app.url, app, { name: 'Owner', email: owner, password: 'owners-secret' })

  const attempt = (email: string) =>
    fetch(`${app.url}/signup`, {
      method: 'POST',
      body: new URLSearchParams({
        name: 'Prober',
        email,
        password: 'probe-secret',
        confirmPassword: 'probe-secret',
      }),
      redirect: 'manual',
    })
  const fresh = uniqueEmail('fresh')
  const [taken, free] = [await attempt(owner), await attempt(fresh)]
  expect(taken.status).toBe(200)
  expect(free.status).toBe(200)
  expect(taken.headers.getSetCookie()).toEqual([])
  expect(free.headers.getSetCookie()).toEqual([])
  // The same page, but for the address typed in (and each response's own CSP nonce).
  const normalised = (html: string, email: string) =>
    html.replaceAll(email, 'ADDRESS').replace(/nonce="[^"]*"/g, 'nonce=""')
  const takenHtml = normalised(await taken.text(), owner)
  const freeHtml = normalised(await free.text(), fresh)
  expect(takenHtml).toContain('Check your inbox to confirm your address.')
  expect(takenHtml).toBe(freeHtml)

  // The owner hears about it and keeps the account; the prober's password opens nothing.
  const notice = await waitForMail(app, owner, (mail) => mail.subject.startsWith('Someone tried'))
  expect(notice.text).toContain('you already have one. No new account was created')
  const probe = await fetch(`${app.url}/login`, {
    method: 'POST',
    body: new URLSearchParams({ email: owner, password: 'probe-secret' }),
    redirect: 'manual',
  })
  expect(probe.status).toBe(401)
  // Before its link is opened, the new address answers a sign-in exactly like a wrong password.
  const early = await fetch(`${app.url}/login`, {
    method: 'POST',
    body: new URLSearchParams({ email: fresh, password: 'probe-secret' }),
    redirect: 'manual',
  })
  expect(early.status).toBe(401)
  expect(normalised(await early.text(), fresh)).toBe(normalised(await probe.text(), owner))
})

test('the customer dashboard needs sign-in, greets by name and changes the password', async ({
  page,
  app,
}) => {
  const user = { name: 'Dev Malhotra', email: uniqueEmail('dev'), password: 'secret12' }
  await gotoHydrated(page, '/dashboard')
  await expect(page).toHaveURL('/login?redirectTo=%2Fdashboard')
  await page.getByRole('main').getByRole('link', { name: 'Sign up' }).click()
  await expect(page).toHaveURL('/signup?redirectTo=%2Fdashboard')
  await submitSignUp(page, user)
  // The mailed link signs in and comes back to the page that asked for it.
  await confirmInBrowser(page, await confirmationPath(app, user.email), user.password)

  await expect(page).toHaveURL('/dashboard')
  await expect(page.getByRole('heading', { name: 'Welcome back, Dev Malhotra!' })).toBeVisible()
  const sidebar = page.getByRole('navigation', { name: 'Account' })
  await expect(sidebar.getByRole('link')).toHaveText(ACCOUNT_PAGES)
  // The quick action (the empty states have their own Browse Products links).
  await page
    .getByRole('region', { name: 'Quick actions' })
    .getByRole('link', { name: 'Browse Products' })
    .click()
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

  // Still signed in on this device; the new password works after logging out (profile menu).
  await page.getByLabel(/^Profile menu/).click()
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
  await gotoHydrated(page, '/login')
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill('better-secret')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
})

test('a customer in the admin area sees Access Denied and can go back', async ({ page, app }) => {
  await signUpInModal(page, app, {
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

  test('a sign-up that went through shows "check your inbox" in place of the form, without the passwords', async ({
    page,
  }) => {
    const user = {
      name: 'Plain Sent',
      email: uniqueEmail('plain.sent'),
      password: 'plain-secret-9',
    }
    await page.goto('/signup')
    await page.getByLabel('Full name').fill(user.name)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    await page.getByLabel('Confirm password').fill(user.password)
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.getByRole('button', { name: 'Create account' }).click(),
    ])
    expect(answer.status()).toBe(200)
    expect(await answer.text()).not.toContain(user.password)
    await expectSignUpSent(page.getByRole('main'), user.email)
    // "Sign up again" is a plain link to the empty form.
    await page.getByRole('link', { name: 'Sign up again' }).click()
    await expect(page).toHaveURL('/signup')
    await expect(page.getByLabel('Full name')).toHaveValue('')
    await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible()
  })

  test('sign-up, log-in and the login modal work as plain HTML', async ({ page, app }) => {
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
    await expect(page.getByText('Check your inbox to confirm your address.')).toBeVisible()
    await confirmInBrowser(page, await confirmationPath(app, email), 'secret12')
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
