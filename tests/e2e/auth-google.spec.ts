import { startApp, freePort, type RunningApp } from '../helpers/app'
import { expect, gotoHydrated, test } from '../helpers/fixtures'
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc'

/**
 * Google sign-in through OpenID Connect, against a local OpenID provider standing in for
 * Google (GOOGLE_ISSUER points the app at it).
 */
let oidc: TestOidcProvider
let app: RunningApp

test.beforeAll(async () => {
  const port = await freePort()
  oidc = await startOidcProvider({
    redirectUri: `http://127.0.0.1:${port}/api/auth/callback/google`,
  })
  app = await startApp({
    port,
    env: {
      GOOGLE_CLIENT_ID: oidc.clientId,
      GOOGLE_CLIENT_SECRET: oidc.clientSecret,
      GOOGLE_ISSUER: oidc.issuer,
      ADMIN_EMAILS: 'owner@example.test',
    },
  })
})

test.afterAll(async () => {
  await app?.dispose()
  await oidc?.close()
})

test('signs in with Google from the login modal and comes back signed in', async ({ page }) => {
  // The modal opens in the page once it is hydrated (before that the link loads /?login=1).
  await gotoHydrated(page, app.url)
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).click()
  const dialog = page.getByRole('dialog', { name: 'Log in' })
  await dialog.getByRole('button', { name: 'Continue with Google' }).click()

  // The provider's account chooser (prompt=select_account).
  await expect(page.getByRole('heading', { name: 'Choose an account' })).toBeVisible()
  expect(oidc.prompts.at(-1)).toBe('select_account')
  await page.getByLabel('Email').fill('Meera.Google@Example.test')
  // A direction override in the profile's name is dropped, as in a typed one.
  await page.getByLabel('Name').fill('\u202EMeera Iyer\u202C')
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page).toHaveURL(`${app.url}/`)
  const header = page.getByRole('banner')
  await expect(header.getByRole('button', { name: 'Logout' })).toBeVisible()
  await header.getByRole('link', { name: 'Dashboard' }).click()
  await expect(page.getByRole('heading', { name: 'Welcome back, Meera Iyer!' })).toBeVisible()

  // The account has no password yet: Settings offers to set one.
  await page.getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Set a password' })).toBeVisible()
})

test('an address Google has not verified makes no account', async ({ page }) => {
  const email = 'unverified.google@example.test'
  oidc.unverified.add(email)
  await gotoHydrated(page, `${app.url}/login`)
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Name').fill('Not Verified')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('alert')).toContainText('Google has not verified this e-mail address')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
  // Once Google has verified it, the same address signs up as usual.
  oidc.unverified.delete(email)
  await gotoHydrated(page, `${app.url}/login`)
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Name').fill('Now Verified')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible()
})

test('a heart pressed while signed out adds its product after signing in with Google', async ({
  page,
}) => {
  const title = 'StreamVerse Premium 12 Months'
  await gotoHydrated(page, app.url)
  await page
    .getByRole('button', { name: `Wishlist: ${title}` })
    .first()
    .click()
  const dialog = page.getByRole('dialog', { name: 'Log in' })
  await dialog.getByRole('button', { name: 'Continue with Google' }).click()
  await page.getByLabel('Email').fill('wisher.google@example.test')
  await page.getByLabel('Name').fill('Wish Er')
  await page.getByRole('button', { name: 'Continue' }).click()
  // Back from the provider's page (a navigation another site started), the wish is kept.
  await expect(page).toHaveURL(`${app.url}/`)
  await expect(page.getByRole('button', { name: `Wishlist: ${title}` }).first()).toHaveAttribute(
    'aria-pressed',
    'true',
  )
})

test('a Google address listed in ADMIN_EMAILS is an admin', async ({ page }) => {
  await page.goto(`${app.url}/signup`)
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  await page.getByLabel('Email').fill('owner@example.test')
  await page.getByLabel('Name').fill('Shop Owner')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
    'href',
    '/admin/dashboard',
  )
  await page.goto(`${app.url}/admin`)
  await expect(page).toHaveURL(`${app.url}/admin/dashboard`)
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
})

test('cancelling at Google shows a plain message and stays signed out', async ({ page }) => {
  await page.goto(`${app.url}/login`)
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  await page.getByRole('link', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(/\/login\?provider=google/)
  await expect(page.getByRole('alert')).toHaveText('Google sign-in was cancelled.')
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible()
})

test('a failed Google sign-in shows the spec fallbacks', async ({ page }) => {
  // An app whose client secret the provider rejects: the code exchange fails.
  const port = await freePort()
  const other = await startOidcProvider({
    redirectUri: `http://127.0.0.1:${port}/api/auth/callback/google`,
  })
  const broken = await startApp({
    port,
    env: {
      GOOGLE_CLIENT_ID: other.clientId,
      GOOGLE_CLIENT_SECRET: 'not-the-secret',
      GOOGLE_ISSUER: other.issuer,
    },
  })
  try {
    for (const [page_, fallback] of [
      ['login', 'Failed to log in with Google'],
      ['signup', 'Failed to sign up with Google'],
    ] as const) {
      await page.goto(`${broken.url}/${page_}`)
      await page.getByRole('button', { name: 'Continue with Google' }).click()
      await page.getByLabel('Email').fill('someone@example.test')
      await page.getByRole('button', { name: 'Continue' }).click()
      await expect(page).toHaveURL(new RegExp(`/${page_}\\?provider=google`))
      await expect(page.getByRole('alert')).toHaveText(fallback)
    }
  } finally {
    await broken.dispose()
    await other.close()
  }
})

test('without GOOGLE_CLIENT_ID there is no Google button', async ({ page, baseURL }) => {
  await page.goto(`${baseURL}/login`)
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0)
})
