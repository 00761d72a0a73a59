import { describe, expect, it } from 'vitest'
import { saveGateway } from '~/data/gateway.server'
import type { Env } from '~/lib/env.server'
import { fileTestDb } from '../../../tests/helpers/db'
import { gatewaySchema } from '~/lib/validation/gateway'
import { gatewayForm, submitForm } from '../../../tests/helpers/forms'
import { checkoutGateways } from './offered-gateways.server'
import { phonePeSimulatorCredentials, resolvePhonePeSetup } from './phonepe-config.server'

/** Which PhonePe the shop uses, and whether checkout offers it, on both engines. */
const t = fileTestDb()

const SECRET = 'q'.repeat(64)
const env = { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: SECRET } as Env

function save(mode: 'add' | 'edit', values: Record<string, string>) {
  return saveGateway(t.db, SECRET, {
    mode,
    id: 'phonepe',
    ...gatewayForm({ name: 'PhonePe', type: 'phonepe', ...values }),
  })
}

describe('PhonePe configuration', () => {
  it('without a record is the simulator on a fresh install, and off once a real gateway exists', async () => {
    expect(await resolvePhonePeSetup(t.db, env)).toMatchObject({
      source: 'simulator',
      testMode: true,
    })
    expect((await checkoutGateways(t.db, env)).map((g) => g.id)).toContain('phonepe')
    const livePaytm = {
      ...env,
      PAYTM_MID: 'ENVMID',
      PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
      PAYTM_HOST: 'https://securegw.paytm.in',
    }
    expect(await resolvePhonePeSetup(t.db, livePaytm)).toBeNull()
    expect((await checkoutGateways(t.db, livePaytm)).map((g) => g.id)).not.toContain('phonepe')
  })

  it('a record in testing without credentials is the built-in simulator, offered at checkout', async () => {
    expect(await save('add', { status: 'testing' })).toEqual({ ok: true, id: 'phonepe' })
    const setup = await resolvePhonePeSetup(t.db, env)
    expect(setup).toMatchObject({ source: 'simulator', testMode: true })
    expect(setup?.config.pgHost).toBe('https://shop.example.in/__simulator/phonepe')
    expect(setup?.config.clientId).toBe(phonePeSimulatorCredentials(SECRET).clientId)
    expect(phonePeSimulatorCredentials('z'.repeat(64)).clientSecret).not.toBe(
      setup?.config.clientSecret,
    )
    expect(setup?.returnUrl('ORD_1_2')).toBe(
      'https://shop.example.in/api/payments/phonepe/return?order=ORD_1_2',
    )
    const offered = await checkoutGateways(t.db, env)
    expect(offered.find((g) => g.id === 'phonepe')).toMatchObject({ testMode: true })
  })

  it('credentials make it the real PhonePe on its hosts; inactive turns it off', async () => {
    expect(
      await save('edit', {
        status: 'active',
        clientId: 'M22TESTCLIENT',
        clientSecret: 'secret-1',
        clientVersion: '2',
        environment: 'production',
        webhookUsername: 'hook',
        webhookPassword: 'pass',
      }),
    ).toEqual({ ok: true, id: 'phonepe' })
    const setup = await resolvePhonePeSetup(t.db, env)
    expect(setup).toMatchObject({
      source: 'gateway',
      testMode: false,
      config: {
        clientId: 'M22TESTCLIENT',
        clientSecret: 'secret-1',
        clientVersion: '2',
        webhookUsername: 'hook',
        webhookPassword: 'pass',
        pgHost: 'https://api.phonepe.com/apis/pg',
        oauthHost: 'https://api.phonepe.com/apis/identity-manager',
      },
    })
    // A secret that cannot be decrypted (APP_SECRET changed) is no PhonePe, never the simulator.
    expect(await resolvePhonePeSetup(t.db, { ...env, APP_SECRET: 'r'.repeat(64) })).toBeNull()
    await save('edit', { status: 'inactive' })
    expect(await resolvePhonePeSetup(t.db, env)).toBeNull()
  })

  it('PHONEPE_* from the environment win, PHONEPE_HOST points at a simulator', async () => {
    const setup = await resolvePhonePeSetup(t.db, {
      ...env,
      PHONEPE_CLIENT_ID: 'ENVCLIENT',
      PHONEPE_CLIENT_SECRET: 'env-secret',
      PHONEPE_HOST: 'http://127.0.0.1:4300',
    })
    expect(setup).toMatchObject({
      source: 'environment',
      testMode: false,
      config: {
        clientId: 'ENVCLIENT',
        clientVersion: '1',
        pgHost: 'http://127.0.0.1:4300',
        oauthHost: 'http://127.0.0.1:4300',
      },
    })
  })

  it('refuses bad settings with a message', () => {
    const parsed = submitForm(gatewaySchema, {
      name: 'PhonePe',
      type: 'phonepe',
      status: 'testing',
      clientId: 'has space',
      clientVersion: 'v1',
      environment: 'staging',
      webhookUsername: 'a:b',
    })
    expect(parsed.errors).toMatchObject({
      clientId: expect.anything(),
      clientVersion: expect.anything(),
      environment: expect.anything(),
      webhookUsername: expect.anything(),
    })
  })
})

describe("PhonePe's sandbox", () => {
  it('is test mode (no real money); production, or a host the operator chose, is live', async () => {
    const credentials = { PHONEPE_CLIENT_ID: 'ENVCLIENT', PHONEPE_CLIENT_SECRET: 'env-secret' }
    expect(await resolvePhonePeSetup(t.db, { ...env, ...credentials })).toMatchObject({
      source: 'environment',
      testMode: true,
      config: { pgHost: 'https://api-preprod.phonepe.com/apis/pg-sandbox' },
    })
    expect(
      await resolvePhonePeSetup(t.db, { ...env, ...credentials, PHONEPE_ENV: 'production' }),
    ).toMatchObject({ testMode: false })
    expect(
      await resolvePhonePeSetup(t.db, {
        ...env,
        ...credentials,
        PHONEPE_HOST: 'http://127.0.0.1:4300',
      }),
    ).toMatchObject({ testMode: false })
    // The sandbox named as the host is still the sandbox.
    expect(
      await resolvePhonePeSetup(t.db, {
        ...env,
        ...credentials,
        PHONEPE_ENV: 'production',
        PHONEPE_HOST: 'https://api-preprod.phonepe.com/apis/pg-sandbox/',
      }),
    ).toMatchObject({ testMode: true })
  })
})
