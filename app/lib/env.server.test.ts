import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, parseEnv, resolveAppSecret } from './env.server'

const tempDirs: string[] = []
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-env-'))
  tempDirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

describe('parseEnv', () => {
  it('applies the documented defaults', () => {
    const env = parseEnv({})
    expect(env.PORT).toBe(3000)
    expect(env.HOST).toBe('0.0.0.0')
    expect(env.PUBLIC_URL).toBe('http://localhost:3000')
    expect(env.DATA_DIR).toBe(path.resolve('./data'))
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.ADMIN_EMAILS).toEqual([])
    expect(env.SEED_DEMO).toBeUndefined()
  })

  it('has the page cache on with 32 MB unless told otherwise', () => {
    expect(parseEnv({}).PAGE_CACHE).toBeUndefined()
    expect(parseEnv({}).PAGE_CACHE_MB).toBe(32)
    expect(parseEnv({ PAGE_CACHE: 'off' }).PAGE_CACHE).toBe(false)
    expect(parseEnv({ PAGE_CACHE: 'on', PAGE_CACHE_MB: '64' }).PAGE_CACHE_MB).toBe(64)
    expect(() => parseEnv({ PAGE_CACHE_MB: '0' })).toThrow(
      /PAGE_CACHE_MB must be a number of megabytes/,
    )
    expect(() => parseEnv({ PAGE_CACHE: 'maybe' })).toThrow(ConfigError)
  })

  it('derives PUBLIC_URL from PORT and trims a trailing slash from an explicit one', () => {
    expect(parseEnv({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080')
    expect(parseEnv({ PUBLIC_URL: 'https://shop.example.in/' }).PUBLIC_URL).toBe(
      'https://shop.example.in',
    )
  })

  it('refuses a port that is not a number, naming the variable in one line', () => {
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(ConfigError)
    try {
      parseEnv({ PORT: 'abc' })
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid configuration: PORT must be a port number/)
      expect((error as Error).message).toContain('"abc"')
      expect((error as Error).message).not.toContain('\n')
    }
  })

  it('takes MAIL_FROM as an address, or a name and one, and refuses one without an address', () => {
    expect(parseEnv({ MAIL_FROM: 'orders@shop.example.in' }).MAIL_FROM).toBe(
      'orders@shop.example.in',
    )
    expect(parseEnv({ MAIL_FROM: ' "Chai Keys" <support@chaikeys.example> ' }).MAIL_FROM).toBe(
      '"Chai Keys" <support@chaikeys.example>',
    )
    expect(parseEnv({ MAIL_FROM: '' }).MAIL_FROM).toBeUndefined()
    // Nodemailer would send every mail with no From header and an empty envelope sender.
    for (const value of ['Chai Keys', 'orders at shop.example.in', 'Shop <orders>'])
      expect(() => parseEnv({ MAIL_FROM: value })).toThrow(
        /^Invalid configuration: MAIL_FROM must be an e-mail address/,
      )
  })

  it('runs one process per core unless WEB_CONCURRENCY says how many', () => {
    expect(parseEnv({}).WEB_CONCURRENCY).toBe(os.availableParallelism())
    expect(parseEnv({ WEB_CONCURRENCY: '' }).WEB_CONCURRENCY).toBe(os.availableParallelism())
    expect(parseEnv({ WEB_CONCURRENCY: '1' }).WEB_CONCURRENCY).toBe(1)
    expect(parseEnv({ WEB_CONCURRENCY: ' 3 ' }).WEB_CONCURRENCY).toBe(3)
  })

  it.each(['0', '-2', '1.5', 'auto', '1000'])('refuses WEB_CONCURRENCY=%s in one line', (value) => {
    expect(() => parseEnv({ WEB_CONCURRENCY: value })).toThrow(
      /^Invalid configuration: WEB_CONCURRENCY must be a whole number of processes from 1 to 256/,
    )
  })

  it('refuses a database URL that is not PostgreSQL', () => {
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ URL/,
    )
  })

  it('reports every bad variable at once without printing secrets', () => {
    const message = (() => {
      try {
        parseEnv({ PORT: '70000', APP_SECRET: 'short', SMTP_URL: 'http://mail' })
        return ''
      } catch (error) {
        return (error as Error).message
      }
    })()
    expect(message).toContain('PORT')
    expect(message).toContain('APP_SECRET must be at least 32 characters')
    expect(message).toContain('SMTP_URL must be an smtp://')
    expect(message).not.toContain('short')
  })

  it('parses ADMIN_EMAILS as a lower-cased list and rejects a malformed address', () => {
    expect(
      parseEnv({ ADMIN_EMAILS: ' Owner@Example.com, ops@example.com ,' }).ADMIN_EMAILS,
    ).toEqual(['owner@example.com', 'ops@example.com'])
    expect(() => parseEnv({ ADMIN_EMAILS: 'owner@example.com,not-an-email' })).toThrow(
      /ADMIN_EMAILS/,
    )
  })

  it('trusts no proxy by default and accepts what Express accepts in TRUST_PROXY', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false)
    expect(parseEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(parseEnv({ TRUST_PROXY: 'loopback' }).TRUST_PROXY).toEqual(['loopback'])
    expect(
      parseEnv({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8,172.16.0.0/255.240.0.0' })
        .TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '172.16.0.0/255.240.0.0'])
  })

  it('refuses a TRUST_PROXY Express would not understand, and true, in one line', () => {
    for (const value of ['true', 'everyone', '10.0.0.0/33', '10.0.0.1,', '300.1.1.1']) {
      expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(
        /^Invalid configuration: TRUST_PROXY must be a number of proxies \(such as 1\), loopback, linklocal, uniquelocal, or comma-separated IP addresses or CIDR ranges \(got ".+"\)$/,
      )
    }
  })

  it('reads SEED_DEMO as a flag', () => {
    expect(parseEnv({ SEED_DEMO: '1' }).SEED_DEMO).toBe(true)
    expect(parseEnv({ SEED_DEMO: 'off' }).SEED_DEMO).toBe(false)
    expect(() => parseEnv({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/)
  })

  it('requires APP_SECRET in production with PostgreSQL, where app servers must share it', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/shop' })).toThrow(
      /APP_SECRET is required/,
    )
    expect(
      parseEnv({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://db/shop',
        APP_SECRET: 'x'.repeat(32),
      }).APP_SECRET,
    ).toBe('x'.repeat(32))
    // Without an explicit NODE_ENV (a plain `npm start`), the generated secret is used as on SQLite.
    expect(parseEnv({ DATABASE_URL: 'postgres://db/shop' }).APP_SECRET).toBeUndefined()
    // Nor when server.js set NODE_ENV=production itself, for the libraries' production builds.
    expect(
      parseEnv({
        NODE_ENV: 'production',
        NODE_ENV_DEFAULTED: '1',
        DATABASE_URL: 'postgres://db/shop',
      }).APP_SECRET,
    ).toBeUndefined()
  })

  it('requires the Paytm merchant id and key together', () => {
    expect(() => parseEnv({ PAYTM_MID: 'MID123' })).toThrow(/PAYTM_MID and PAYTM_MERCHANT_KEY/)
    expect(() => parseEnv({ PAYTM_MID: 'MID123', PAYTM_MERCHANT_KEY: 'tooshort' })).toThrow(
      /exactly 16/,
    )
  })
})

describe('resolveAppSecret', () => {
  it('generates a secret into DATA_DIR/secret once and reuses it after', () => {
    const dir = tempDir()
    const first = resolveAppSecret(dir, undefined)
    expect(first.source).toBe('generated')
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/)
    expect(fs.statSync(path.join(dir, 'secret')).mode & 0o777).toBe(0o600)
    const second = resolveAppSecret(dir, undefined)
    expect(second).toEqual({ secret: first.secret, source: 'file' })
  })

  it('prefers APP_SECRET from the environment and writes nothing', () => {
    const dir = tempDir()
    expect(resolveAppSecret(dir, 'e'.repeat(40))).toEqual({
      secret: 'e'.repeat(40),
      source: 'environment',
    })
    expect(fs.existsSync(path.join(dir, 'secret'))).toBe(false)
  })
})
