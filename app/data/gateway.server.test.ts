import { describe, expect, it } from 'vitest'
import {
  paytmFormOrigin,
  resolvePaytmSetup,
  simulatorMerchant,
} from '~/services/payment/config.server'
import { gatewaySchema } from '~/lib/validation/gateway'
import { gatewayForm, submitForm } from '../../tests/helpers/forms'
import { createTestDb, fileTestDb } from '../../tests/helpers/db'
import {
  ensureDefaultGateway,
  listGateways,
  paytmGatewaySettings,
  saveGateway,
} from './gateway.server'

const t = fileTestDb()

const SECRET = 'k'.repeat(64)
const KEY = 'Zq7#Tt2!Lm9@Pw4$'
const env = {
  PUBLIC_URL: 'https://shop.example.in',
  APP_SECRET: SECRET,
  PAYTM_MID: undefined,
  PAYTM_MERCHANT_KEY: undefined,
  PAYTM_WEBSITE: undefined,
  PAYTM_HOST: undefined,
} as const

describe(`payment gateways (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('uses the built-in simulator while no merchant is configured', async () => {
    const setup = await resolvePaytmSetup(t.db, env)
    expect(setup).toMatchObject({
      source: 'simulator',
      testMode: true,
      callbackUrl: 'https://shop.example.in/api/payments/paytm/callback',
    })
    expect(setup?.config.host).toBe('https://shop.example.in/__simulator/paytm')
    // Derived from APP_SECRET: every process agrees, and it is a usable Paytm merchant.
    expect(setup?.config.mid).toBe(simulatorMerchant(SECRET).mid)
    expect(setup?.config.mid).toMatch(/^SIM[A-Z0-9]{17}$/)
    expect(Buffer.byteLength(setup!.config.merchantKey)).toBe(16)
    expect(simulatorMerchant('z'.repeat(64)).merchantKey).not.toBe(setup?.config.merchantKey)
  })

  it("names the Paytm host checkout posts to for the pages' form-action, without the key", async () => {
    const own = await createTestDb()
    const db = own.db
    const paytm = (values: Record<string, string>) =>
      saveGateway(db, SECRET, {
        mode: 'edit',
        id: 'paytm',
        ...gatewayForm({
          name: 'Paytm',
          type: 'paytm',
          merchantKey: KEY,
          website: 'DEFAULT',
          ...values,
        }),
      })
    try {
      expect(await paytmFormOrigin(db, env)).toBe('https://shop.example.in')
      await ensureDefaultGateway(db)
      expect(await paytmFormOrigin(db, env)).toBe('https://shop.example.in')
      await paytm({ status: 'testing', merchantId: 'KEYBAZ12345678901234', environment: 'staging' })
      expect(await paytmFormOrigin(db, env)).toBe('https://securegw-stage.paytm.in')
      await paytm({
        status: 'active',
        merchantId: 'KEYBAZ12345678901234',
        environment: 'production',
      })
      expect(await paytmFormOrigin(db, env)).toBe('https://securegw.paytm.in')
      // A key another APP_SECRET wrote is not needed to know the host.
      expect(await paytmFormOrigin(db, { ...env, APP_SECRET: 'other'.repeat(10) })).toBe(
        'https://securegw.paytm.in',
      )
      const fromEnv = {
        ...env,
        PAYTM_MID: 'ENVMID',
        PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
        PAYTM_HOST: 'http://127.0.0.1:4100/',
      }
      expect(await paytmFormOrigin(db, fromEnv)).toBe('http://127.0.0.1:4100')
    } finally {
      await own.destroy()
    }
  })

  it('switches payments off when the admin makes the Paytm gateway inactive, credentials or not', async () => {
    const own = await createTestDb()
    const db = own.db
    try {
      await ensureDefaultGateway(db)
      await saveGateway(db, SECRET, {
        mode: 'edit',
        id: 'paytm',
        ...gatewayForm({ name: 'Paytm', type: 'paytm', status: 'inactive' }),
      })
      expect(await resolvePaytmSetup(db, env)).toBeNull()
      // The environment still wins.
      expect(
        await resolvePaytmSetup(db, {
          ...env,
          PAYTM_MID: 'ENVMID',
          PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
        }),
      ).toMatchObject({ source: 'environment' })
    } finally {
      await own.destroy()
    }
  })

  it('creates the default Paytm gateway once, even when asked concurrently', async () => {
    const created = await Promise.all([
      ensureDefaultGateway(t.db),
      ensureDefaultGateway(t.db),
      ensureDefaultGateway(t.db),
    ])
    expect(created.filter(Boolean)).toHaveLength(1)
    expect(await ensureDefaultGateway(t.db)).toBe(false)
    const [paytm] = await listGateways(t.db)
    expect(paytm).toMatchObject({
      id: 'paytm',
      type: 'paytm',
      name: 'Paytm',
      status: 'testing',
      config: { merchantId: '', website: 'WEBSTAGING', environment: 'staging', callbackUrl: '' },
      secretsSet: { merchantKey: false },
      transactions: 0,
      revenue: 0,
    })
  })

  it('stores secrets encrypted, never lists them, and keeps them when left blank', async () => {
    const saved = await saveGateway(t.db, SECRET, {
      mode: 'edit',
      id: 'paytm',
      ...gatewayForm({
        name: 'Paytm',
        type: 'paytm',
        status: 'inactive',
        merchantId: 'KEYBAZ12345678901234',
        merchantKey: KEY,
        website: 'DEFAULT',
        environment: 'production',
      }),
    })
    expect(saved).toEqual({ ok: true, id: 'paytm' })
    const row = await t.db
      .selectFrom('paymentGateway')
      .select(['config', 'secrets'])
      .where('id', '=', 'paytm')
      .executeTakeFirstOrThrow()
    expect(row.config + row.secrets).not.toContain(KEY)
    expect(JSON.parse(row.secrets).merchantKey).toMatch(/^v1\./)
    const listed = await listGateways(t.db)
    expect(JSON.stringify(listed)).not.toContain(KEY)
    expect(listed[0]?.secretsSet).toEqual({ merchantKey: true })

    await saveGateway(t.db, SECRET, {
      mode: 'edit',
      id: 'paytm',
      ...gatewayForm({
        name: 'Paytm India',
        type: 'paytm',
        status: 'inactive',
        merchantId: 'KEYBAZ12345678901234',
        merchantKey: '',
        website: 'DEFAULT',
        environment: 'production',
      }),
    })
    expect(await paytmGatewaySettings(t.db, SECRET)).toMatchObject({
      merchantKey: KEY,
      merchantId: 'KEYBAZ12345678901234',
      environment: 'production',
    })
    // Another APP_SECRET cannot read it: the key counts as not set.
    expect((await paytmGatewaySettings(t.db, 'other'.repeat(10)))?.merchantKey).toBeNull()
  })

  it('never falls back to the simulator once real credentials are stored: inactive means no payments', async () => {
    expect(await resolvePaytmSetup(t.db, env)).toBeNull()
    await saveGateway(t.db, SECRET, {
      mode: 'edit',
      id: 'paytm',
      ...gatewayForm({
        name: 'Paytm',
        type: 'paytm',
        status: 'active',
        merchantId: 'KEYBAZ12345678901234',
        merchantKey: '',
        website: 'DEFAULT',
        environment: 'production',
      }),
    })
    const setup = await resolvePaytmSetup(t.db, env)
    expect(setup).toMatchObject({ source: 'gateway', testMode: false })
    expect(setup?.config).toMatchObject({
      mid: 'KEYBAZ12345678901234',
      merchantKey: KEY,
      website: 'DEFAULT',
      host: 'https://securegw.paytm.in',
    })
  })

  it('lets PAYTM_* from the environment win over the stored gateway', async () => {
    const setup = await resolvePaytmSetup(t.db, {
      ...env,
      PAYTM_MID: 'ENVMID',
      PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
      PAYTM_HOST: 'http://127.0.0.1:4100',
    })
    expect(setup).toMatchObject({ source: 'environment', testMode: false })
    expect(setup?.config).toMatchObject({
      mid: 'ENVMID',
      merchantKey: 'abcdefghijklmnop',
      website: 'WEBSTAGING',
      host: 'http://127.0.0.1:4100',
    })
  })

  it('keeps the type on edit, allows one gateway per type, and wants credentials to be active', async () => {
    const edited = await saveGateway(t.db, SECRET, {
      mode: 'edit',
      id: 'paytm',
      ...gatewayForm({ name: 'Paytm', type: 'stripe', status: 'active' }),
    })
    expect(edited.ok).toBe(true)
    expect((await listGateways(t.db)).find((g) => g.id === 'paytm')?.type).toBe('paytm')
    // An active Razorpay needs all three of its credentials.
    const addActiveRazorpay = (secrets: Record<string, string>) =>
      saveGateway(t.db, SECRET, {
        mode: 'add',
        ...gatewayForm({
          name: 'Razorpay',
          type: 'razorpay',
          status: 'active',
          keyId: 'rzp_test_abcd1234',
          ...secrets,
        }),
      })

    expect(
      await saveGateway(t.db, SECRET, {
        mode: 'add',
        ...gatewayForm({ name: 'Paytm 2', type: 'paytm', status: 'testing' }),
      }),
    ).toMatchObject({
      ok: false,
      errors: { type: 'A Paytm gateway already exists; edit it instead.' },
    })
    expect(await addActiveRazorpay({})).toEqual({
      ok: false,
      errors: {
        keySecret: 'Key Secret is required to make the gateway active',
        webhookSecret: 'Webhook Secret is required to make the gateway active',
      },
    })
    // Without the webhook secret its webhooks could not be verified.
    expect(await addActiveRazorpay({ keySecret: 'shh' })).toMatchObject({
      ok: false,
      errors: { webhookSecret: 'Webhook Secret is required to make the gateway active' },
    })
    expect(await addActiveRazorpay({ keySecret: 'shh', webhookSecret: 'hook' })).toEqual({
      ok: true,
      id: 'razorpay',
    })
    expect(
      await saveGateway(t.db, SECRET, {
        mode: 'edit',
        id: 'nope',
        ...gatewayForm({ name: 'X', type: 'paytm', status: 'testing' }),
      }),
    ).toMatchObject({ ok: false })
  })

  it('checks the form per type with plain messages', () => {
    expect(
      submitForm(gatewaySchema, {
        name: '',
        type: 'paytm',
        status: 'testing',
        merchantKey: 'short',
        merchantId: 'has space',
        callbackUrl: 'ftp://x',
      }).errors,
    ).toEqual({
      name: 'Name is required',
      merchantKey: 'Merchant Key must be exactly 16 characters',
      merchantId: 'Merchant ID is letters and digits, at most 20 characters',
      callbackUrl: 'Enter an http(s) URL',
    })
    expect(
      submitForm(gatewaySchema, { name: 'S', type: 'stripe', status: 'on', apiKey: 'sk_test_x' })
        .errors,
    ).toMatchObject({
      status: 'Choose a status',
      apiKey: 'Publishable Key looks like pk_test_... or pk_live_...',
    })
    expect(
      submitForm(gatewaySchema, { name: 'B', type: 'bitcoin', status: 'active' }).errors,
    ).toEqual({ type: 'Choose a gateway type' })
  })
})

describe(`Paytm's staging host (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('is test mode (no real money), from the environment or the record; production is live', async () => {
    const merchant = { PAYTM_MID: 'ENVMID', PAYTM_MERCHANT_KEY: 'abcdefghijklmnop' }
    expect(await resolvePaytmSetup(t.db, { ...env, ...merchant })).toMatchObject({
      source: 'environment',
      testMode: true,
      config: { host: 'https://securegw-stage.paytm.in' },
    })
    expect(
      await resolvePaytmSetup(t.db, {
        ...env,
        ...merchant,
        PAYTM_HOST: 'https://securegw.paytm.in',
      }),
    ).toMatchObject({ testMode: false })
    await saveGateway(t.db, SECRET, {
      mode: 'edit',
      id: 'paytm',
      ...gatewayForm({
        name: 'Paytm',
        type: 'paytm',
        status: 'testing',
        merchantId: 'KEYBAZ12345678901234',
        merchantKey: KEY,
        website: 'WEBSTAGING',
        environment: 'staging',
      }),
    })
    expect(await resolvePaytmSetup(t.db, env)).toMatchObject({ source: 'gateway', testMode: true })
  })
})
