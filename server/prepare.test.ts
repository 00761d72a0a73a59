import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setProductDelivery } from '~/data/stock.server'
import { closeServices, openServices } from '~/lib/app-context.server'
import { loadEnv } from '~/lib/env.server'
import { importStock } from '~/services/fulfilment.server'
import { makeProduct } from '../tests/factories'
import { prepareData } from './prepare'

/**
 * The start-up work fingerprints stock items stocked before shop-wide fingerprints, so an import
 * served afterwards finds them in other products (docs/delivery.md, "One product per item").
 * SQLite in a temporary DATA_DIR: prepareData opens the app's own database there.
 */
describe('prepareData', () => {
  const dirs: string[] = []
  afterEach(async () => {
    await closeServices()
    vi.restoreAllMocks()
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('fingerprints older stock items shop-wide before requests are served', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-prepare-'))
    dirs.push(dir)
    const env = loadEnv({ DATA_DIR: dir, APP_SECRET: 'p'.repeat(64), SEED_DEMO: 'false' })
    await prepareData(env)
    const { db } = openServices(env)
    const older = await makeProduct(db, { title: 'Older Stock' })
    const newer = await makeProduct(db, { title: 'Newer Stock' })
    for (const product of [older, newer])
      await setProductDelivery(db, env.APP_SECRET, product.id, { mode: 'stock' })
    const add = (productId: string, content: string) =>
      importStock(openServices(env).db, {
        productId,
        content,
        format: 'lines',
        appSecret: env.APP_SECRET,
      })
    await add(older.id, 'OLDER-1\nOLDER-2')
    // As the rows were before 0220_stock_shop_fingerprint.
    await db.updateTable('stockItem').set({ shopHash: null }).execute()
    await closeServices()

    await prepareData(env)
    const again = openServices(env).db
    const rows = await again.selectFrom('stockItem').select('shopHash').execute()
    expect(rows.filter((row) => row.shopHash !== null)).toHaveLength(2)
    expect(await add(newer.id, 'OLDER-2\nNEWER-1')).toMatchObject({
      added: 1,
      elsewhere: 1,
      elsewhereProducts: ['Older Stock'],
    })
  })
})
