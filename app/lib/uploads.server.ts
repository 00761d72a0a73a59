import crypto from 'node:crypto'
import path from 'node:path'
import sharp from 'sharp'
import { services } from './app-context.server'
import { FORM_MESSAGES, formHasNul } from './form-data.server'
import { IMAGE_WIDTHS, IMAGES_PATH_PREFIX } from './images'
import type { ImageService } from './images.server'
import { UPLOADS_URL_PREFIX, type Storage } from './storage.server'
import {
  detectImageType,
  IMAGE_MAX_BYTES,
  IMAGE_MESSAGES,
  IMAGE_TYPE_EXTENSION,
  IMAGE_TYPE_MIME,
  isProductImageKey,
  type ImageType,
} from './validation/product'

/**
 * Product image uploads. The file's type is judged by its first
 * bytes, not its name; it is decoded and re-encoded with sharp (metadata such as EXIF and GPS
 * dropped, orientation applied), so only pixels are ever served; it is stored at
 * products/{timestamp}_{random}.{extension}; and the storefront's WebP widths are made at once
 * through the image service (images.server.ts), so the first visitor does not wait for them.
 */
export class UploadError extends Error {
  override name = 'UploadError'
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

/** Room for the multipart envelope around a 5 MB file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024
/** Refuse decompression bombs (the same bound as images.server.ts). */
const MAX_INPUT_PIXELS = 50_000_000
/** The stored original is at most this wide or tall; the storefront's largest variant is 1200. */
const MAX_STORED_SIDE = 2400

/**
 * The request body, refusing more than a 5 MB file can need before reading it all
 * (Content-Length first; then counted as it streams, for chunked bodies).
 */
export async function readLimitedBody(
  request: Request,
  maxBytes = IMAGE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? 'NaN')
  if (Number.isFinite(declared) && declared > maxBytes)
    throw new UploadError(IMAGE_MESSAGES.tooLarge, 413)
  if (!request.body) return Buffer.alloc(0)
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      throw new UploadError(IMAGE_MESSAGES.tooLarge, 413)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/** A form body (multipart or urlencoded) read within the upload limit. */
export async function readLimitedFormData(request: Request, maxBytes?: number): Promise<FormData> {
  const body = await readLimitedBody(request, maxBytes)
  let form: FormData
  try {
    form = await new Response(new Uint8Array(body), {
      headers: { 'Content-Type': request.headers.get('content-type') ?? '' },
    }).formData()
  } catch {
    throw new UploadError(IMAGE_MESSAGES.invalidType, 400)
  }
  if (formHasNul(form)) throw new UploadError(FORM_MESSAGES.nul, 400)
  return form
}

export function newImageKey(type: ImageType, now: Date = new Date()): string {
  return `products/${now.getTime()}_${crypto.randomBytes(6).toString('hex')}.${IMAGE_TYPE_EXTENSION[type]}`
}

/**
 * Decodes and re-encodes with no metadata; refuses what sharp cannot read. By default in the
 * same format, at most MAX_STORED_SIDE wide or tall; `square` makes a WebP of that side,
 * cropped to the middle (profile photos). `maxPixels` refuses pictures of more pixels than that
 * before decoding them (MAX_INPUT_PIXELS by default).
 */
export async function reencodeImage(
  bytes: Buffer,
  type: ImageType,
  options: { square?: number; maxPixels?: number } = {},
): Promise<{ body: Buffer; width: number; height: number }> {
  try {
    const input = sharp(bytes, {
      failOn: 'error',
      limitInputPixels: options.maxPixels ?? MAX_INPUT_PIXELS,
    })
    const metadata = await input.metadata()
    // The bytes said one thing; the decoder must agree (a PNG header on a JPEG body is refused).
    if (metadata.format !== type) throw new Error(`decoded as ${metadata.format}`)
    let pipeline = input.rotate().resize(
      options.square
        ? { width: options.square, height: options.square, fit: 'cover' }
        : {
            width: MAX_STORED_SIDE,
            height: MAX_STORED_SIDE,
            fit: 'inside',
            withoutEnlargement: true,
          },
    )
    pipeline = options.square
      ? pipeline.webp({ quality: 82 })
      : type === 'jpeg'
        ? pipeline.jpeg({ quality: 88, mozjpeg: true })
        : type === 'png'
          ? pipeline.png({ compressionLevel: 9 })
          : pipeline.webp({ quality: 88 })
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true })
    return { body: data, width: info.width, height: info.height }
  } catch {
    throw new UploadError(IMAGE_MESSAGES.invalidType, 415)
  }
}

export interface StoredImage {
  /** The storage key, for the product's image field. */
  key: string
  /** A preview for the form (/images/<key>, WebP). */
  previewUrl: string
  width: number
  height: number
}

/** Checks, re-encodes and stores one uploaded image, and makes its WebP variants. */
export async function storeProductImage(
  file: { bytes: Buffer },
  deps: { storage: Storage; images?: ImageService; now?: Date },
): Promise<StoredImage> {
  // The server goes by the bytes alone: a browser's declared type and the name prove nothing.
  const type = detectImageType(file.bytes)
  if (!type) throw new UploadError(IMAGE_MESSAGES.invalidType, 415)
  if (file.bytes.length > IMAGE_MAX_BYTES) throw new UploadError(IMAGE_MESSAGES.tooLarge, 413)
  const { body, width, height } = await reencodeImage(file.bytes, type)
  const key = newImageKey(type, deps.now)
  await deps.storage.put(key, body, IMAGE_TYPE_MIME[type])
  if (deps.images) {
    for (const size of IMAGE_WIDTHS) {
      // Made lazily on first request anyway; a failure here must not fail the upload.
      await deps.images.variant(key, size, 'webp').catch((error: unknown) => {
        console.error(`[uploads] could not prepare ${key} at ${size}px:`, error)
      })
    }
  }
  return { key, previewUrl: `${IMAGES_PATH_PREFIX}${key}?w=640`, width, height }
}

/** Profile photos are stored as square WebP images of this side (shown at 32 to 96 px). */
export const PROFILE_PHOTO_SIDE = 256
/**
 * The most pixels a profile photo may have: a 256 px square needs far fewer, and a phone's
 * photo has about 12 million. Decoding a larger picture only costs the server time and memory.
 */
export const PROFILE_PHOTO_MAX_PIXELS = 25_000_000
const PROFILE_PHOTO_KEY = /^avatars\/[0-9]+_[0-9a-f]{12}\.webp$/

/**
 * Checks, re-encodes and stores a profile photo (the same checks as product images: judged by
 * its bytes, decoded and re-encoded without metadata, but at most PROFILE_PHOTO_MAX_PIXELS) as a
 * square WebP at avatars/<...>.webp.
 * Returns the storage key and the URL the profile keeps.
 */
export async function storeProfilePhoto(
  file: { bytes: Buffer },
  deps: { storage: Storage; now?: Date },
): Promise<{ key: string; url: string }> {
  const type = detectImageType(file.bytes)
  if (!type) throw new UploadError(IMAGE_MESSAGES.invalidType, 415)
  if (file.bytes.length > IMAGE_MAX_BYTES) throw new UploadError(IMAGE_MESSAGES.tooLarge, 413)
  const { body } = await reencodeImage(file.bytes, type, {
    square: PROFILE_PHOTO_SIDE,
    maxPixels: PROFILE_PHOTO_MAX_PIXELS,
  })
  const now = deps.now ?? new Date()
  const key = `avatars/${now.getTime()}_${crypto.randomBytes(6).toString('hex')}.webp`
  await deps.storage.put(key, body, 'image/webp')
  return { key, url: deps.storage.url(key) }
}

/** The storage key of a profile photo URL we stored, or null (a Google photo, say). */
export function profilePhotoKey(url: string | null, storage: Storage): string | null {
  if (!url) return null
  const match = /avatars\/[^/?#]+$/.exec(url)?.[0]
  return match && PROFILE_PHOTO_KEY.test(match) && storage.url(match) === url ? match : null
}

/**
 * The storage key behind an image URL the app gave out (/images/<key>?..., /uploads/<key>, the
 * storage's own URL for it, or the bare key), or null for anything outside our storage.
 */
export function keyFromImageUrl(
  value: string,
  options: { storage: Storage; publicUrl?: string },
): string | null {
  let text = value.trim()
  if (!text) return null
  if (options.publicUrl && text.startsWith(`${options.publicUrl}/`))
    text = text.slice(options.publicUrl.length)
  let candidate: string | null = null
  if (isProductImageKey(text)) candidate = text
  else {
    const withoutQuery = text.split(/[?#]/)[0] ?? ''
    for (const prefix of [IMAGES_PATH_PREFIX, UPLOADS_URL_PREFIX]) {
      if (withoutQuery.startsWith(prefix))
        candidate = decodeURIComponentSafe(withoutQuery.slice(prefix.length))
    }
    if (!candidate) {
      // The storage's own URL for a key (an S3 public URL), matched by building it again.
      const match = /^https?:\/\/[^?#]+/.exec(text)?.[0]
      const key = match?.split('/products/')[1]
      if (key && options.storage.url(`products/${key}`) === match)
        candidate = `products/${decodeURIComponentSafe(key)}`
    }
  }
  return candidate && isProductImageKey(candidate) ? candidate : null
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return ''
  }
}

/** A stored copy of a product's image under a new key (for duplicates); others are kept as they are. */
export async function copyProductImage(storage: Storage, image: string): Promise<string> {
  if (!isProductImageKey(image) || !(await storage.exists(image))) return image
  const bytes = await storage.read(image)
  const type = detectImageType(bytes)
  if (!type) return image
  const key = newImageKey(type)
  await storage.put(key, bytes, IMAGE_TYPE_MIME[type])
  return key
}

/** Where the image service keeps its variants (see images.server.ts's imageService). */
export function imageCacheDir(): string {
  return path.join(services().env.DATA_DIR, 'cache', 'images')
}
