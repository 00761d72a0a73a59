import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { BUYER, makePaidOrder, makeProduct, openAppDatabase } from '../factories'
import { expect, gotoHydrated, test } from '../helpers/fixtures'
import { signUpConfirmed, signUpInBrowser } from '../helpers/mailbox'
import { getOrder } from '~/data/order.server'
import { findUserByEmail } from '~/data/user.server'
import { getCustomerBusiness } from '~/data/customer-gst.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { pdfText } from '../helpers/pdf'

/**
 * /dashboard/settings with real accounts (signed up through the mailed link): profile name and
 * photo, preferences applied from the first byte after a reload, deleting the account, and
 * guest orders with the verified address in My Orders.
 */
// Each test signs up through the mailed link first; the shared machine can be slow.
test.describe.configure({ timeout: 120_000 })

const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

/** The <html> element's class in the server's HTML (what the first byte carries). */
async function htmlClassOf(page: Page, url: string) {
  const html = await (await page.request.get(url)).text()
  return /<html[^>]*class="([^"]*)"/.exec(html)?.[1]
}

/**
 * The e-mail is shown, not offered for editing: read-only (focusable, with its note as the
 * description), sent with no form, and drawn unlike the editable fields, in both themes.
 */
async function expectReadOnlyEmail(page: Page) {
  const email = page.getByRole('textbox', { name: 'E-mail' })
  const name = page.getByLabel('Display name')
  await expect(email).toHaveJSProperty('readOnly', true)
  await expect(email).not.toHaveAttribute('name')
  const before = await email.inputValue()
  await email.focus()
  await page.keyboard.type('x')
  await expect(email).toHaveValue(before)
  const look = (locator: typeof email) =>
    locator.evaluate((element) => {
      const style = getComputedStyle(element)
      return { background: style.backgroundColor, cursor: style.cursor }
    })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const [shown, editable] = await Promise.all([look(email), look(name)])
    expect(shown.background, scheme).not.toBe(editable.background)
    expect(shown.cursor).toBe('default')
  }
  await page.emulateMedia({ colorScheme: null })
  await expect(email).toHaveAccessibleDescription(
    'Your e-mail address is your login and cannot be changed.',
  )
}

test('saves the name and preferences, applied after a reload from the first byte', async ({
  page,
  app,
}) => {
  const user = { name: 'Neha Rao', email: uniqueEmail('neha'), password: 'neha-secret-1' }
  await signUpInBrowser(page, app, user)
  await gotoHydrated(page, '/dashboard/settings')
  await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveValue(user.email)
  await expect(page.getByRole('textbox', { name: 'E-mail' })).not.toBeEditable()
  await expectReadOnlyEmail(page)

  // A blank name is refused and changes nothing.
  await page.getByLabel('Display name').fill('   ')
  await page.getByRole('button', { name: 'Save name' }).click()
  await expect(page.getByText('Name is required')).toBeVisible()
  await page.getByLabel('Display name').fill('Neha R.')
  await page.getByRole('button', { name: 'Save name' }).click()
  await expect(page.getByRole('status')).toHaveText('Your name has been saved.')

  await page.getByLabel('Theme').selectOption('dark')
  await page.getByLabel('Language').selectOption('hi')
  await page.getByLabel('E-mail me reminders and offers').uncheck()
  await page.getByRole('button', { name: 'Save preferences' }).click()
  await expect(page.getByRole('status')).toHaveText('Your preferences have been saved.')

  // Stored with the account, not only in this browser's cookies.
  await page.context().clearCookies({ name: 'theme' })
  await page.context().clearCookies({ name: 'lang' })
  expect(await htmlClassOf(page, '/dashboard/settings')).toBe('dark')
  expect(await htmlClassOf(page, '/')).toBe('dark')
  await page.reload()
  await expect(page.locator('html')).toHaveClass('dark')
  await expect(page.getByLabel('Display name')).toHaveValue('Neha R.')
  await expect(page.getByRole('banner')).toContainText('Neha R.')
  await expect(page.getByLabel('Theme')).toHaveValue('dark')
  await expect(page.getByLabel('Language')).toHaveValue('hi')
  await expect(page.getByLabel('E-mail me reminders and offers')).not.toBeChecked()

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({
      path: test.info().outputPath(`settings-dark-${width}.png`),
      fullPage: true,
    })
  }
  await page.getByLabel('Theme').selectOption('light')
  await page.getByRole('button', { name: 'Save preferences' }).click()
  await expect(page.getByRole('status')).toHaveText('Your preferences have been saved.')
  await page.reload()
  await expect(page.locator('html')).toHaveClass('light')
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({
      path: test.info().outputPath(`settings-light-${width}.png`),
      fullPage: true,
    })
  }

  // Signed out, this browser keeps the last choice in its cookie.
  await page.context().clearCookies({ name: 'theme' })
  await page.getByLabel(/^Profile menu/).click()
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/$/)
  expect(await htmlClassOf(page, '/')).not.toBe('light')
})

test('a settings page left open does not undo a theme saved in another tab, however often it saves', async ({
  page,
  app,
}) => {
  await signUpInBrowser(page, app, {
    name: 'Theme Keeper',
    email: uniqueEmail('keeper'),
    password: 'keeper-secret-1',
  })
  const theme = (tab: Page) => tab.getByRole('combobox', { name: 'Theme' })
  const save = async (tab: Page) => {
    await tab.getByRole('button', { name: 'Save preferences' }).click()
    await expect(tab.getByRole('status')).toHaveText('Your preferences have been saved.')
  }
  await gotoHydrated(page, '/dashboard/settings')
  await theme(page).selectOption('light')
  await save(page)
  // Another tab saves Dark.
  const other = await page.context().newPage()
  await gotoHydrated(other, '/dashboard/settings')
  await theme(other).selectOption('dark')
  await save(other)
  await other.close()
  // The first tab, still showing Light, saves the e-mail box twice (the page's data reloads
  // after each save, with Dark).
  const box = page.getByLabel('E-mail me reminders and offers')
  await box.uncheck()
  await save(page)
  await expect(theme(page)).toHaveValue('light')
  await box.check()
  await save(page)
  await page.context().clearCookies({ name: 'theme' })
  expect(await htmlClassOf(page, '/dashboard/settings')).toBe('dark')
})

test('uploads a profile photo as a square WebP and refuses a file that is not an image', async ({
  page,
  app,
}) => {
  const user = { name: 'Arjun Das', email: uniqueEmail('arjun'), password: 'arjun-secret-1' }
  await signUpInBrowser(page, app, user)
  await gotoHydrated(page, '/dashboard/settings')
  await expect(page.getByRole('img', { name: 'No profile photo' })).toBeVisible()

  // A text file named like a PNG passes the browser's look at the name; the server reads the bytes.
  await page.getByLabel('Profile photo', { exact: true }).setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('this is not an image at all'),
  })
  await page.getByRole('button', { name: 'Upload photo' }).click()
  await expect(page.getByText('Please select a valid image file (JPEG, PNG, WebP)')).toBeVisible()
  await expect(page.getByRole('img', { name: 'No profile photo' })).toBeVisible()

  const jpeg = await sharp({
    create: { width: 640, height: 400, channels: 3, background: { r: 200, g: 60, b: 90 } },
  })
    .jpeg()
    .toBuffer()
  await page
    .getByLabel('Profile photo', { exact: true })
    .setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: jpeg })
  await page.getByRole('button', { name: 'Upload photo' }).click()
  await expect(page.getByRole('status')).toHaveText('Your photo has been updated.')
  const photo = page.getByRole('img', { name: 'Your profile photo' })
  await expect(photo).toBeVisible()
  const src = (await photo.getAttribute('src'))!
  expect(src).toMatch(/^\/uploads\/avatars\/\d+_[0-9a-f]{12}\.webp$/)
  const served = await page.request.get(src)
  expect(served.status()).toBe(200)
  const meta = await sharp(await served.body()).metadata()
  expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 })

  // Kept after a reload; removing it deletes the file.
  await page.reload()
  await expect(page.getByRole('img', { name: 'Your profile photo' })).toHaveAttribute('src', src)
  await page.getByRole('button', { name: 'Remove photo' }).click()
  await expect(page.getByRole('status')).toHaveText('Your photo has been removed.')
  await expect(page.getByRole('img', { name: 'No profile photo' })).toBeVisible()
  expect((await page.request.get(src)).status()).toBe(404)
})

test('a guest order with the verified address appears in My Orders and opens', async ({
  page,
  app,
}) => {
  const email = uniqueEmail('guest')
  const db = openAppDatabase(app)
  let orderId: string
  try {
    const product = await makeProduct(db, { title: 'Guest Plan', price: 19_900 })
    const order = await makePaidOrder(db, product.id, {
      customer: { ...BUYER, email },
      userId: null,
    })
    orderId = order.id
  } finally {
    await db.destroy()
  }
  await signUpInBrowser(page, app, { name: 'Guest Buyer', email, password: 'guest-secret-1' })
  await page.goto('/dashboard/orders')
  const link = page.getByRole('main').getByRole('link', { name: new RegExp(orderId) })
  await expect(link.first()).toBeVisible()
  await page.goto(`/orders/${orderId}`)
  await expect(page.getByRole('heading', { name: /Guest Plan|Order/ }).first()).toBeVisible()
})

test('business details: refused with clear messages, then named with the GSTIN on the invoice of the next order', async ({
  page,
  app,
}) => {
  const email = uniqueEmail('udyam')
  await signUpInBrowser(page, app, { name: 'Rohan Mehta', email, password: 'rohan-secret-1' })
  // Checkout tells a signed-in customer where to name a business.
  const checkout = '/checkout/streamverse-premium-12-months'
  await page.goto(checkout)
  await expect(page.getByText('Buying for a business registered for GST?')).toBeVisible()
  await page.getByRole('link', { name: 'Add its GSTIN in Settings' }).click()
  await expect(page).toHaveURL(/\/dashboard\/settings$/)
  await gotoHydrated(page, '/dashboard/settings')
  const section = page.getByRole('region', { name: 'Business invoices' })
  const save = section.getByRole('button', { name: 'Save business details' })
  // Nothing filled in: each field says what it needs.
  await save.click()
  await expect(
    section.getByText("Enter the business's legal name, as on its GST registration"),
  ).toBeVisible()
  await expect(
    section.getByText('Enter a valid 15-character GSTIN (e.g. 27AAPFU0939F1ZV)'),
  ).toBeVisible()
  await expect(
    section.getByText("Enter the business's address, as on its GST registration"),
  ).toBeVisible()
  // A GSTIN with a typo in it (the last character does not match the rest).
  await section.getByLabel('Legal name of the business').fill('Udyam Software Private Limited')
  await section.getByLabel('GSTIN').fill('27AAPFU0939F1ZW')
  await section
    .getByLabel('Address of the business')
    .fill('4th Floor, Nariman Point, Mumbai 400021')
  await save.click()
  await expect(
    section.getByText("This GSTIN's last character does not match the others: check it for a typo"),
  ).toBeVisible()
  // Without JavaScript the server refuses it the same way and keeps nothing.
  const refused = await page.request.post('/dashboard/settings', {
    form: {
      intent: 'business',
      businessName: 'Udyam Software Private Limited',
      gstin: '27AAPFU0939F1ZW',
      businessAddress: 'Mumbai',
    },
  })
  expect(refused.status()).toBe(400)
  // The shop's own GSTIN, pasted by mistake, is refused.
  const settingsDb = openAppDatabase(app)
  const { sellerGstin } = await readSiteSettings(settingsDb)
  try {
    await updateSiteSettings(settingsDb, { sellerGstin: '29AAGCB7383J1Z4' })
    await section.getByLabel('GSTIN').fill('29aagcb7383j1z4')
    await save.click()
    await expect(
      section.getByText("This is the shop's own GSTIN: enter your business's GSTIN"),
    ).toBeVisible()
    const user = (await findUserByEmail(settingsDb, email))!
    expect(await getCustomerBusiness(settingsDb, user.id)).toBeNull()
  } finally {
    await updateSiteSettings(settingsDb, { sellerGstin })
    await settingsDb.destroy()
  }
  // Typed in lower case with a space: kept as the GSTIN is written.
  await section.getByLabel('GSTIN').fill('27aapfu 0939f1zv')
  await save.click()
  await expect(section.getByRole('status')).toHaveText(
    'Your business details have been saved. The invoices of your next orders name it.',
  )
  await page.reload()
  await expect(section.getByLabel('GSTIN')).toHaveValue('27AAPFU0939F1ZV')
  await expect(section.getByLabel('Legal name of the business')).toHaveValue(
    'Udyam Software Private Limited',
  )

  // Checkout says whom the invoice names.
  await page.goto(checkout)
  await expect(
    page.getByText(
      'Your invoice is made out to Udyam Software Private Limited (GSTIN 27AAPFU0939F1ZV).',
    ),
  ).toBeVisible()
  for (const scheme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 390, height: 900 })
    await page.emulateMedia({ colorScheme: scheme })
    await page.screenshot({
      path: test.info().outputPath(`checkout-business-${scheme}-390.png`),
      fullPage: true,
    })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/dashboard/settings')

  // An order of this account: its invoice is made out to the business.
  const db = openAppDatabase(app)
  let orderId: string
  try {
    const user = (await findUserByEmail(db, email))!
    const product = await makeProduct(db, { title: 'Office Suite Key', price: 49_900 })
    orderId = (
      await makePaidOrder(db, product.id, { customer: { ...BUYER, email }, userId: user.id })
    ).id
  } finally {
    await db.destroy()
  }
  // The order page says whom the invoice names.
  await page.goto(`/orders/${orderId}`)
  await expect(
    page.getByText(
      'A PDF made out to Udyam Software Private Limited (GSTIN 27AAPFU0939F1ZV), with the seller, the amount and the payment reference.',
    ),
  ).toBeVisible()
  const invoice = await page.request.get(`/orders/${orderId}/invoice.pdf`)
  expect(invoice.status()).toBe(200)
  const text = pdfText(await invoice.body())
  for (const line of [
    'Udyam Software Private Limited',
    '4th Floor, Nariman Point, Mumbai 400021',
    'GSTIN: 27AAPFU0939F1ZV',
    `Bought by: ${BUYER.name}`,
  ])
    expect(text).toContain(line)

  await page.goto('/dashboard/settings')
  for (const [width, scheme] of [
    [390, 'light'],
    [1280, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height: 900 })
    await page.emulateMedia({ colorScheme: scheme })
    await section.screenshot({ path: test.info().outputPath(`business-${scheme}-${width}.png`) })
  }

  // Removed: the form is empty again; the invoice already issued still names the business.
  await section.getByRole('button', { name: 'Remove business details' }).click()
  await expect(section.getByRole('status')).toHaveText(
    'Your business details have been removed. The invoices of your next orders are made out to you.',
  )
  await expect(section.getByLabel('GSTIN')).toHaveValue('')
  await expect(section.getByRole('button', { name: 'Remove business details' })).toHaveCount(0)
  const again = pdfText(await (await page.request.get(`/orders/${orderId}/invoice.pdf`)).body())
  expect(again).toContain('GSTIN: 27AAPFU0939F1ZV')
})

test('deleting the account needs the password, anonymises orders and signs out', async ({
  page,
  app,
}) => {
  const email = uniqueEmail('leaving')
  const password = 'leaving-secret-1'
  await signUpInBrowser(page, app, { name: 'Leaving User', email, password })
  const db = openAppDatabase(app)
  try {
    const user = (await findUserByEmail(db, email))!
    const product = await makeProduct(db)
    const order = await makePaidOrder(db, product.id, {
      customer: { name: 'Leaving User', email, phone: '9000000009' },
      userId: user.id,
    })

    await gotoHydrated(page, '/dashboard/settings')
    await page.getByLabel('Your password').fill(password)
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(
      page.getByText('Tick the box to confirm that your account should be deleted'),
    ).toBeVisible()
    // Sent with no password: asked for it, not told it is wrong.
    await page.getByLabel('Your password').fill('')
    await page.getByLabel('I understand').check()
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page.getByText('Enter your password to confirm')).toBeVisible()
    await expect(page.getByLabel('Your password')).toHaveAttribute('aria-invalid', 'true')
    await page.getByLabel('Your password').fill('not my password')
    await page.getByLabel('I understand').check()
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(
      page.getByText('That password is not correct. Your account was not deleted.'),
    ).toBeVisible()
    expect(await findUserByEmail(db, email)).not.toBeNull()

    // The order is paid and not delivered yet (a product delivered by hand): refused, so its
    // delivery does not go to the anonymised address.
    await page.getByLabel('Your password').fill(password)
    await page.getByLabel('I understand').check()
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(
      page.getByText(
        `Order ${order.id} is still waiting for delivery. Your account can be deleted once it is delivered or refunded.`,
      ),
    ).toBeVisible()
    expect(await findUserByEmail(db, email)).not.toBeNull()
    // The shop delivers it; then the account may go.
    await db.updateTable('order').set({ status: 'delivered' }).where('id', '=', order.id).execute()

    await page.getByLabel('Your password').fill(password)
    await page.getByLabel('I understand').check()
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page).toHaveURL(/\/\?account=deleted$/)
    expect(await findUserByEmail(db, email)).toBeNull()
    expect(await getOrder(db, order.id)).toMatchObject({
      customerName: 'Deleted customer',
      customerPhone: '',
      userId: null,
      amount: order.amount,
    })
    await page.goto('/dashboard/settings')
    await expect(page).toHaveURL(/\/login\?redirectTo=/)
  } finally {
    await db.destroy()
  }
})

test('the current password can be tried 10 times in 15 minutes, by either form, then 429', async ({
  app,
}) => {
  const account = { name: 'Left Open', email: uniqueEmail('left.open'), password: 'left-open-pw1' }
  const cookie = await signUpConfirmed(app.url, app, account)
  const post = (body: Record<string, string>) =>
    fetch(`${app.url}/dashboard/settings`, {
      method: 'POST',
      body: new URLSearchParams(body),
      headers: { Cookie: cookie },
      redirect: 'manual',
    })
  const change = (currentPassword: string) =>
    post({
      intent: 'password',
      currentPassword,
      password: 'new-pass-123',
      confirmPassword: 'new-pass-123',
    })
  const remove = (password: string) =>
    post({ intent: 'deleteAccount', password, email: '', confirmed: 'yes' })
  // The limit counts in fixed 15-minute windows (app/lib/rate-limit.server.ts): start well inside
  // one, so the window's end does not reset the count halfway through.
  const windowLeft = 15 * 60_000 - (Date.now() % (15 * 60_000))
  if (windowLeft < 45_000) await new Promise((resolve) => setTimeout(resolve, windowLeft + 100))
  // An empty confirmation is answered without counting.
  for (let i = 0; i < 3; i++) expect((await remove('')).status).toBe(400)
  for (let i = 0; i < 8; i++) {
    const wrong = await change(`guess-${i}-pw`)
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('Current password is incorrect')
  }
  for (let i = 0; i < 2; i++) expect((await remove(`guess-d${i}`)).status).toBe(400)
  // The eleventh check is refused, even with the right password, on both forms.
  for (const blocked of [await change(account.password), await remove(account.password)]) {
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await blocked.text()).toContain('Too many attempts')
  }
  const db = openAppDatabase(app)
  try {
    expect(await findUserByEmail(db, account.email)).not.toBeNull()
  } finally {
    await db.destroy()
  }
  // The session still works: nothing was changed.
  const settings = await fetch(`${app.url}/dashboard/settings`, {
    headers: { Cookie: cookie },
    redirect: 'manual',
  })
  expect(settings.status).toBe(200)
})

test("settings change only the signed-in user's own account; anonymous posts change nothing", async ({
  app,
}) => {
  const a = { name: 'Owner A', email: uniqueEmail('a'), password: 'owner-a-secret' }
  const b = { name: 'Owner B', email: uniqueEmail('b'), password: 'owner-b-secret' }
  const cookieA = await signUpConfirmed(app.url, app, a)
  await signUpConfirmed(app.url, app, b)
  const post = (body: Record<string, string>, cookie?: string) =>
    fetch(`${app.url}/dashboard/settings`, {
      method: 'POST',
      body: new URLSearchParams(body),
      headers: cookie ? { Cookie: cookie } : {},
      redirect: 'manual',
    })
  // Anonymous: sent to log in, nothing saved.
  const anonymous = await post({ intent: 'profile', name: 'Hijacked' })
  expect(anonymous.status).toBe(302)
  expect(anonymous.headers.get('location')).toMatch(/^\/login\?redirectTo=/)
  // There is no field naming whose settings change: a user id sent along is ignored.
  const own = await post({ intent: 'profile', name: 'Renamed A', userId: 'anyone' }, cookieA)
  expect(own.status).toBe(200)
  const db = openAppDatabase(app)
  try {
    expect((await findUserByEmail(db, a.email))?.name).toBe('Renamed A')
    expect((await findUserByEmail(db, b.email))?.name).toBe('Owner B')
  } finally {
    await db.destroy()
  }
  // The page shows only the signed-in user's own e-mail.
  const page = await fetch(`${app.url}/dashboard/settings`, { headers: { Cookie: cookieA } })
  const html = await page.text()
  expect(html).toContain(a.email)
  expect(html).not.toContain(b.email)
})
