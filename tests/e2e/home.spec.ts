import { expect, test } from '../helpers/csp'

test('the home page shows the seeded catalogue, rendered on the server', async ({
  page,
  request,
}) => {
  // Server-rendered: the raw HTML already carries product titles, before any JavaScript runs.
  const html = await (await request.get('/')).text()
  expect(html).toContain('StreamVerse Premium 12 Months')
  expect(html).toContain('Astrion Pro Theme Unlimited Sites')

  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Featured Premium Services' })).toBeVisible()
  await expect(page.getByText('StreamVerse Premium 12 Months').first()).toBeVisible()
  await expect(page.getByText('₹1,499').first()).toBeVisible()

  // Every seeded image is served.
  const images = page.locator('main img')
  expect(await images.count()).toBeGreaterThanOrEqual(24)
  const src = await images.first().getAttribute('src')
  expect(src).toBeTruthy()
  const image = await request.get(src!)
  expect(image.status()).toBe(200)
  expect(image.headers()['content-type']).toMatch(/^image\//)
})
