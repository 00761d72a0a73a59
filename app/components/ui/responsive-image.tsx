import {
  IMAGE_ASPECT,
  imageSources,
  LARGEST_IMAGE_WIDTH,
  type ImageRef,
  type ImageWidth,
} from '~/lib/images'

/**
 * A product image in a 4:3 frame: WebP variants with srcset, explicit width and height (no
 * layout shift), lazy unless it is above the fold (`priority`).
 */
export function ResponsiveImage({
  image,
  alt,
  sizes,
  maxWidth = LARGEST_IMAGE_WIDTH,
  priority = false,
  className = '',
}: {
  image: ImageRef | null
  alt: string
  /** The rendered width, as the sizes attribute states it. */
  sizes: string
  maxWidth?: ImageWidth
  priority?: boolean
  className?: string
}) {
  if (!image) {
    return (
      <div
        aria-hidden="true"
        className={`aspect-[4/3] w-full bg-gradient-to-br from-brand-100 to-brand-200 dark:from-brand-900 dark:to-brand-950 ${className}`}
      />
    )
  }
  const { src, srcSet } = imageSources(image, maxWidth)
  return (
    <img
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      width={maxWidth}
      height={Math.round((maxWidth * IMAGE_ASPECT.height) / IMAGE_ASPECT.width)}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      decoding={priority ? 'sync' : 'async'}
      className={`aspect-[4/3] w-full object-cover ${className}`}
    />
  )
}
