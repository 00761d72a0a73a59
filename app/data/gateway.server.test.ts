import { describe, expect, it } from 'vitest'
import {
  paytmFormOrigin,
  resolvePaytmSetup,
  simulatorMerchant,
} from '~/services/payment/config.server'
import { gatewaySchema } from '~/lib/validation/gateway'
import { gatewayForm, submitForm } from '../../tests/helpers/forms'
import { createTestDb, fileTestDb } from '../../tests/helpers/db'
import type { DB } from '~/lib/db.server'
import { recordAdminChange } from '~/services/audit.server'
import { listAuditEntries } from './audit.server'
import {
  ensureDefaultGateway,
  GATEWAY_EDIT_EXPIRED,
  GATEWAY_STALE_EDIT,
  listGateways,
  moveGateway,
  paytmGatewaySettings,
  saveGateway,
  type GatewayMove,
} from './gateway.server'

const t = fileTestDb()

const SECRET = 'k'.repeat(64)
const KEY = 'Zq7#Tt2!Lm9@Pw4$'
const OTHER_SECRET = 'o'.repeat(64)
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
    const [paytm] = await listGateways(t.db, SECRET)
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
    const listed = await listGateways(t.db, SECRET)
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
    expect((await listGateways(t.db, SECRET)).find((g) => g.id === 'paytm')?.type).toBe('paytm')
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

describe(`the Gateways page's records (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  /** A fresh database with the default Paytm record, for a test that needs a known order. */
  async function withShop(test: (db: DB) => Promise<void>) {
    const own = await createTestDb()
    try {
      await ensureDefaultGateway(own.db)
      await test(own.db)
    } finally {
      await own.destroy()
    }
  }
  const addTesting = (db: DB, type: 'razorpay' | 'phonepe' | 'stripe') =>
    saveGateway(db, SECRET, {
      mode: 'add',
      ...gatewayForm({ name: type, type, status: 'testing' }),
    })
  const order = async (db: DB) => (await listGateways(db, SECRET)).map((g) => g.id)

  it('adds a gateway after every other in the checkout order, also after a move', () =>
    withShop(async (db) => {
      expect(await addTesting(db, 'razorpay')).toEqual({ ok: true, id: 'razorpay' })
      expect(await moveGateway(db, 'razorpay', 'up')).toEqual({
        before: ['paytm', 'razorpay'],
        after: ['razorpay', 'paytm'],
      })
      expect(await addTesting(db, 'phonepe')).toEqual({ ok: true, id: 'phonepe' })
      expect(await order(db)).toEqual(['razorpay', 'paytm', 'phonepe'])
      await addTesting(db, 'stripe')
      expect(await order(db)).toEqual(['razorpay', 'paytm', 'phonepe', 'stripe'])
    }))

  it('records a move with its audit entry, and a failing entry leaves the order as it was', () =>
    withShop(async (db) => {
      await addTesting(db, 'razorpay')
      const recorded: GatewayMove[] = []
      await moveGateway(db, 'razorpay', 'up', new Date(), async (trx, move) => {
        recorded.push(move)
        await recordAdminChange(trx, {
          actor: null,
          ip: null,
          action: 'gateway.move',
          target: { type: 'gateway', id: 'razorpay' },
          summary: 'Moved the Razorpay gateway up in the checkout order',
          before: { order: move.before.join(', ') },
          after: { order: move.after.join(', ') },
        })
      })
      expect(recorded).toEqual([{ before: ['paytm', 'razorpay'], after: ['razorpay', 'paytm'] }])
      const { entries } = await listAuditEntries(db, { targetType: 'gateway' })
      expect(entries.map((entry) => entry.action)).toEqual(['gateway.move'])

      await expect(
        moveGateway(db, 'paytm', 'up', new Date(), () => Promise.reject(new Error('audit down'))),
      ).rejects.toThrow('audit down')
      expect(await order(db)).toEqual(['razorpay', 'paytm'])
    }))

  it('refuses a save from a page showing values another admin changed since, and changes nothing', () =>
    withShop(async (db) => {
      const [shown] = await listGateways(db, SECRET)
      const edit = (name: string, version = shown!.version) =>
        saveGateway(db, SECRET, {
          mode: 'edit',
          id: 'paytm',
          version,
          ...gatewayForm({ name, type: 'paytm', status: 'testing' }),
        })
      expect(await edit('First Admin')).toEqual({ ok: true, id: 'paytm' })
      const after = await listGateways(db, SECRET)
      expect(await edit('Second Admin')).toEqual({
        ok: false,
        stale: true,
        errors: { form: GATEWAY_STALE_EDIT },
      })
      expect(await edit('No Version', '')).toEqual({
        ok: false,
        stale: true,
        errors: { form: GATEWAY_EDIT_EXPIRED },
      })
      expect(await listGateways(db, SECRET)).toEqual(after)
      expect(after[0]?.name).toBe('First Admin')
      // A move is no edit of what the form shows: the page stays current.
      await addTesting(db, 'razorpay')
      await moveGateway(db, 'razorpay', 'up')
      const current = (await listGateways(db, SECRET)).find((g) => g.id === 'paytm')!
      expect(current.version).toBe(after[0]!.version)
      expect(await edit('After Move', current.version)).toEqual({ ok: true, id: 'paytm' })
    }))

  it('lets one of two saves from the same page through when they arrive together', () =>
    withShop(async (db) => {
      const [shown] = await listGateways(db, SECRET)
      const results = await Promise.all(
        ['One', 'Two'].map((name) =>
          saveGateway(db, SECRET, {
            mode: 'edit',
            id: 'paytm',
            version: shown!.version,
            ...gatewayForm({ name, type: 'paytm', status: 'testing' }),
          }),
        ),
      )
      expect(results.filter((result) => result.ok)).toHaveLength(1)
      expect(results.filter((result) => !result.ok)).toEqual([
        { ok: false, stale: true, errors: { form: GATEWAY_STALE_EDIT } },
      ])
      const saved = results.findIndex((result) => result.ok)
      expect((await listGateways(db, SECRET))[0]?.name).toBe(['One', 'Two'][saved])
    }))

  it('lists a secret stored under another APP_SECRET as not set, and wants it again to be active', () =>
    withShop(async (db) => {
      const paytm = (status: string, merchantKey = '') =>
        saveGateway(db, OTHER_SECRET, {
          mode: 'edit',
          id: 'paytm',
          ...gatewayForm({
            name: 'Paytm',
            type: 'paytm',
            status,
            merchantId: 'KEYBAZ12345678901234',
            merchantKey,
          }),
        })
      expect(await paytm('testing', KEY)).toEqual({ ok: true, id: 'paytm' })
      expect((await listGateways(db, OTHER_SECRET))[0]).toMatchObject({
        secretsSet: { merchantKey: true },
        unreadableSecrets: [],
      })
      // APP_SECRET changed from OTHER_SECRET to SECRET.
      expect((await listGateways(db, SECRET))[0]).toMatchObject({
        secretsSet: { merchantKey: false },
        unreadableSecrets: ['merchantKey'],
      })
      const active = await saveGateway(db, SECRET, {
        mode: 'edit',
        id: 'paytm',
        ...gatewayForm({
          name: 'Paytm',
          type: 'paytm',
          status: 'active',
          merchantId: 'KEYBAZ12345678901234',
        }),
      })
      expect(active).toEqual({
        ok: false,
        errors: {
          merchantKey:
            'Merchant Key was stored under another APP_SECRET: enter it again to make the gateway active',
        },
      })
      expect((await listGateways(db, SECRET))[0]?.status).toBe('testing')
      // Entered again under the new secret, it is set and the gateway can be made active.
      const again = await saveGateway(db, SECRET, {
        mode: 'edit',
        id: 'paytm',
        ...gatewayForm({
          name: 'Paytm',
          type: 'paytm',
          status: 'active',
          merchantId: 'KEYBAZ12345678901234',
          merchantKey: KEY,
        }),
      })
      expect(again).toEqual({ ok: true, id: 'paytm' })
      expect((await listGateways(db, SECRET))[0]).toMatchObject({
        status: 'active',
        secretsSet: { merchantKey: true },
        unreadableSecrets: [],
      })
    }))

  it("keeps the stored status when the environment's settings win, saving only the name", () =>
    withShop(async (db) => {
      const saved = await saveGateway(db, SECRET, {
        mode: 'edit',
        id: 'paytm',
        keepFields: true,
        ...gatewayForm({ name: 'Paytm (env)', type: 'paytm', status: 'inactive' }),
      })
      expect(saved).toEqual({ ok: true, id: 'paytm' })
      expect((await listGateways(db, SECRET))[0]).toMatchObject({
        name: 'Paytm (env)',
        status: 'testing',
      })
      // A new record of such a type starts in testing whatever is posted.
      await saveGateway(db, SECRET, {
        mode: 'add',
        keepFields: true,
        ...gatewayForm({ name: 'Razorpay', type: 'razorpay', status: 'active' }),
      })
      expect((await listGateways(db, SECRET)).find((g) => g.id === 'razorpay')?.status).toBe(
        'testing',
      )
    }))
})
