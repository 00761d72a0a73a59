import crypto from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { findUserByEmail } from '~/data/user.server'
import { submitLogIn } from '../helpers/account'
import { adminTest } from '../helpers/admin'
import { expect, gotoHydrated, testClientAddress } from '../helpers/fixtures'
import { signUpConfirmed, waitForMail } from '../helpers/mailbox'
import { openAddGatewayForm } from '../helpers/payments'

/**
 * The admin's Users pages and the audit log in the production build: the list with its
 * figures and search, a user's page with Edit, Reset Password (in their dialogs, and in the page
 * without JavaScript), Make Admin and Suspend, the refusal to suspend yourself, and the audit log
 * showing a gateway save and a suspension.
 */
const OWNER = { name: 'Shop Owner', email: 'owner.users@example.test', password: 'secret12' }
const admin = adminTest(OWNER)
const { logIn, logInWithoutJavaScript } = admin
const test = admin.test

const SUSPENDED = 'Your account has been suspended. Please contact support.'

/** A confirmed customer account; returns its address and a session cookie. */
async function newCustomer(appUrl: string, box: { dataDir: string }, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${crypto.randomBytes(3).toString('hex')}@example.test`
  const cookie = await signUpConfirmed(appUrl, box, { name, email, password: 'first-pass1' })
  return { name, email, cookie }
}

/** Whether a session cookie still opens the customer's dashboard. */
async function signedIn(appUrl: string, cookie: string): Promise<boolean> {
  const response = await fetch(`${appUrl}/dashboard`, { headers: { cookie }, redirect: 'manual' })
  return response.status === 200
}

async function customerLogsIn(browser: Browser, appUrl: string, email: string, password: string) {
  const context = await browser.newContext({
    baseURL: appUrl,
    extraHTTPHeaders: { 'X-Forwarded-For': testClientAddress() },
  })
  const page = await context.newPage()
  await submitLogIn(page, email, password)
  return { page, close: () => context.close() }
}

async function openUser(page: Page, customer: { name: string; email: string }) {
  await gotoHydrated(page, `/admin/users?q=${encodeURIComponent(customer.email)}`)
  await page
    .getByRole('row')
    .filter({ hasText: customer.email })
    .getByRole('link', { name: customer.name })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible()
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
}

/** The owner, signed in, on the back-office page of a new confirmed customer. */
async function openNewCustomer(page: Page, app: { url: string; dataDir: string }, name: string) {
  const customer = await newCustomer(app.url, app, name)
  await logIn(page)
  await openUser(page, customer)
  return customer
}

/** Suspend on the user's page, confirmed in its dialog. */
async function suspendUser(page: Page) {
  await page.getByRole('button', { name: 'Suspend' }).click()
  await page
    .getByRole('alertdialog', { name: 'Suspend this user?' })
    .getByRole('button', { name: 'Suspend' })
    .click()
}

test.describe('admin users', () => {
  // Each test signs up a customer through the mailed link and hashes passwords: slow on a busy machine.
  test.describe.configure({ timeout: 120_000 })

  test('the list shows figures, search, real activity, orders; Edit changes name, role and flags', async ({
    page,
    app,
    db,
  }) => {
    const customer = await newCustomer(app.url, app, 'Asha Edit')
    await logIn(page)
    await page.setViewportSize({ width: 1280, height: 900 })
    await gotoHydrated(page, '/admin/users')
    // On a 1280 px laptop the table fits beside the sidebar: no column hides behind a scroll.
    const table = page.getByRole('table')
    expect(
      await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth),
    ).toBeLessThanOrEqual(0)
    const figures = page.getByRole('list', { name: 'Users at a glance' })
    const total = await db
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    await expect(figures.getByRole('listitem').filter({ hasText: 'Total users' })).toContainText(
      String(total.n),
    )
    await expect(figures.getByRole('listitem').filter({ hasText: 'New this month' })).toBeVisible()

    await page.getByLabel('Search by name or email').fill(customer.email)
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page).toHaveURL(/q=/)
    const row = page.getByRole('row').filter({ hasText: customer.email })
    await expect(row).toHaveCount(1)
    // Joined is the day; signed in through the confirmation link, last active is a time, not "Never".
    await expect(row.locator('time').first()).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/)
    await expect(row).not.toContainText('Never')
    await expect(row).toContainText('₹0')

    await row.getByRole('link', { name: customer.name }).click()
    await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible()
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
    await page.getByRole('button', { name: 'Edit User' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit User' })
    await expect(dialog.getByLabel('Email')).toBeDisabled()
    await expect(dialog.getByLabel('Email')).toHaveValue(customer.email)
    await expect(dialog.getByText('Email cannot be changed')).toBeVisible()
    await dialog.getByLabel('Display name').fill('')
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await expect(dialog.getByText('Display name is required')).toBeVisible()
    await dialog.getByLabel('Display name').fill('Asha Renamed')
    await dialog.getByLabel('Role').selectOption('admin')
    await dialog.getByLabel('Can Manage Orders').check()
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await expect(page.getByText('User Asha Renamed updated successfully')).toBeVisible()
    await expect(dialog).toHaveCount(0)
    const stored = await findUserByEmail(db, customer.email)
    expect(stored).toMatchObject({
      name: 'Asha Renamed',
      role: 'admin',
      permissions: { canCreateProducts: false, canManageOrders: true, canManageUsers: false },
    })
  })

  test('Reset Password checks both fields, sets the password, ends sessions and mails the user', async ({
    page,
    app,
    browser,
  }) => {
    const customer = await newCustomer(app.url, app, 'Ravi Reset')
    expect(await signedIn(app.url, customer.cookie)).toBe(true)
    await logIn(page)
    await openUser(page, customer)
    await page.getByRole('button', { name: 'Reset Password' }).click()
    const dialog = page.getByRole('dialog', { name: 'Reset Password' })
    await dialog.getByLabel('New password').fill('abc')
    await dialog.getByLabel('Confirm password').fill('abc')
    await dialog.getByRole('button', { name: 'Reset Password' }).click()
    await expect(dialog.getByText('Password must be at least 6 characters!')).toBeVisible()
    await dialog.getByLabel('New password').fill('brand-new-pass')
    await dialog.getByLabel('Confirm password').fill('brand-new-pasS')
    await dialog.getByRole('button', { name: 'Reset Password' }).click()
    await expect(dialog.getByText("Passwords don't match!")).toBeVisible()
    await dialog.getByLabel('Confirm password').fill('brand-new-pass')
    await dialog.getByRole('button', { name: 'Reset Password' }).click()
    await expect(page.getByText(/Password of Ravi Reset reset/)).toBeVisible()

    // The old session is gone; the old password no longer works; the new one does.
    expect(await signedIn(app.url, customer.cookie)).toBe(false)
    const old = await customerLogsIn(browser, app.url, customer.email, 'first-pass1')
    await expect(old.page.getByText('Invalid email or password')).toBeVisible()
    await old.close()
    const fresh = await customerLogsIn(browser, app.url, customer.email, 'brand-new-pass')
    await expect(fresh.page).toHaveURL('/')
    await fresh.page.goto('/dashboard')
    await expect(fresh.page).toHaveURL('/dashboard')
    await fresh.close()
    const mail = await waitForMail(app, customer.email, (m) =>
      m.subject.includes('password was changed'),
    )
    expect(mail.text).not.toContain('brand-new-pass')
  })

  test('without JavaScript, Edit User and Reset Password open in the page and save', async ({
    app,
    browser,
    db,
  }) => {
    const customer = await newCustomer(app.url, app, 'Noor NoScript')
    const user = (await findUserByEmail(db, customer.email))!
    const userUrl = `/admin/users/${user.id}`
    const { context, page } = await logInWithoutJavaScript(browser, app.url)
    try {
      await page.goto(userUrl)
      await page.getByRole('button', { name: 'Edit User' }).click()
      await expect(page).toHaveURL(`${userUrl}?edit=1`)
      const edit = page.getByRole('region', { name: 'Edit User' })
      await expect(edit.getByLabel('Email')).toHaveValue(customer.email)
      await expect(edit.getByLabel('Display name')).toHaveValue('Noor NoScript')
      // A refused edit comes back in the page with its message.
      await edit.getByLabel('Display name').fill('')
      await edit.getByRole('button', { name: 'Save Changes' }).click()
      await expect(edit.getByText('Display name is required')).toBeVisible()
      await edit.getByLabel('Display name').fill('Noor Renamed')
      await edit.getByLabel('Can Manage Orders').check()
      await edit.getByLabel('Role').selectOption('admin')
      await edit.getByRole('button', { name: 'Save Changes' }).click()
      await expect(page).toHaveURL(userUrl)
      await expect(page.getByText('User Noor Renamed updated successfully')).toBeVisible()
      await expect(page.getByRole('region', { name: 'Edit User' })).toHaveCount(0)
      expect(await findUserByEmail(db, customer.email)).toMatchObject({
        name: 'Noor Renamed',
        role: 'admin',
        permissions: { canManageOrders: true },
      })

      // Cancel goes back to the user's page.
      await page.getByRole('button', { name: 'Reset Password' }).click()
      await expect(page).toHaveURL(`${userUrl}?reset=1`)
      await page
        .getByRole('region', { name: 'Reset Password' })
        .getByRole('link', { name: 'Cancel' })
        .click()
      await expect(page).toHaveURL(userUrl)
      await expect(page.getByRole('region', { name: 'Reset Password' })).toHaveCount(0)

      await page.getByRole('button', { name: 'Reset Password' }).click()
      const reset = page.getByRole('region', { name: 'Reset Password' })
      await reset.getByLabel('New password').fill('noscript-pass1')
      await reset.getByLabel('Confirm password').fill('noscript-pass2')
      await reset.getByRole('button', { name: 'Reset Password' }).click()
      await expect(reset.getByText("Passwords don't match!")).toBeVisible()
      await reset.getByLabel('New password').fill('noscript-pass1')
      await reset.getByLabel('Confirm password').fill('noscript-pass1')
      await reset.getByRole('button', { name: 'Reset Password' }).click()
      await expect(page).toHaveURL(userUrl)
      await expect(page.getByText(/Password of Noor Renamed reset/)).toBeVisible()
    } finally {
      await context.close()
    }
    const fresh = await customerLogsIn(browser, app.url, customer.email, 'noscript-pass1')
    await expect(fresh.page).toHaveURL('/')
    await fresh.close()
  })

  test('Make Admin asks first, grants every permission and is then hidden', async ({
    page,
    app,
    db,
  }) => {
    const customer = await openNewCustomer(page, app, 'Meera Promote')
    await page.getByRole('button', { name: 'Make Admin' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Make this user an admin?' })
    await confirm.getByRole('button', { name: 'Make Admin' }).click()
    await expect(
      page.getByText('Meera Promote is now an admin with every permission'),
    ).toBeVisible()
    await expect(page.getByRole('button', { name: 'Make Admin' })).toHaveCount(0)
    expect(await findUserByEmail(db, customer.email)).toMatchObject({
      role: 'admin',
      permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
    })
  })

  test('Suspend signs the user out and refuses their sign-in; nobody suspends themselves', async ({
    page,
    app,
    db,
    browser,
  }) => {
    const customer = await openNewCustomer(page, app, 'Kiran Suspend')
    await suspendUser(page)
    await expect(page.getByText('Kiran Suspend has been suspended and signed out')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Reactivate' })).toBeVisible()
    expect(await signedIn(app.url, customer.cookie)).toBe(false)
    const refused = await customerLogsIn(browser, app.url, customer.email, 'first-pass1')
    await expect(refused.page.getByText(SUSPENDED)).toBeVisible()
    await refused.close()

    // Your own page offers no Suspend, and the edit dialog's status is refused by the server.
    const owner = (await findUserByEmail(db, OWNER.email))!
    await gotoHydrated(page, `/admin/users/${owner.id}`)
    await expect(page.getByRole('button', { name: 'Edit User' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Suspend' })).toHaveCount(0)
    await page.getByRole('button', { name: 'Edit User' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit User' })
    await dialog.getByLabel('Status').selectOption('suspended')
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(
      'Failed to update user: You cannot suspend your own account',
    )
    expect((await findUserByEmail(db, OWNER.email))?.status).toBe('active')
    // A post without the page is refused the same way.
    const response = await page.request.post(`/admin/users/${owner.id}`, {
      form: { intent: 'suspend', confirmed: 'yes' },
      maxRedirects: 0,
    })
    expect(response.status()).toBe(303)
    expect((await findUserByEmail(db, OWNER.email))?.status).toBe('active')
  })

  test('no other admin may suspend the ADMIN_EMAILS owner or set their password', async ({
    page,
    app,
    db,
    browser,
  }) => {
    // The owner makes a customer an admin with every permission, Can Manage Users included.
    const helper = await openNewCustomer(page, app, 'Helper Admin')
    await page.getByRole('button', { name: 'Make Admin' }).click()
    await page
      .getByRole('alertdialog', { name: 'Make this user an admin?' })
      .getByRole('button', { name: 'Make Admin' })
      .click()
    await expect(page.getByText('Helper Admin is now an admin with every permission')).toBeVisible()
    const owner = (await findUserByEmail(db, OWNER.email))!

    const session = await customerLogsIn(browser, app.url, helper.email, 'first-pass1')
    await session.page.waitForURL((url) => !url.pathname.startsWith('/login'))
    await gotoHydrated(session.page, `/admin/users/${owner.id}`)
    await expect(session.page.getByText('Admin (locked)')).toBeVisible()
    await expect(session.page.getByRole('button', { name: 'Edit User' })).toBeVisible()
    await expect(session.page.getByRole('button', { name: 'Suspend' })).toHaveCount(0)
    await expect(session.page.getByRole('button', { name: 'Reset Password' })).toHaveCount(0)
    // Posted without the page, both are refused and change nothing.
    const suspend = await session.page.request.post(`/admin/users/${owner.id}`, {
      form: { intent: 'suspend', confirmed: 'yes' },
      maxRedirects: 0,
    })
    expect(suspend.status()).toBe(303)
    const reset = await session.page.request.post(`/admin/users/${owner.id}`, {
      form: { intent: 'reset-password', password: 'taken-over-1', confirmPassword: 'taken-over-1' },
      maxRedirects: 0,
    })
    expect(reset.status()).toBe(400)
    expect(await reset.text()).toContain('only its owner can change its password')
    await session.close()
    expect((await findUserByEmail(db, OWNER.email))?.status).toBe('active')
    // The owner still signs in with their own password.
    const login = await fetch(`${app.url}/login`, {
      method: 'POST',
      body: new URLSearchParams({ email: OWNER.email, password: OWNER.password }),
      headers: { 'X-Forwarded-For': testClientAddress() },
      redirect: 'manual',
    })
    expect(login.headers.getSetCookie().some((cookie) => cookie.includes('session_token='))).toBe(
      true,
    )
  })

  test('an edit made over a change saved since the page loaded is refused, not applied', async ({
    page,
    app,
    db,
  }) => {
    const customer = await openNewCustomer(page, app, 'Stale Edit')
    await page.getByRole('button', { name: 'Edit User' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit User' })
    await dialog.getByLabel('Display name').fill('Stale Edit Renamed')
    // Meanwhile another admin suspends the customer.
    const user = (await findUserByEmail(db, customer.email))!
    const suspend = await page.request.post(`/admin/users/${user.id}`, {
      form: { intent: 'suspend', confirmed: 'yes' },
      maxRedirects: 0,
    })
    expect(suspend.status()).toBe(303)
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(
      'Failed to update user: Someone else changed this user after this page was loaded, so nothing was saved. Reload the page to see the change.',
    )
    expect(await findUserByEmail(db, customer.email)).toMatchObject({
      name: 'Stale Edit',
      status: 'suspended',
    })
  })

  test('the audit log shows a gateway save (secrets masked) and a suspension, with filters', async ({
    page,
    app,
  }) => {
    const customer = await newCustomer(app.url, app, 'Audit Target')
    await logIn(page)
    await openAddGatewayForm(page, 'Razorpay')
    await page.getByLabel('Key ID').fill('rzp_test_AuDiT123456')
    await page.getByLabel('Key Secret').fill('razor-audit-secret-987')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByText('Gateway configuration saved.')).toBeVisible()

    await openUser(page, customer)
    await suspendUser(page)
    await expect(page.getByText('Audit Target has been suspended and signed out')).toBeVisible()

    await gotoHydrated(page, '/admin/audit')
    const entries = page.getByRole('list', { name: 'Changes, newest first' }).getByRole('listitem')
    const suspension = entries.filter({ hasText: `Suspended Audit Target (${customer.email})` })
    await expect(suspension).toContainText('Shop Owner')
    await expect(suspension).toContainText('user.suspend')
    await expect(suspension.getByRole('row', { name: /status/ })).toContainText('active')
    await expect(suspension.getByRole('row', { name: /status/ })).toContainText('suspended')
    const gateway = entries.filter({ hasText: 'gateway.create' })
    await expect(gateway.getByRole('row', { name: /keyId/ })).toContainText('rzp_test_AuDiT123456')
    await expect(gateway.getByRole('row', { name: /keySecret/ })).toContainText('••••')
    expect(await page.content()).not.toContain('razor-audit-secret-987')

    // Filter by kind: only the gateway entry is left of the two (a choice applies at once).
    await page.getByLabel('Kind').selectOption('gateway')
    await expect(page).toHaveURL(/kind=gateway/)
    await expect(entries.filter({ hasText: 'user.suspend' })).toHaveCount(0)
    await expect(entries.filter({ hasText: 'gateway.create' })).toHaveCount(1)
    // A date range that ends before today shows nothing; a wrong one says so.
    await page.goto('/admin/audit?to=2020-01-01')
    await expect(page.getByText('No Entries Found')).toBeVisible()
    await page.goto('/admin/audit?from=2026-05-02&to=2026-05-01')
    await expect(page.getByRole('alert')).toContainText('"From" date must be on or before')
    // A day that does not exist is refused, not read as another.
    await page.goto('/admin/audit?to=2026-02-31')
    await expect(page.getByRole('alert')).toContainText(
      'The "To" date must be a date like 2026-03-05.',
    )
    // Reviews can be picked as a kind; a name every object has is not a kind.
    await expect(page.getByLabel('Kind').locator('option[value="review"]')).toHaveText('Reviews')
    await page.goto('/admin/audit?kind=constructor')
    await expect(page.getByLabel('Kind')).toHaveValue('')
  })
})
