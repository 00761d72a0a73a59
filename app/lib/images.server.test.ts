import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createImageService, isSafeImageKey } from './images.server'
import { createLocalStorage } from './storage.server'

async function png(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer()
}

describe('image service', () => {
  let root: string
  let storage: ReturnType<typeof createLocalStorage>
  let service: ReturnType<typeof createImageService>
  let cacheDir: string

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-images-'))
    storage = createLocalStorage(path.join(root, 'uploads'))
    cacheDir = path.join(root, 'cache')
    service = createImageService({ storage, cacheDir })
  })
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

  it('serves a stored image as a 4:3 WebP of the asked width', async () => {
    await storage.put('products/one.png', await png(1600, 1000, '#ff0000'), 'image/png')
    const variant = await service.variant('products/one.png', 640, 'webp')
    expect(variant?.contentType).toBe('image/webp')
    const meta = await sharp(variant!.body).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 640, 480])
  })

  it('makes JPEG variants for link previews', async () => {
    const variant = await service.variant('products/one.png', 1200, 'jpeg')
    const meta = await sharp(variant!.body).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 900])
  })

  it('changes the version when the image changes, and drops the old variants', async () => {
    const before = await service.ref('products/one.png')
    const oldVariant = await service.variant('products/one.png', 320, 'webp')
    const versionDirsBefore = fs.readdirSync(path.join(cacheDir, 'products/one.png'))
    expect(versionDirsBefore).toEqual([before!.v])

    await storage.put('products/one.png', await png(800, 600, '#0000ff'), 'image/png')
    // A replaced file gets a new modification time; make sure it differs even on coarse clocks.
    const later = new Date(Date.now() + 5000)
    fs.utimesSync(path.join(root, 'uploads/products/one.png'), later, later)

    const after = await service.ref('products/one.png')
    expect(after?.src).toBe('/images/products/one.png')
    expect(after?.v).not.toBe(before?.v)
    const newVariant = await service.variant('products/one.png', 320, 'webp')
    expect(newVariant?.version).toBe(after?.v)
    expect(newVariant?.body.equals(oldVariant!.body)).toBe(false)
    expect(fs.readdirSync(path.join(cacheDir, 'products/one.png'))).toEqual([after!.v])
  })

  it('serves the cached variant on the next request without running sharp again', async () => {
    const ref = await service.ref('products/one.png')
    const file = path.join(cacheDir, 'products/one.png', ref!.v!, '960.webp')
    await service.variant('products/one.png', 960, 'webp')
    expect(fs.existsSync(file)).toBe(true)
    fs.writeFileSync(file, 'cached bytes')
    const again = await service.variant('products/one.png', 960, 'webp')
    expect(again?.body.toString()).toBe('cached bytes')
  })

  it('answers null for a missing image and refuses keys that leave the storage folder', async () => {
    expect(await service.ref('products/missing.png')).toBeNull()
    expect(await service.variant('products/missing.png', 320, 'webp')).toBeNull()
    expect(await service.variant('../secret', 320, 'webp')).toBeNull()
    expect(isSafeImageKey('products/../../etc/passwd')).toBe(false)
    expect(isSafeImageKey('/etc/passwd')).toBe(false)
    expect(isSafeImageKey('products/a_b-1.webp')).toBe(true)
  })

  it('passes absolute image URLs through and has no ref for an empty image', async () => {
    expect(await service.ref('https://cdn.example/x.png')).toEqual({
      src: 'https://cdn.example/x.png',
    })
    expect(await service.ref('')).toBeNull()
  })
})
