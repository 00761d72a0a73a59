import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { updateSiteSettings } from '~/data/settings.server'
import { fileTestDb } from '../tests/helpers/db'
import { maintenanceGate, type MaintenanceLocals } from './maintenance'

/**
 * The gate in front of the app (docs/settings.md, "Maintenance mode"), with a stand-in for the
 * app behind it that answers what React Router would route: the path of the URL its Express
 * adapter builds, whose host is cut at the first / ? # @ or \ (so the Host header never moves
 * the path).
 */
describe(`maintenance gate (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  const t = fileTestDb()
  let server: http.Server
  let port: number

  beforeAll(async () => {
    const app = express()
    app.use(maintenanceGate(t.db))
    app.use((req, res) => {
      const host = (req.get('host') ?? '').split(/[\\/?#@]/)[0] || 'localhost'
      const routed = new URL(`http://${host}${req.originalUrl}`).pathname
      res.json({ routed, maintenance: (res.locals as MaintenanceLocals).maintenance ?? null })
    })
    server = await new Promise<http.Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening))
    })
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** A raw request, with the Host header as the sender chose it (fetch would not allow that). */
  function send(method: string, path: string, host: string) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, method, path, headers: { host } },
        (response) => {
          let body = ''
          response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        },
      )
      request.on('error', reject)
      request.end()
    })
  }

  it('closes checkout to a visitor whatever the Host header says', async () => {
    await updateSiteSettings(t.db, { maintenanceMode: true })
    const plain = await send('POST', '/checkout/streamverse', 'shop.test')
    expect(plain.status).toBe(503)
    // "shop.test/admin" would make the path the gate judged /admin/checkout/..., kept open for
    // the admin area, while the router still routes /checkout/streamverse.
    for (const host of ['shop.test/admin', 'shop.test/api', 'shop.test/payment']) {
      const forged = await send('POST', '/checkout/streamverse', host)
      expect(forged.status, host).toBe(503)
      const page = await send('GET', '/product/streamverse', host)
      expect(JSON.parse(page.body), host).toEqual({
        routed: '/product/streamverse',
        maintenance: 'closed',
      })
    }
    // The paths kept open stay open.
    const callback = await send('POST', '/api/payments/razorpay/webhook', 'shop.test')
    expect(JSON.parse(callback.body)).toEqual({
      routed: '/api/payments/razorpay/webhook',
      maintenance: null,
    })
  })
})
