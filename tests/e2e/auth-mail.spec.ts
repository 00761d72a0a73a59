import crypto from 'node:crypto'
import path from 'node:path'
import { updateSiteSettings } from '~/data/settings.server'
import { createDatabase } from '~/lib/db.server'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, gotoHydrated, test } from '../helpers/fixtures'
import { signUpConfirmed } from '../helpers/mailbox'
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../helpers/smtp'

/** "Forgot password" through a real SMTP server: read the mail, follow the link, set a password, log in. */
let smtp: TestSmtpServer
let app: RunningApp

const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

test.beforeAll(async () => {
  smtp = await startSmtpServer()
  app = await startApp({
    env: { SMTP_URL: smtp.url, MAIL_FROM: '"Chai Keys" <support@chaikeys.example>' },
  })
  // The mail carries the site name and the support contacts from the settings.
  const db = createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
  await updateSiteSettings(db, {
    siteName: 'Chai Keys',
    contactEmail: 'help@chaikeys.example',
    whatsappNumber: '919876543210',
  })
  await db.destroy()
})

test.afterAll(async () => {
  await app?.dispose()
  await smtp?.close()
})

async function signUp(email: string, password: string) {
  await signUpConfirmed(app.url, smtp, { name: 'Lakshmi Menon', email, password })
}

const isResetMail = (mail: ReceivedMail) => mail.subject.startsWith('Reset your')

test('resets a forgotten password with the link from the e-mail', async ({ page }) => {
  const email = uniqueEmail('lakshmi')
  await signUp(email, 'old-password')
  // The confirmation link greets no one: the name was typed by whoever signed up.
  const confirmation = smtp.mails.find(
    (mail) => mail.to.includes(email) && mail.subject.startsWith('Confirm your'),
  )!
  expect(confirmation.text).toMatch(/^Hello,$/m)
  expect(confirmation.text + confirmation.html).not.toContain('Lakshmi')
  const stranger = uniqueEmail('stranger')

  // The modal opens in the page once it is hydrated (before that the link loads /?login=1).
  await gotoHydrated(page, app.url)
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).click()
  await page.getByRole('dialog').getByRole('link', { name: 'Forgot password?' }).click()
  const dialog = page.getByRole('dialog', { name: 'Reset your password' })
  // An address without an account gets the same answer, and no mail.
  await dialog.getByLabel('Email').fill(stranger)
  await dialog.getByRole('button', { name: 'Send reset link' }).click()
  await expect(dialog.getByRole('status')).toContainText('If an account exists for that e-mail')
  await dialog.getByLabel('Email').fill(email.toUpperCase())
  await dialog.getByRole('button', { name: 'Send reset link' }).click()
  await expect(dialog.getByRole('status')).toContainText('If an account exists for that e-mail')

  await expect
    .poll(() => smtp.mails.filter((mail) => mail.to.includes(email) && isResetMail(mail)).length, {
      timeout: 15_000,
    })
    .toBe(1)
  expect(smtp.mails.some((mail) => mail.to.includes(stranger))).toBe(false)
  const mail = smtp.mails.find((received) => received.to.includes(email) && isResetMail(received))!
  expect(mail.subject).toBe('Reset your Chai Keys password')
  expect(mail.raw).toMatch(/^From: "?Chai Keys"? <support@chaikeys\.example>/m)
  for (const part of [mail.text, mail.html]) {
    expect(part).toContain('Chai Keys')
    expect(part).toContain('help@chaikeys.example')
    expect(part).toContain('https://wa.me/919876543210')
  }
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0]
  expect(link).toBeTruthy()
  expect(mail.html).toContain(link!)

  // Whoever reads the database (or a backup of it) finds neither the token nor the link:
  // better-auth keeps only its hash, and the mail job carried only the user id.
  const token = new URL(link!).searchParams.get('token')!
  const db = createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
  try {
    const stored = await db.selectFrom('verification').select(['identifier', 'value']).execute()
    expect(stored.length).toBeGreaterThan(0)
    expect(stored.filter((row) => `${row.identifier} ${row.value}`.includes(token))).toEqual([])
    const jobs = await db.selectFrom('job').select(['type', 'payload']).execute()
    expect(jobs.some((job) => job.type === 'account.password-reset')).toBe(true)
    expect(
      jobs.filter((job) => job.payload.includes(token) || job.payload.includes('reset-password')),
    ).toEqual([])
  } finally {
    await db.destroy()
  }

  await page.goto(link!)
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible()
  await page.getByLabel('New password', { exact: true }).fill('short')
  await page.getByLabel('Confirm new password').fill('short')
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByText('Password must be at least 6 characters long')).toBeVisible()
  await page.getByLabel('New password', { exact: true }).fill('new-password')
  await page.getByLabel('Confirm new password').fill('new-passwort')
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByText('Passwords do not match')).toBeVisible()
  await page.getByLabel('Confirm new password').fill('new-password')
  await page.getByRole('button', { name: 'Set password' }).click()

  await expect(page).toHaveURL(`${app.url}/login?reset=1`)
  await expect(page.getByRole('status')).toHaveText(
    'Your password has been set. Log in with your new password.',
  )
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('old-password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password')
  await page.getByLabel('Password').fill('new-password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()

  // The link works once.
  await page.goto(link!)
  await expect(page.getByRole('heading', { name: 'Link expired' })).toBeVisible()
  await expect(
    page.getByText('This link has expired or was already used. Request a new one.'),
  ).toBeVisible()
})

test('a reset ends the sessions signed in with the old password', async ({ browser }) => {
  const email = uniqueEmail('stolen')
  await signUp(email, 'leaked-password')
  const thief = await browser.newPage()
  await thief.goto(`${app.url}/login`)
  await thief.getByLabel('Email').fill(email)
  await thief.getByLabel('Password').fill('leaked-password')
  await thief.getByRole('button', { name: 'Log in' }).click()
  await expect(thief.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()

  const sent = smtp.mails.length
  await fetch(`${app.url}/forgot-password`, {
    method: 'POST',
    body: new URLSearchParams({ email }),
  })
  await expect
    .poll(() => smtp.mails.slice(sent).find((mail) => mail.to.includes(email)), { timeout: 15_000 })
    .toBeTruthy()
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(
    smtp.mails.slice(sent).find((mail) => mail.to.includes(email))!.text,
  )![0]
  const owner = await browser.newPage()
  await owner.goto(link)
  await owner.getByLabel('New password', { exact: true }).fill('fresh-password')
  await owner.getByLabel('Confirm new password').fill('fresh-password')
  await owner.getByRole('button', { name: 'Set password' }).click()
  await expect(owner).toHaveURL(/\/login\?reset=1$/)

  await thief.goto(`${app.url}/dashboard`)
  await expect(thief).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/)
  await thief.close()
  await owner.close()
})
