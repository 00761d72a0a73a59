import fs from 'node:fs'
import path from 'node:path'
import { expect, type Locator, type Page } from '@playwright/test'
import { parseMail, type ReceivedMail, type TestSmtpServer } from './smtp'

/**
 * Where a test app's mail arrives: its file outbox (DATA_DIR/mail, when SMTP_URL is unset)
 * or a test SMTP server. Sign-up continues by mail (docs/decisions/0008-sign-up-by-mailed-link.md),
 * so tests that need an account read the confirmation link from here, as a customer would.
 */
export type Mailbox = { dataDir: string } | TestSmtpServer

function mailsIn(box: Mailbox): ReceivedMail[] {
  if ('mails' in box) return box.mails
  const dir = path.join(box.dataDir, 'mail')
  if (!fs.existsSync(dir)) return []
  // File names start with the time they were written, so they sort oldest first.
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const raw = fs.readFileSync(path.join(dir, name), 'utf8')
      const to = /^to:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? ''
      return { ...parseMail(raw), to: [to.replace(/^.*<([^>]+)>$/, '$1')] }
    })
}

/** Waits for the newest mail to `to` that `match` accepts (the job runner sends within a second or so). */
export async function waitForMail(
  box: Mailbox,
  to: string,
  match: (mail: ReceivedMail) => boolean = () => true,
): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined
  await expect
    .poll(
      () => {
        found = mailsIn(box)
          .filter((mail) => mail.to.includes(to.toLowerCase()) && match(mail))
          .at(-1)
        return Boolean(found)
      },
      { timeout: 20_000, message: `a mail to ${to}` },
    )
    .toBe(true)
  return found!
}

/** The path of the newest confirmation link mailed to `email` (/verify-email?token=...). */
export async function confirmationPath(box: Mailbox, email: string): Promise<string> {
  const mail = await waitForMail(box, email, (received) =>
    received.text.includes('/verify-email?token='),
  )
  const url = /https?:\/\/\S+\/verify-email\?token=[\w.%&=-]+/.exec(mail.text)![0]
  const { pathname, search } = new URL(url)
  return `${pathname}${search}`
}

/**
 * Sends the confirmation link's form as the page does: the link's token and the password chosen
 * at sign-up (opening the link alone confirms nothing). Answers the action's redirect.
 */
export async function confirmOverHttp(
  baseURL: string,
  path: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const token = new URL(path, baseURL).searchParams.get('token') ?? ''
  return fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ token, password, redirectTo: '' }),
    redirect: 'manual',
  })
}

/**
 * Opens a confirmation link in the browser and sends its form with the password chosen at
 * sign-up, as its owner does.
 */
export async function confirmInBrowser(page: Page, path: string, password: string): Promise<void> {
  await page.goto(path)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Confirm and log in' }).click()
}

export interface NewAccount {
  name: string
  email: string
  password: string
}

/**
 * Signs up over HTTP and opens the mailed confirmation link; returns the session cookie
 * (name=value) the link signs in with.
 */
export async function signUpConfirmed(
  baseURL: string,
  box: Mailbox,
  user: NewAccount,
): Promise<string> {
  const response = await fetch(`${baseURL}/signup`, {
    method: 'POST',
    body: new URLSearchParams({
      name: user.name,
      email: user.email,
      password: user.password,
      confirmPassword: user.password,
    }),
    redirect: 'manual',
  })
  if (response.status !== 200) throw new Error(`sign-up answered ${response.status}`)
  const confirmed = await confirmOverHttp(
    baseURL,
    await confirmationPath(box, user.email),
    user.password,
  )
  const cookie = confirmed.headers.getSetCookie().find((value) => value.includes('session_token='))
  if (confirmed.status !== 302 || !cookie) {
    throw new Error(`the confirmation link answered ${confirmed.status} without a session`)
  }
  return cookie.split(';')[0]!
}

/**
 * Fills the sign-up form (the /signup page, or the modal's dialog) and sends it; the form then
 * asks to confirm the address by mail.
 */
export async function submitSignUp(form: Page | Locator, user: NewAccount): Promise<void> {
  await form.getByLabel('Full name').fill(user.name)
  await form.getByLabel('Email').fill(user.email)
  await form.getByLabel('Password', { exact: true }).fill(user.password)
  await form.getByLabel('Confirm password').fill(user.password)
  await form.getByRole('button', { name: 'Create account' }).click()
  await expect(form.getByText('Check your inbox to confirm your address.')).toBeVisible()
}

/** Signs up on /signup in the browser and opens the mailed link there: the page ends signed in on /. */
export async function signUpInBrowser(page: Page, box: Mailbox, user: NewAccount): Promise<void> {
  await page.goto('/signup')
  await submitSignUp(page, user)
  await confirmInBrowser(page, await confirmationPath(box, user.email), user.password)
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
}
