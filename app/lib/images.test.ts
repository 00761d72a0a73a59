import { describe, expect, it } from 'vitest'
import { imageHeightFor, imageSources, imageVariantUrl } from './images'

describe('image URLs', () => {
  const stored = { src: '/images/products/a.webp', v: 'abc123' }

  it('builds one URL per variant with the width and the version', () => {
    expect(imageVariantUrl(stored, 640)).toBe('/images/products/a.webp?w=640&v=abc123')
    expect(imageVariantUrl(stored, 1200, 'jpeg')).toBe(
      '/images/products/a.webp?w=1200&f=jpeg&v=abc123',
    )
  })

  it('offers every width up to the largest the layout uses', () => {
    const { src, srcSet } = imageSources(stored, 640)
    expect(src).toBe('/images/products/a.webp?w=640&v=abc123')
    expect(srcSet).toBe(
      '/images/products/a.webp?w=320&v=abc123 320w, /images/products/a.webp?w=640&v=abc123 640w',
    )
  })

  it('shows an image hosted elsewhere as it is, without a srcset', () => {
    expect(imageSources({ src: 'https://cdn.example/x.png' })).toEqual({
      src: 'https://cdn.example/x.png',
    })
    expect(imageVariantUrl({ src: 'https://cdn.example/x.png' }, 320)).toBe(
      'https://cdn.example/x.png',
    )
  })

  it('keeps every variant at 4:3', () => {
    expect(imageHeightFor(1200)).toBe(900)
    expect(imageHeightFor(320)).toBe(240)
  })
})
