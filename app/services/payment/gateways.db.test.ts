import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ensureDefaultGateway, saveGateway } from '~/data/gateway.server'
import type { Env } from '~/lib/env.server'
import { startPaytmSimulator, type RunningPaytmSimulator } from '../../../simulators/paytm/testing'
import { fileTestDb } from '../../../tests/helpers/db'
import { gatewayForm } from '../../../tests/helpers/forms'
import { simulatorMerchant, SIMULATOR_MOUNT_PATH } from './config.server'
import { testGatewayConnection } from './gateways.server'

/**
 * The Gateways page's Test connection, on both engines. A Paytm record with a merchant id and no
 * key this APP_SECRET can read is the simulator at checkout: testing it tests nothing of the
 * admin's merchant, so it must not say "Connected".
 */
const t = fileTestDb()

const SECRET = 'k'.repeat(64)
// The built-in simulator as the shop mounts it, at PUBLIC_URL/__simulator/paytm.
let sim: RunningPaytmSimulator
let env: Env
beforeAll(async () => {
  sim = await startPaytmSimulator({
    ...simulatorMerchant(SECRET),
    basePath: SIMULATOR_MOUNT_PATH,
  })
  env = { PUBLIC_URL: sim.url.replace(SIMULATOR_MOUNT_PATH, ''), APP_SECRET: SECRET } as Env
})
afterAll(() => sim.close())

function paytm(appSecret: string, values: Record<string, string>) {
  return saveGateway(t.db, appSecret, {
    mode: 'edit',
    id: 'paytm',
    ...gatewayForm({ name: 'Paytm', type: 'paytm', status: 'testing', ...values }),
  })
}

describe(`Test connection of a Paytm merchant without a usable key (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('says the merchant id was not tested when no key is stored', async () => {
    await ensureDefaultGateway(t.db)
    // No merchant at all: the simulator is what checkout uses, and what is tested.
    expect(await testGatewayConnection(t.db, env, 'paytm')).toMatchObject({
      ok: true,
      message: expect.stringMatching(
        /^The built-in Paytm simulator accepted the merchant ID and key/,
      ),
    })
    expect(await paytm(SECRET, { merchantId: 'KEYBAZ12345678901234' })).toEqual({
      ok: true,
      id: 'paytm',
    })
    expect(await testGatewayConnection(t.db, env, 'paytm')).toEqual({
      ok: false,
      message:
        'No Merchant Key is stored that this APP_SECRET can read, so checkout uses the built-in Paytm simulator and Merchant ID KEYBAZ12345678901234 was not tested. Enter the Merchant Key, save, and test again.',
    })
  })

  it('says the same of a key stored under another APP_SECRET', async () => {
    await paytm('o'.repeat(64), {
      merchantId: 'KEYBAZ12345678901234',
      merchantKey: 'Zq7#Tt2!Lm9@Pw4$',
    })
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      expect(await testGatewayConnection(t.db, env, 'paytm')).toMatchObject({
        ok: false,
        message: expect.stringContaining('Merchant ID KEYBAZ12345678901234 was not tested'),
      })
    } finally {
      error.mockRestore()
    }
  })
})
