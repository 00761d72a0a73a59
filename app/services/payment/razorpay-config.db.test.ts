import { describe, expect, it } from 'vitest'
import { saveGateway } from '~/data/gateway.server'
import type { Env } from '~/lib/env.server'
import { countQueries } from '~/lib/query-count.server'
import { fileTestDb } from '../../../tests/helpers/db'
import { gatewayForm } from '../../../tests/helpers/forms'
import { checkoutGateways } from './offered-gateways.server'
import {
  razorpayCheckoutOrigins,
  razorpaySimulatorKeys,
  resolveRazorpaySetup,
} from './razorpay-config.server'

/** Which Razorpay the shop uses, and which gateways checkout offers, on both engines. */
const t = fileTestDb()

const SECRET = 'k'.repeat(64)
const env = {
  PUBLIC_URL: 'https://shop.example.in',
  APP_SECRET: SECRET,
} as Env

function razorpay(values: Record<string, string>) {
  return saveGateway(t.db, SECRET, {
    mode: 'add',
    ...gatewayForm({ name: 'Razorpay', type: 'razorpay', ...values }),
  })
}

describe('Razorpay configuration', () => {
  it('on a fresh install (no record, no real gateway) is the simulator, offered after Paytm', async () => {
    expect(await resolveRazorpaySetup(t.db, env)).toMatchObject({
      source: 'simulator',
      testMode: true,
    })
    expect((await checkoutGateways(t.db, env)).map((g) => [g.id, g.testMode])).toEqual([
      ['paytm', true],
      ['razorpay', true],
      ['phonepe', true],
    ])
    // The simulator answers on the shop's own origin: nothing to add to the pages' policy.
    expect(await razorpayCheckoutOrigins(t.db, env)).toEqual([])
    // Once a real Paytm is configured, Razorpay without a record is not offered.
    const livePaytm = {
      ...env,
      PAYTM_MID: 'ENVMID',
      PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
      PAYTM_HOST: 'https://securegw.paytm.in',
    }
    expect(await resolveRazorpaySetup(t.db, livePaytm)).toBeNull()
    expect((await checkoutGateways(t.db, livePaytm)).map((g) => g.id)).toEqual(['paytm'])
    // The same for a real PhonePe: a real gateway is a real gateway.
    const livePhonePe = { ...env, PHONEPE_CLIENT_ID: 'PPCLIENT', PHONEPE_CLIENT_SECRET: 's3cret' }
    expect(await resolveRazorpaySetup(t.db, livePhonePe)).toBeNull()
  })

  it('a record in testing without keys is the built-in simulator, offered beside Paytm', async () => {
    expect(await razorpay({ status: 'testing' })).toEqual({ ok: true, id: 'razorpay' })
    const setup = await resolveRazorpaySetup(t.db, env)
    expect(setup).toMatchObject({ source: 'simulator', testMode: true })
    expect(setup?.config.host).toBe('https://shop.example.in/__simulator/razorpay')
    expect(setup?.config.checkoutScript).toBe(
      'https://shop.example.in/__simulator/razorpay/v1/checkout.js',
    )
    expect(setup?.config.keyId).toBe(razorpaySimulatorKeys(SECRET).keyId)
    expect(razorpaySimulatorKeys('z'.repeat(64)).keySecret).not.toBe(setup?.config.keySecret)
    const offered = await checkoutGateways(t.db, env)
    expect(offered.map((g) => g.id).sort()).toEqual(['paytm', 'phonepe', 'razorpay'])
  })

  it('checkout reads the gateway records once for its choice of all three', async () => {
    const { offered, queries } = await countQueries(async (counter) => ({
      offered: await checkoutGateways(t.db, env),
      queries: counter.queries,
    }))
    expect(offered.map((g) => g.id).sort()).toEqual(['paytm', 'phonepe', 'razorpay'])
    expect(queries).toBe(1)
  })

  it('keys make it the real Razorpay with the real checkout.js; inactive turns it off', async () => {
    await t.db
      .updateTable('paymentGateway')
      .set({ position: -1 })
      .where('id', '=', 'razorpay')
      .execute()
    expect(
      await saveGateway(t.db, SECRET, {
        mode: 'edit',
        id: 'razorpay',
        ...gatewayForm({
          name: 'Razorpay',
          type: 'razorpay',
          status: 'active',
          keyId: 'rzp_live_AbCd1234',
          keySecret: 'secret-1',
          webhookSecret: 'hook-1',
          mode: 'edit',
          id: 'razorpay',
        }),
      }),
    ).toMatchObject({ ok: true })
    const setup = await resolveRazorpaySetup(t.db, env)
    expect(setup).toMatchObject({ source: 'gateway', testMode: false })
    expect(setup?.config).toMatchObject({
      keyId: 'rzp_live_AbCd1234',
      keySecret: 'secret-1',
      webhookSecret: 'hook-1',
      host: 'https://api.razorpay.com',
      checkoutScript: 'https://checkout.razorpay.com/v1/checkout.js',
    })
    expect(await razorpayCheckoutOrigins(t.db, env)).toEqual([
      'https://api.razorpay.com',
      'https://checkout.razorpay.com',
    ])
    // The shop's order: Razorpay was moved first.
    expect((await checkoutGateways(t.db, env)).map((g) => g.id)).toEqual(['razorpay', 'paytm'])
    // A secret that cannot be decrypted (APP_SECRET changed) is no Razorpay, never the simulator.
    expect(await resolveRazorpaySetup(t.db, { ...env, APP_SECRET: 'x'.repeat(64) })).toBeNull()
    await t.db
      .updateTable('paymentGateway')
      .set({ status: 'inactive' })
      .where('id', '=', 'razorpay')
      .execute()
    expect(await resolveRazorpaySetup(t.db, env)).toBeNull()
  })

  it('environment variables win over the record', async () => {
    const setup = await resolveRazorpaySetup(t.db, {
      ...env,
      RAZORPAY_KEY_ID: 'rzp_test_Env123',
      RAZORPAY_KEY_SECRET: 'env-secret',
      RAZORPAY_WEBHOOK_SECRET: 'env-hook',
      RAZORPAY_HOST: 'http://127.0.0.1:4200',
    })
    expect(setup).toMatchObject({ source: 'environment', testMode: false })
    expect(setup?.config).toMatchObject({
      keyId: 'rzp_test_Env123',
      host: 'http://127.0.0.1:4200',
      checkoutScript: 'http://127.0.0.1:4200/v1/checkout.js',
    })
  })
})

describe("Razorpay's test keys", () => {
  it('are test mode at Razorpay itself (no real money), live at a host the operator chose', async () => {
    const keys = { RAZORPAY_KEY_SECRET: 'env-secret', RAZORPAY_WEBHOOK_SECRET: 'env-hook' }
    expect(
      await resolveRazorpaySetup(t.db, { ...env, ...keys, RAZORPAY_KEY_ID: 'rzp_test_Env123' }),
    ).toMatchObject({ source: 'environment', testMode: true })
    expect(
      await resolveRazorpaySetup(t.db, { ...env, ...keys, RAZORPAY_KEY_ID: 'rzp_live_Env123' }),
    ).toMatchObject({ source: 'environment', testMode: false })
    expect(
      await resolveRazorpaySetup(t.db, {
        ...env,
        ...keys,
        RAZORPAY_KEY_ID: 'rzp_test_Env123',
        RAZORPAY_HOST: 'http://127.0.0.1:4200',
      }),
    ).toMatchObject({ testMode: false })
    // Offered at checkout as a test gateway in its own test environment, not the simulator.
    const offered = await checkoutGateways(t.db, {
      ...env,
      ...keys,
      RAZORPAY_KEY_ID: 'rzp_test_Env123',
    })
    expect(offered.find((g) => g.id === 'razorpay')).toMatchObject({
      testMode: true,
      sandbox: true,
    })
  })
})
