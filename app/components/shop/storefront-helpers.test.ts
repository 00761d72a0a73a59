import { describe, expect, it } from 'vitest'
import { metaDescription, seoMeta } from './seo'
import { showsPublicHeader } from './site-header'
import { productQuestionMessage, supportMessage, whatsappLink } from '~/lib/whatsapp'

describe('WhatsApp links', () => {
  it('links to wa.me with the number as digits and a prefilled message', () => {
    const link = whatsappLink('+91 98765-43210', supportMessage('KeyBazaar'))
    expect(link).toBe(
      `https://wa.me/919876543210?text=${encodeURIComponent('Hi KeyBazaar, I need help choosing a subscription. Can you help me?')}`,
    )
  })

  it('names the product and its link when asking about a product', () => {
    const link = whatsappLink(
      '919876543210',
      productQuestionMessage('KeyBazaar', 'VPN 2 Years', 'https://shop.in/product/vpn'),
    )
    expect(new URL(link!).searchParams.get('text')).toBe(
      'Hi KeyBazaar, I have a question about "VPN 2 Years" (https://shop.in/product/vpn).',
    )
  })

  it('gives no link without a number', () => {
    expect(whatsappLink('', 'hello')).toBeNull()
  })
})

describe('public header', () => {
  it('is absent on paths starting with /dashboard or /admin only', () => {
    expect(showsPublicHeader('/')).toBe(true)
    expect(showsPublicHeader('/product/x')).toBe(true)
    expect(showsPublicHeader('/dashboard')).toBe(false)
    expect(showsPublicHeader('/dashboard/orders')).toBe(false)
    expect(showsPublicHeader('/admin')).toBe(false)
    expect(showsPublicHeader('/admin/products/new')).toBe(false)
  })
})

describe('page metadata', () => {
  it('shortens a description to 160 characters on a word boundary', () => {
    const text = 'word '.repeat(60)
    const short = metaDescription(text)
    expect(short.length).toBeLessThanOrEqual(160)
    expect(short.endsWith('word…')).toBe(true)
    expect(metaDescription('  short   text ')).toBe('short text')
  })

  it('writes canonical, Open Graph and Twitter tags with the absolute image', () => {
    const tags = seoMeta({
      title: 'T',
      description: 'D',
      siteName: 'S',
      canonicalUrl: 'https://shop.in/product/x',
      imageUrl: 'https://shop.in/images/x.webp?w=1200&f=jpeg&v=1',
      keywords: ['a', 'b'],
      type: 'product',
    })
    expect(tags).toContainEqual({
      tagName: 'link',
      rel: 'canonical',
      href: 'https://shop.in/product/x',
    })
    expect(tags).toContainEqual({
      property: 'og:image',
      content: 'https://shop.in/images/x.webp?w=1200&f=jpeg&v=1',
    })
    expect(tags).toContainEqual({ name: 'twitter:card', content: 'summary_large_image' })
    expect(tags).toContainEqual({ name: 'keywords', content: 'a, b' })
    expect(tags).toContainEqual({ property: 'og:type', content: 'product' })
  })
})
