import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { runServerOnce, startApp } from '../helpers/app'
import { expect, test } from '../helpers/fixtures'

test.describe('production server', () => {
  test('answers /healthz with 200 while the database answers', async ({ request }) => {
    const response = await request.get('/healthz')
    expect(response.status()).toBe(200)
    expect(await response.text()).toBe('ok')
    expect(response.headers()['cache-control']).toBe('no-store')
  })

  test('sends security headers on pages', async ({ request }) => {
    const response = await request.get('/')
    const headers = response.headers()
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(headers['content-security-policy']).toContain("frame-ancestors 'self'")
    expect(headers['x-powered-by']).toBeUndefined()
  })

  test('compresses pages and caches hashed assets as immutable', async ({ request }) => {
    const page = await request.get('/', { headers: { 'Accept-Encoding': 'gzip' } })
    expect(page.headers()['content-encoding']).toBe('gzip')
    const html = await page.text()
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0]
    expect(asset).toBeTruthy()
    const response = await request.get(asset!)
    expect(response.status()).toBe(200)
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  test('answers an unknown page with 404', async ({ request }) => {
    const response = await request.get('/no-such-page')
    expect(response.status()).toBe(404)
  })
})

test.describe('start-up', () => {
  test('keeps the secret and the data across restarts and does not seed again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-restart-'))
    try {
      const first = await startApp({ dataDir })
      expect(first.output()).toContain('demo catalogue')
      const secret = fs.readFileSync(path.join(dataDir, 'secret'), 'utf8')
      await first.stop()

      // The owner removes a demo product while the shop is down.
      const sqlite = new Database(path.join(dataDir, 'keybazaar.db'))
      const before = sqlite.prepare('select count(*) as n from product').get() as { n: number }
      sqlite.prepare("delete from product where slug = 'streamverse-premium-12-months'").run()
      sqlite.close()

      const second = await startApp({ dataDir })
      expect(second.output()).not.toContain('demo catalogue')
      expect(fs.readFileSync(path.join(dataDir, 'secret'), 'utf8')).toBe(secret)
      const html = await (await fetch(second.url)).text()
      expect(html).not.toContain('StreamVerse Premium 12 Months')
      expect(html).toContain('CineNova Ultra 6 Months')
      await second.stop()
      const after = new Database(path.join(dataDir, 'keybazaar.db'))
      expect((after.prepare('select count(*) as n from product').get() as { n: number }).n).toBe(
        before.n - 1,
      )
      after.close()
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  for (const [name, value, expected] of [
    ['PORT', 'abc', /^KeyBazaar cannot start: Invalid configuration: PORT must be a port number/],
    [
      'DATABASE_URL',
      'mysql://x',
      /^KeyBazaar cannot start: Invalid configuration: DATABASE_URL must be a postgres:\/\/ URL/,
    ],
  ] as const) {
    test(`stops with one clear line when ${name}=${value}`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-badenv-'))
      const result = await runServerOnce({ [name]: value, DATA_DIR: dataDir })
      fs.rmSync(dataDir, { recursive: true, force: true })
      expect(result.code).toBe(1)
      const lines = result.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(expected)
    })
  }

  test('runs the same way on PostgreSQL when DATABASE_URL is set', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL
    test.skip(!adminUrl, 'TEST_DATABASE_URL is not set')
    const database = `kb_e2e_${Date.now()}_${process.pid}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`create database ${database}`)
    const url = new URL(adminUrl!)
    url.pathname = `/${database}`
    try {
      const app = await startApp({
        env: {
          DATABASE_URL: url.toString(),
          SEED_DEMO: '1',
          APP_SECRET: 'e2e-secret-'.padEnd(40, 'x'),
        },
      })
      try {
        expect(app.output()).toContain('PostgreSQL')
        expect((await fetch(`${app.url}/healthz`)).status).toBe(200)
        const html = await (await fetch(app.url)).text()
        expect(html).toContain('StreamVerse Premium 12 Months')
      } finally {
        await app.dispose()
      }
    } finally {
      await admin.query(`drop database if exists ${database} with (force)`)
      await admin.end()
    }
  })
})
