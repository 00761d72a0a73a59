/**
 * Image URLs as the browser sees them (client-safe; the server side is images.server.ts).
 * Stored images are served from /images/<storage key> as WebP at a few fixed widths, always
 * cropped to 4:3, with a version parameter that changes when the file changes.
 */
export const IMAGE_WIDTHS = [320, 640, 960, 1200] as const
export type ImageWidth = (typeof IMAGE_WIDTHS)[number]
export const LARGEST_IMAGE_WIDTH: ImageWidth = 1200
/** Every variant is cropped to this shape, so width and height attributes are always right. */
export const IMAGE_ASPECT = { width: 4, height: 3 } as const
export const IMAGES_PATH_PREFIX = '/images/'

/**
 * What a page needs to show an image: `src` is /images/<key> for stored images (resizable,
 * `v` is the version) or an absolute URL for an image hosted elsewhere (shown as it is).
 */
export interface ImageRef {
  src: string
  v?: string
}

export function isResizable(image: ImageRef): boolean {
  return image.src.startsWith(IMAGES_PATH_PREFIX)
}

export function imageHeightFor(width: number): number {
  return Math.round((width * IMAGE_ASPECT.height) / IMAGE_ASPECT.width)
}

/** The URL of one variant; query order is fixed so the same variant always has the same URL. */
export function imageVariantUrl(
  image: ImageRef,
  width: ImageWidth,
  format: 'webp' | 'jpeg' = 'webp',
): string {
  if (!isResizable(image)) return image.src
  const params = new URLSearchParams({ w: String(width) })
  if (format !== 'webp') params.set('f', format)
  if (image.v) params.set('v', image.v)
  return `${image.src}?${params.toString()}`
}

/** src and srcSet for an <img>, up to `maxWidth` (no larger variant than the layout can use). */
export function imageSources(
  image: ImageRef,
  maxWidth: ImageWidth = LARGEST_IMAGE_WIDTH,
): { src: string; srcSet?: string } {
  if (!isResizable(image)) return { src: image.src }
  const widths = IMAGE_WIDTHS.filter((width) => width <= maxWidth)
  return {
    src: imageVariantUrl(image, maxWidth),
    srcSet: widths.map((width) => `${imageVariantUrl(image, width)} ${width}w`).join(', '),
  }
}
