import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGE_WIDTHS } from './images'
import { createImageService, type ImageService } from './images.server'
import { createLocalStorage, type Storage } from './storage.server'
import {
  copyProductImage,
  keyFromImageUrl,
  readLimitedBody,
  readLimitedFormData,
  PROFILE_PHOTO_MAX_PIXELS,
  PROFILE_PHOTO_SIDE,
  storeProductImage,
  storeProfilePhoto,
  UploadError,
} from './uploads.server'
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from './validation/product'

/** Product image uploads: judged by content, re-encoded, stored, variants made. */
let root: string
let storage: Storage
let images: ImageService
let cacheDir: string

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-uploads-'))
  storage = createLocalStorage(path.join(root, 'uploads'))
  cacheDir = path.join(root, 'cache')
  images = createImageService({ storage, cacheDir })
})
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

function picture(format: 'png' | 'jpeg' | 'webp', width = 800, height = 600): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: '#3355aa' } })
  return image.toFormat(format).toBuffer()
}

describe('storeProductImage', () => {
  it('stores a PNG at products/{timestamp}_{random}.png and makes the storefront WebP widths', async () => {
    const now = new Date('2026-05-01T10:00:00Z')
    const stored = await storeProductImage(
      { bytes: await picture('png') },
      { storage, images, now },
    )
    expect(stored.key).toMatch(new RegExp(`^products/${now.getTime()}_[0-9a-f]{12}\\.png$`))
    expect(stored).toMatchObject({
      width: 800,
      height: 600,
      previewUrl: `/images/${stored.key}?w=640`,
    })
    expect(await sharp(await storage.read(stored.key)).metadata()).toMatchObject({
      format: 'png',
      width: 800,
      height: 600,
    })
    for (const width of IMAGE_WIDTHS) {
      const variant = await images.variant(stored.key, width, 'webp')
      expect(variant?.contentType).toBe('image/webp')
    }
    // The variants were made during the upload, so they are on disk already.
    const versions = fs.readdirSync(path.join(cacheDir, stored.key))
    expect(fs.readdirSync(path.join(cacheDir, stored.key, versions[0]!)).sort()).toEqual(
      IMAGE_WIDTHS.map((width) => `${width}.webp`).sort(),
    )
  })

  it('keeps JPEG and WebP in their format, with every bit of metadata dropped', async () => {
    const withExif = await sharp({
      create: { width: 400, height: 300, channels: 3, background: '#aa5533' },
    })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'GPS and camera data', Artist: 'someone' } } })
      .toBuffer()
    expect((await sharp(withExif).metadata()).exif).toBeDefined()
    const jpeg = await storeProductImage({ bytes: withExif }, { storage })
    expect(jpeg.key).toMatch(/\.jpg$/)
    const metadata = await sharp(await storage.read(jpeg.key)).metadata()
    expect(metadata).toMatchObject({ format: 'jpeg', width: 400, height: 300 })
    expect(metadata.exif).toBeUndefined()
    expect(metadata.icc).toBeUndefined()

    const webp = await storeProductImage({ bytes: await picture('webp') }, { storage })
    expect(webp.key).toMatch(/\.webp$/)
  })

  it('scales very large pictures down to 2400 px on the long side', async () => {
    const stored = await storeProductImage(
      { bytes: await picture('jpeg', 4000, 1000) },
      { storage },
    )
    expect(stored).toMatchObject({ width: 2400, height: 600 })
  })

  it('refuses a text file named .png, a GIF, and a PNG signature on a broken body', async () => {
    const refused = async (bytes: Buffer) =>
      storeProductImage({ bytes }, { storage }).catch((error: unknown) => error)
    const text = await refused(Buffer.from('this is plain text, not a picture at all'))
    expect(text).toBeInstanceOf(UploadError)
    expect(text).toMatchObject({ message: IMAGE_MESSAGES.invalidType, status: 415 })
    expect(await refused(Buffer.from('GIF89a\u0001\u0000\u0001\u0000'))).toMatchObject({
      message: IMAGE_MESSAGES.invalidType,
    })
    const fakePng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(200, 7),
    ])
    expect(await refused(fakePng)).toMatchObject({ message: IMAGE_MESSAGES.invalidType })
    // A JPEG body behind a PNG signature is refused too: the decoder must agree with the bytes.
    const jpegBody = await picture('jpeg')
    const mislabelled = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      jpegBody.subarray(8),
    ])
    expect(await refused(mislabelled)).toMatchObject({ message: IMAGE_MESSAGES.invalidType })
  })

  it('refuses more than 5 MB, judging the bytes, not a declared size', async () => {
    const png = await picture('png', 10, 10)
    const big = Buffer.concat([png, Buffer.alloc(IMAGE_MAX_BYTES + 1 - png.length)])
    expect(
      await storeProductImage({ bytes: big }, { storage }).catch((error: unknown) => error),
    ).toMatchObject({
      message: IMAGE_MESSAGES.tooLarge,
      status: 413,
    })
  })
})

describe('storeProfilePhoto', () => {
  it('stores a square WebP, and refuses a picture of more pixels than an avatar needs before decoding it', async () => {
    const photo = await storeProfilePhoto({ bytes: await picture('jpeg', 4000, 3000) }, { storage })
    expect(photo.key).toMatch(/^avatars\/\d+_[0-9a-f]{12}\.webp$/)
    expect(await sharp(await storage.read(photo.key)).metadata()).toMatchObject({
      format: 'webp',
      width: PROFILE_PHOTO_SIDE,
      height: PROFILE_PHOTO_SIDE,
    })

    // One colour: a few KB to send, past the limit once decoded.
    const side = Math.ceil(Math.sqrt(PROFILE_PHOTO_MAX_PIXELS)) + 1
    const plain = await picture('png', side, side)
    expect(plain.length).toBeLessThan(IMAGE_MAX_BYTES)
    const avatars = () => fs.readdirSync(path.join(root, 'uploads', 'avatars'))
    const before = avatars()
    expect(
      await storeProfilePhoto({ bytes: plain }, { storage }).catch((error: unknown) => error),
    ).toMatchObject({ message: IMAGE_MESSAGES.invalidType, status: 415 })
    expect(avatars()).toEqual(before)
    // Product images keep their own, larger bound.
    expect(await storeProductImage({ bytes: plain }, { storage })).toMatchObject({
      width: 2400,
      height: 2400,
    })
  })
})

describe('reading an upload request within the limit', () => {
  it('refuses a declared Content-Length above the limit before reading anything', async () => {
    const request = new Request('http://shop.test/admin/api/uploads', {
      method: 'POST',
      headers: { 'Content-Length': String(10 * 1024 * 1024) },
      body: 'x',
    })
    await expect(readLimitedBody(request)).rejects.toMatchObject({
      message: IMAGE_MESSAGES.tooLarge,
      status: 413,
    })
  })

  it('counts a streamed body and stops past the limit', async () => {
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1024 * 1024
        controller.enqueue(new Uint8Array(1024 * 1024))
        if (sent > 20 * 1024 * 1024) controller.close()
      },
    })
    const request = new Request('http://shop.test/x', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit)
    await expect(readLimitedBody(request)).rejects.toMatchObject({ status: 413 })
    expect(sent).toBeLessThan(10 * 1024 * 1024)
  })

  it('reads a multipart form with a file', async () => {
    const form = new FormData()
    form.append('file', new Blob([Buffer.from('abc')], { type: 'image/png' }), 'a.png')
    const request = new Request('http://shop.test/x', { method: 'POST', body: form })
    const parsed = await readLimitedFormData(request)
    expect(await (parsed.get('file') as File).text()).toBe('abc')
  })
})

describe('image URLs back to storage keys', () => {
  it('accepts the URLs the app gave out, and nothing outside our storage', () => {
    const options = { storage, publicUrl: 'https://shop.example.in' }
    expect(keyFromImageUrl('products/1_ab.png', options)).toBe('products/1_ab.png')
    expect(keyFromImageUrl('/images/products/1_ab.png?w=640&v=abc', options)).toBe(
      'products/1_ab.png',
    )
    expect(keyFromImageUrl('/uploads/products/1_ab.png', options)).toBe('products/1_ab.png')
    expect(keyFromImageUrl('https://shop.example.in/images/products/1_ab.png?w=320', options)).toBe(
      'products/1_ab.png',
    )
    for (const outside of [
      '',
      'https://evil.example.com/images/products/1_ab.png',
      '/images/../secret',
      '/uploads/products/../../keybazaar.db',
      'products/../../secret',
      '/images/other/1.png',
      'file:///etc/passwd',
    ]) {
      expect(keyFromImageUrl(outside, options), outside).toBeNull()
    }
  })
})

describe('copyProductImage', () => {
  it('copies a stored image to a new key and leaves other images as they are', async () => {
    const stored = await storeProductImage({ bytes: await picture('png', 20, 20) }, { storage })
    const copy = await copyProductImage(storage, stored.key)
    expect(copy).not.toBe(stored.key)
    expect(copy).toMatch(/^products\/\d+_[0-9a-f]{12}\.png$/)
    expect(await storage.read(copy)).toEqual(await storage.read(stored.key))
    expect(await copyProductImage(storage, 'https://cdn.example.in/a.png')).toBe(
      'https://cdn.example.in/a.png',
    )
    expect(await copyProductImage(storage, 'products/missing.png')).toBe('products/missing.png')
  })
})
