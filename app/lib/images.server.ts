import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { services } from './app-context.server'
import {
  IMAGE_WIDTHS,
  IMAGES_PATH_PREFIX,
  imageHeightFor,
  imageVariantUrl,
  LARGEST_IMAGE_WIDTH,
  type ImageRef,
  type ImageWidth,
} from './images'
import type { Storage } from './storage.server'

/**
 * Responsive product images. A stored image (a storage key such as products/x.webp) is served
 * at /images/<key>?w=<width>&v=<version> as WebP, cropped to 4:3 at one of IMAGE_WIDTHS.
 *
 * - The version is derived from the stored file's size and modification time, so it changes
 *   whenever the file is replaced, and costs one stat per image per page (no reads, no hashing).
 * - Variants are made once with sharp and cached on disk under DATA_DIR/cache/images/<key>/
 *   <version>/; an older version's folder is removed when a newer one is made.
 * - A request carrying the current version is cacheable for a year (immutable); one without it,
 *   or with an outdated one, gets the current image with a short cache and an ETag.
 */
export type ImageFormat = 'webp' | 'jpeg'

const CONTENT_TYPES: Record<ImageFormat, string> = { webp: 'image/webp', jpeg: 'image/jpeg' }
const SAFE_KEY = /^[a-z0-9][a-z0-9._/-]*$/i
/** Refuse decompression bombs: 5 MB uploads never need more pixels than this. */
const MAX_INPUT_PIXELS = 50_000_000

export function isSafeImageKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes('..') && !key.includes('//') && key.length <= 300
}

/** The product image field holds a storage key or an absolute URL. */
export function isExternalImage(image: string): boolean {
  return /^https?:\/\//i.test(image)
}

export function versionOf(stat: { size: number; modifiedMs: number }): string {
  return crypto
    .createHash('sha256')
    .update(`${stat.size}:${Math.round(stat.modifiedMs)}`)
    .digest('base64url')
    .slice(0, 10)
}

export interface ImageVariant {
  body: Buffer
  contentType: string
  version: string
}

export interface ImageService {
  /** What a page needs to show the image, or null when there is none (or the file is missing). */
  ref(image: string): Promise<ImageRef | null>
  /** The variant of a stored image; null when the image does not exist. */
  variant(key: string, width: ImageWidth, format: ImageFormat): Promise<ImageVariant | null>
}

export function createImageService(options: { storage: Storage; cacheDir: string }): ImageService {
  const { storage, cacheDir } = options
  // Concurrent requests for a variant that is not cached yet share one sharp run.
  const inFlight = new Map<string, Promise<Buffer>>()

  async function makeVariant(key: string, version: string, width: ImageWidth, format: ImageFormat) {
    const keyDir = path.join(cacheDir, key)
    const file = path.join(keyDir, version, `${width}.${format}`)
    try {
      return await fs.readFile(file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    const source = await storage.read(key)
    let pipeline = sharp(source, { failOn: 'none', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width, height: imageHeightFor(width), fit: 'cover', withoutEnlargement: true })
    pipeline =
      format === 'jpeg'
        ? pipeline.jpeg({ quality: 80, mozjpeg: true })
        : pipeline.webp({ quality: 72 })
    const body = await pipeline.toBuffer()

    await fs.mkdir(path.dirname(file), { recursive: true })
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`
    await fs.writeFile(temporary, body)
    await fs.rename(temporary, file)
    // Variants of an older version of this image are never asked for with their version again.
    const entries = await fs.readdir(keyDir).catch(() => [] as string[])
    await Promise.all(
      entries
        .filter((entry) => entry !== version)
        .map((entry) =>
          fs.rm(path.join(keyDir, entry), { recursive: true, force: true }).catch(() => {}),
        ),
    )
    return body
  }

  return {
    async ref(image) {
      if (!image) return null
      if (isExternalImage(image)) return { src: image }
      if (!isSafeImageKey(image)) return null
      try {
        const stat = await storage.stat(image)
        if (!stat) return null
        return { src: `${IMAGES_PATH_PREFIX}${image}`, v: versionOf(stat) }
      } catch (error) {
        // Storage unreachable (e.g. S3): show the page with placeholders rather than fail it.
        console.error(
          `[images] cannot read ${image}: ${error instanceof Error ? error.message : String(error)}`,
        )
        return null
      }
    },

    async variant(key, width, format) {
      if (!isSafeImageKey(key)) return null
      const stat = await storage.stat(key)
      if (!stat) return null
      const version = versionOf(stat)
      const id = `${key}\n${version}\n${width}\n${format}`
      let pending = inFlight.get(id)
      if (!pending) {
        pending = makeVariant(key, version, width, format).finally(() => inFlight.delete(id))
        inFlight.set(id, pending)
      }
      return { body: await pending, contentType: CONTENT_TYPES[format], version }
    },
  }
}

let current: { storage: Storage; service: ImageService } | undefined

/** The image service of the running app (cache under DATA_DIR/cache/images). */
export function imageService(): ImageService {
  const { storage, env } = services()
  if (current?.storage !== storage) {
    current = {
      storage,
      service: createImageService({
        storage,
        cacheDir: path.join(env.DATA_DIR, 'cache', 'images'),
      }),
    }
  }
  return current.service
}

/** Image refs for many images at once (one stat each, in parallel). */
export async function imageRefs(images: readonly string[]): Promise<(ImageRef | null)[]> {
  const service = imageService()
  return Promise.all(images.map((image) => service.ref(image)))
}

/** Absolute URL of the image for link previews (JPEG: every crawler reads it), or null. */
export function socialImageUrl(image: ImageRef | null, publicUrl: string): string | null {
  if (!image) return null
  const url = imageVariantUrl(image, LARGEST_IMAGE_WIDTH, 'jpeg')
  return isExternalImage(url) ? url : `${publicUrl}${url}`
}

function parseWidth(value: string | null): ImageWidth | null {
  if (value === null) return LARGEST_IMAGE_WIDTH
  return IMAGE_WIDTHS.find((width) => String(width) === value) ?? null
}

/** Answers GET /images/<key>?w=&f=&v= (the resource route calls this). */
export async function imageResponse(request: Request, key: string): Promise<Response> {
  const url = new URL(request.url)
  const width = parseWidth(url.searchParams.get('w'))
  const formatParam = url.searchParams.get('f') ?? 'webp'
  if (!width || (formatParam !== 'webp' && formatParam !== 'jpeg')) {
    return new Response(
      `Unsupported size or format; widths: ${IMAGE_WIDTHS.join(', ')}; formats: webp, jpeg`,
      {
        status: 400,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      },
    )
  }
  const variant = await imageService().variant(key, width, formatParam)
  if (!variant) {
    return new Response('Image not found', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  const etag = `"${variant.version}-${width}-${formatParam}"`
  const headers = new Headers({
    'Content-Type': variant.contentType,
    ETag: etag,
    'Cache-Control':
      url.searchParams.get('v') === variant.version
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=300, must-revalidate',
  })
  if (request.headers.get('If-None-Match') === etag)
    return new Response(null, { status: 304, headers })
  headers.set('Content-Length', String(variant.body.length))
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(variant.body), { headers })
}
