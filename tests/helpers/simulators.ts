import { spawn, type ChildProcess } from 'node:child_process'
import { expect, type Page } from '@playwright/test'
import path from 'node:path'
import { listOrderEvents } from '~/data/order.server'
import { importStock } from '~/services/fulfilment.server'
import { openAppDatabase } from '../factories'
import { freePort, startApp, type RunningApp } from './app'
import { test as base } from './fixtures'

const root = path.resolve(import.meta.dirname, '../..')

/** A gateway simulator running on its own, as `npm run simulator:<gateway>` starts it. */
export interface StandaloneSimulator {
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

/**
 * Starts `simulators/<gateway>/standalone.ts` in its own process on a free port (SIM_PORT) with
 * the given SIM_* settings, and waits until it answers HTTP.
 */
export async function startStandaloneSimulator(
  gateway: 'paytm' | 'razorpay' | 'phonepe',
  env: Record<string, string> = {},
): Promise<StandaloneSimulator> {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, `simulators/${gateway}/standalone.ts`)],
    {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, SIM_PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The ${gateway} simulator exited:\n${output}`)
    // Any HTTP answer (a 404 for the root too) means it listens.
    const listening = await fetch(url)
      .then(() => true)
      .catch(() => false)
    if (listening) break
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error(`The ${gateway} simulator did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** What the standalone specs buy; standaloneGatewayTest stocks it with real keys. */
export const STANDALONE_PRODUCT = { slug: 'streamverse-premium-12-months', price: '₹1,499' }

/**
 * A Playwright `test` for a shop whose gateway is configured by the environment and talks to
 * that gateway's simulator running on its own, as a real gateway would: per worker, the shop's
 * port is chosen first (a simulator sends its webhooks there), then the simulator starts with
 * `simulatorEnv(appUrl)`, then the shop with `appEnv(simulatorUrl)` and `appSecret`, and
 * STANDALONE_PRODUCT is stocked with real keys.
 */
export function standaloneGatewayTest(options: {
  gateway: 'paytm' | 'razorpay' | 'phonepe'
  simulatorEnv: (appUrl: string) => Record<string, string>
  appEnv: (simulatorUrl: string) => Record<string, string>
  appSecret: string
}) {
  return base.extend<object, { appPort: number; simulator: StandaloneSimulator; app: RunningApp }>({
    appPort: [
      // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
      async ({}, use) => use(await freePort()),
      { scope: 'worker' },
    ],
    simulator: [
      async ({ appPort }, use) => {
        const appUrl = `http://127.0.0.1:${appPort}`
        const simulator = await startStandaloneSimulator(
          options.gateway,
          options.simulatorEnv(appUrl),
        )
        await use(simulator)
        await simulator.stop()
      },
      { scope: 'worker', timeout: 60_000 },
    ],
    app: [
      async ({ appPort, simulator }, use) => {
        const app = await startApp({
          port: appPort,
          env: { ...options.appEnv(simulator.url), APP_SECRET: options.appSecret },
        })
        await stockRealKeys(app, STANDALONE_PRODUCT.slug, options.appSecret)
        await use(app)
        await app.dispose()
      },
      { scope: 'worker', timeout: 90_000 },
    ],
  })
}

/**
 * Stocks a product with real (not demo) keys: a shop configured with a real gateway never hands
 * out the demo seed's test items.
 */
export async function stockRealKeys(app: RunningApp, slug: string, appSecret: string) {
  const db = openAppDatabase(app)
  try {
    const product = await db
      .selectFrom('product')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow()
    const keys = Array.from({ length: 10 }, (_, i) => `REAL-KEY-${i}`).join('\n')
    await importStock(db, { productId: product.id, content: keys, format: 'lines', appSecret })
  } finally {
    await db.destroy()
  }
}

/**
 * A checkout of STANDALONE_PRODUCT at a standalone simulator: picks `gateway` under "Pay with",
 * fills the buyer's details, follows the shop to the simulator's own page (which shows
 * `banner`), presses `button` there and waits for the shop's result page; returns the order id.
 */
async function payAtStandaloneSimulator(
  page: Page,
  simulator: StandaloneSimulator,
  options: {
    gateway: RegExp
    banner: string
    button: 'Simulate success' | 'Simulate pending'
  },
): Promise<string> {
  await page.goto(`/checkout/${STANDALONE_PRODUCT.slug}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await page
    .getByRole('group', { name: 'Pay with' })
    .getByRole('radio', { name: options.gateway })
    .check()
  await page.getByLabel('Full name').fill('Kabir Singh')
  await page.getByLabel('Email').fill('kabir@example.test')
  await page.getByLabel('Phone number').fill('9812345670')
  await page.getByRole('button', { name: `Pay ${STANDALONE_PRODUCT.price}` }).click()
  // The buyer is on the standalone simulator's own page, not one the shop serves.
  await page.waitForURL((url) => url.origin === simulator.url, { timeout: 30_000 })
  await expect(page.getByText(options.banner)).toBeVisible()
  await page.getByRole('button', { name: options.button }).click()
  await page.waitForURL(/\/payment\/callback\?ORDERID=/, { timeout: 30_000 })
  return new URL(page.url()).searchParams.get('ORDERID')!
}

/**
 * The tests the Razorpay and PhonePe standalone specs share, in this order: 'Simulate success' at
 * the simulator's own page ends on 'Payment Successful!' with the price; 'Simulate pending'
 * stays Processing until `settle` completes the payment at the simulator without a webhook, and
 * the shop's status check (reconciliation) finds it `settledAs`. Either way the order is stored
 * as `gateway`'s and not test mode.
 */
export function standaloneCheckoutTests(
  test: ReturnType<typeof standaloneGatewayTest>,
  options: {
    gateway: 'razorpay' | 'phonepe'
    /** The gateway's name, as the checkout's "Pay with" choice and the test titles say it. */
    name: string
    banner: string
    settledAs: string
    settle: (simulator: StandaloneSimulator, app: RunningApp, orderId: string) => Promise<Response>
  },
) {
  const pay = (
    page: Page,
    simulator: StandaloneSimulator,
    button: 'Simulate success' | 'Simulate pending',
  ) =>
    payAtStandaloneSimulator(page, simulator, {
      gateway: new RegExp(options.name),
      banner: options.banner,
      button,
    })
  const expectRealPayment = async (app: RunningApp, orderId: string) =>
    expect(await gatewayOrderRow(app, orderId)).toMatchObject({
      gateway: options.gateway,
      testMode: 0,
    })

  test(`'Simulate success' at the standalone ${options.name} ends on 'Payment Successful!'`, async ({
    page,
    app,
    simulator,
  }) => {
    test.setTimeout(90_000)
    const orderId = await pay(page, simulator, 'Simulate success')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!', {
      timeout: 30_000,
    })
    await expect(
      page.getByRole('main').locator('dl').getByText(STANDALONE_PRODUCT.price),
    ).toBeVisible()
    await expectRealPayment(app, orderId)
  })

  test(`'Simulate pending' stays Processing until the status check finds it ${options.settledAs}`, async ({
    page,
    app,
    simulator,
  }) => {
    test.setTimeout(150_000)
    const orderId = await pay(page, simulator, 'Simulate pending')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Processing Payment...', {
      timeout: 30_000,
    })
    const settled = await options.settle(simulator, app, orderId)
    expect(settled.status).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!', {
      timeout: 100_000,
    })
    await expectRealPayment(app, orderId)
    expect(await paidEventMessages(app, orderId)).toEqual([
      expect.stringContaining('reconciliation'),
    ])
  })
}

/** Posts one of a standalone simulator's test controls (SIM_CONTROL=1), a JSON body. */
export function standaloneControl(
  simulator: StandaloneSimulator,
  control: string,
  body: unknown,
): Promise<Response> {
  return fetch(`${simulator.url}/__control/${control}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/** The messages of the order's 'paid' timeline events, oldest first. */
export async function paidEventMessages(app: RunningApp, orderId: string): Promise<string[]> {
  const db = openAppDatabase(app)
  try {
    const events = await listOrderEvents(db, orderId)
    return events.filter((event) => event.type === 'paid').map((event) => event.message)
  } finally {
    await db.destroy()
  }
}

/** The order's gateway fields as the shop stored them. */
export async function gatewayOrderRow(app: RunningApp, orderId: string) {
  const db = openAppDatabase(app)
  try {
    return await db
      .selectFrom('order')
      .select(['gateway', 'testMode', 'gatewayOrderId', 'status'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
  } finally {
    await db.destroy()
  }
}
