import sharp from 'sharp'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, gotoHydrated, test as base } from '../helpers/fixtures'
import { signUpInBrowser } from '../helpers/mailbox'
import { startFakeS3, type FakeS3 } from '../helpers/s3'

/**
 * The shop on S3-compatible storage (STORAGE_S3_*), against a local S3 server that checks
 * every request's signature: the demo images, an upload through the product form, the
 * storefront's resized images, and the file removed with its product.
 */
const OWNER = 'owner@example.test'
const PASSWORD = 'secret12'
const CREDENTIALS = {
  accessKeyId: 'KBTESTACCESSKEY',
  secretAccessKey: 'kb-test-secret-0123456789abcdef',
}

const test = base.extend<object, { s3: FakeS3; app: RunningApp }>({
  s3: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
    async ({}, use) => {
      const s3 = await startFakeS3({ bucket: 'keybazaar-media', ...CREDENTIALS })
      await use(s3)
      await s3.close()
    },
    { scope: 'worker' },
  ],
  app: [
    async ({ s3 }, use) => {
      const app = await startApp({
        env: {
          ADMIN_EMAILS: OWNER,
          STORAGE_S3_ENDPOINT: s3.url,
          STORAGE_S3_BUCKET: s3.bucket,
          STORAGE_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
          STORAGE_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
          STORAGE_S3_REGION: 'ap-south-1',
        },
      })
      await use(app)
      await app.dispose()
    },
    { scope: 'worker', timeout: 90_000 },
  ],
})

test('uploads, serves and removes product images in an S3 bucket', async ({ page, app, s3 }) => {
  // The demo catalogue's artwork went to the bucket, not to the data directory.
  expect(
    [...s3.objects.keys()].filter((key) => key.startsWith('products/demo_')).length,
  ).toBeGreaterThanOrEqual(24)
  expect(s3.requests.every((request) => request.signed)).toBe(true)

  await signUpInBrowser(page, app, { name: 'Shop Owner', email: OWNER, password: PASSWORD })

  await page.goto('/admin/products/add')
  await page.getByLabel('Title', { exact: true }).fill('Bucket Test Product')
  await page.getByLabel('Short description').fill('Stored in S3.')
  await page.getByLabel('Description', { exact: true }).fill('Its picture lives in an S3 bucket.')
  await page.getByLabel('Price (₹)', { exact: true }).fill('199')
  await page.getByLabel('Original price (₹)').fill('399')
  const png = await sharp({
    create: { width: 800, height: 600, channels: 3, background: '#e0457b' },
  })
    .png()
    .toBuffer()
  await page
    .getByLabel('Product image')
    .setInputFiles({ name: 'bucket.png', mimeType: 'image/png', buffer: png })
  const preview = page.getByRole('img', { name: 'Product image preview' })
  await expect(preview).toHaveAttribute('src', /^\/images\/products\/\d+_[0-9a-f]{12}\.png\?w=640$/)
  await expect
    .poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0)
  await page.getByRole('button', { name: 'Create Product' }).click()
  await expect(page.getByText('Product created successfully!')).toBeVisible()

  const key = [...s3.objects.keys()].find((name) => /^products\/\d+_[0-9a-f]{12}\.png$/.test(name))
  expect(key).toBeDefined()
  expect(s3.objects.get(key!)?.contentType).toBe('image/png')

  // The storefront resizes it from the bucket.
  const variant = await page.request.get(`/images/${key}?w=320`)
  expect(variant.status()).toBe(200)
  expect(variant.headers()['content-type']).toBe('image/webp')
  expect((await sharp(await variant.body()).metadata()).width).toBe(320)
  await page.goto('/product/bucket-test-product')
  const image = page.getByRole('img', { name: 'Bucket Test Product' }).first()
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0)

  // Deleting the product removes its file from the bucket.
  // Hydrated, the delete button asks in a dialog (before that it loads the no-JavaScript step).
  await gotoHydrated(page, '/admin/products?q=bucket')
  await page.getByRole('button', { name: 'Delete Bucket Test Product' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Product deleted successfully!')).toBeVisible()
  expect(s3.objects.has(key!)).toBe(false)
  expect(s3.requests.every((request) => request.signed)).toBe(true)
  expect(app.output()).not.toMatch(/S3 .* failed/)
})
