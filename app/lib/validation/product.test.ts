import { describe, expect, it } from 'vitest'
import { discountPercent } from '~/lib/money'
import { slugify } from '~/lib/slug'
import {
  addFeature,
  checkImageFile,
  cleanFeatures,
  deleteConfirmation,
  deliveryFromForm,
  detectImageType,
  discountFromInputs,
  duplicatedMessage,
  openSalesMessage,
  IMAGE_MAX_BYTES,
  IMAGE_MESSAGES,
  paiseToInput,
  parseCommaList,
  parsePriceInput,
  PRODUCT_MESSAGES,
  productFormSchema,
  SHARED_SECRET_MAX_LENGTH,
  type ProductFormOptions,
} from './product'
import { constraintsOf, parseSubmission } from './submission'

const CATEGORIES = ['Streaming', 'Software', 'WordPress Themes']

/** The form's fields as text, features as one input per item. */
type ProductFormValues = Record<string, string | string[]>

/**
 * Checks the values as the action does: sent as a form, read by Conform with the shared
 * schema; the first message per field.
 */
function parseProductForm(values: ProductFormValues, options: ProductFormOptions = {}) {
  const form = new FormData()
  for (const [name, value] of Object.entries(values)) {
    for (const item of [value].flat()) form.append(name, item)
  }
  const submission = parseSubmission(form, productFormSchema(CATEGORIES, options))
  if (submission.status === 'success') return { data: submission.value, errors: null }
  const errors: Record<string, string> = {}
  for (const [name, messages] of Object.entries(submission.error ?? {})) {
    if (messages?.[0]) errors[name] = messages[0]
  }
  return { data: null, errors }
}

/** A form that passes, as the browser would send it. */
function valid(overrides: ProductFormValues = {}): ProductFormValues {
  return {
    title: 'StreamMax Premium 12 Months',
    slug: '',
    description: 'Every show in 4K.',
    shortDescription: 'Premium streaming for a year.',
    category: 'Streaming',
    tags: '4K, family',
    price: '499',
    originalPrice: '999',
    image: 'products/1715000000000_ab12cd34ef56.png',
    buyNowLink: '',
    metaTitle: '',
    metaDescription: '',
    keywords: '',
    inStock: 'on',
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    features: ['4K', 'Four screens'],
    deliveryMode: 'stock',
    ...overrides,
  }
}

const errorsOf = (values: ProductFormValues) => {
  const result = parseProductForm(values)
  return result.errors ?? {}
}

describe('slug', () => {
  it('lowercases, turns runs of non-alphanumerics into one hyphen and trims hyphens', () => {
    expect(slugify('  StreamMax: Premium -- 12 Months!! ')).toBe('streammax-premium-12-months')
    expect(slugify('Ünïcode & more')).toBe('n-code-more')
    expect(slugify('---')).toBe('')
  })

  it('follows the title unless a slug is given, which is normalised the same way', () => {
    expect(parseProductForm(valid()).data?.slug).toBe('streammax-premium-12-months')
    expect(parseProductForm(valid({ slug: 'My Custom  Slug' })).data?.slug).toBe('my-custom-slug')
  })

  it('refuses a title or slug with no letters or digits', () => {
    expect(errorsOf(valid({ title: 'हिंदी', slug: '' })).slug).toBe(PRODUCT_MESSAGES.slugRequired)
  })
})

describe('discount', () => {
  it('is the rounded percent of (original - price) / original, recomputed from the typed prices', () => {
    expect(discountFromInputs('499', '999')).toBe(50)
    expect(discountFromInputs('1499', '5988')).toBe(75)
    expect(discountFromInputs('666.67', '1000')).toBe(33)
    expect(discountPercent(49_900, 99_900)).toBe(50)
  })

  it('is 0 until both prices are valid amounts above 0', () => {
    expect(discountFromInputs('', '999')).toBe(0)
    expect(discountFromInputs('499', '0')).toBe(0)
    expect(discountFromInputs('abc', '999')).toBe(0)
  })
})

describe('prices in rupees become exact paise', () => {
  it('parses whole rupees and up to two decimals without floating point', () => {
    expect(parsePriceInput('499')).toEqual({ paise: 49_900 })
    expect(parsePriceInput('499.5')).toEqual({ paise: 49_950 })
    expect(parsePriceInput(' 0.29 ')).toEqual({ paise: 29 })
    expect(parsePriceInput('1,499.99')).toEqual({ paise: 149_999 })
    expect(parseProductForm(valid({ price: '0.1', originalPrice: '0.3' })).data).toMatchObject({
      price: 10,
      originalPrice: 30,
    })
  })

  it('says why an amount is refused', () => {
    expect(parsePriceInput('')).toEqual({ error: 'required' })
    expect(parsePriceInput('0')).toEqual({ error: 'required' })
    expect(parsePriceInput('0.00')).toEqual({ error: 'required' })
    expect(parsePriceInput('-5')).toEqual({ error: 'required' })
    expect(parsePriceInput('4.999')).toEqual({ error: 'invalid' })
    expect(parsePriceInput('1e3')).toEqual({ error: 'invalid' })
    expect(parsePriceInput('10000001')).toEqual({ error: 'tooHigh' })
  })

  it('refuses an original price below the price, naming the original price; the same is no discount', () => {
    expect(errorsOf(valid({ price: '1999', originalPrice: '999' }))).toEqual({
      originalPrice: PRODUCT_MESSAGES.originalPriceBelowPrice,
    })
    expect(parseProductForm(valid({ price: '999', originalPrice: '999' })).data).toMatchObject({
      price: 99_900,
      originalPrice: 99_900,
    })
    // Paise count: ₹499.50 against ₹499.49 is still below.
    expect(errorsOf(valid({ price: '499.50', originalPrice: '499.49' }))).toEqual({
      originalPrice: PRODUCT_MESSAGES.originalPriceBelowPrice,
    })
    // An invalid amount says so, not that it is below the other.
    expect(errorsOf(valid({ price: '1999', originalPrice: '' }))).toEqual({
      originalPrice: PRODUCT_MESSAGES.originalPriceRequired,
    })
  })

  it('shows paise back as the form typed them', () => {
    expect(paiseToInput(49_900)).toBe('499')
    expect(paiseToInput(49_950)).toBe('499.50')
    expect(paiseToInput(5)).toBe('0.05')
  })
})

describe('tags and keywords as comma text', () => {
  it('splits on commas, trims, drops blanks and repeats', () => {
    expect(parseCommaList(' 4K ,, family,  , no ads,4k ')).toEqual(['4K', 'family', 'no ads'])
    expect(parseCommaList('   ')).toEqual([])
    const data = parseProductForm(valid({ tags: 'a, b ,', keywords: ' x ,y,, ' })).data
    expect(data).toMatchObject({ tags: ['a', 'b'], keywords: ['x', 'y'] })
  })
})

describe('features list', () => {
  it('adds a typed feature trimmed, ignores an empty one, and drops emptied items on submit', () => {
    expect(addFeature(['One'], '  Two  ')).toEqual(['One', 'Two'])
    expect(addFeature(['One'], '   ')).toEqual(['One'])
    expect(cleanFeatures([' One ', '', '  ', 'Two'])).toEqual(['One', 'Two'])
    expect(parseProductForm(valid({ features: [' a ', ' '] })).data?.features).toEqual(['a'])
  })

  it('reads one input per feature from the submitted form, a single one too', () => {
    expect(parseProductForm(valid({ features: ['One', 'Two'] })).data?.features).toEqual([
      'One',
      'Two',
    ])
    expect(parseProductForm(valid({ features: 'Only' })).data?.features).toEqual(['Only'])
    expect(parseProductForm(valid({ features: [] })).data?.features).toEqual([])
  })

  it('reports list limits on the list itself, so the field that holds it shows them', () => {
    expect(errorsOf(valid({ features: ['ok', 'x'.repeat(201)] }))).toEqual({
      features: PRODUCT_MESSAGES.featureTooLong,
    })
    expect(errorsOf(valid({ features: Array.from({ length: 31 }, (_, i) => `F${i}`) }))).toEqual({
      features: PRODUCT_MESSAGES.featuresTooMany,
    })
    expect(errorsOf(valid({ tags: `ok, ${'t'.repeat(51)}` }))).toEqual({
      tags: PRODUCT_MESSAGES.tagTooLong,
    })
    expect(
      errorsOf(valid({ keywords: Array.from({ length: 31 }, (_, i) => `k${i}`).join(',') })),
    ).toEqual({
      keywords: PRODUCT_MESSAGES.keywordsTooMany,
    })
  })
})

describe('image type by content, never by name', () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
  const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1])
  const webp = new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ')
  const text = new TextEncoder().encode('hello, I am text')

  it('recognises JPEG, PNG and WebP signatures and nothing else', () => {
    expect(detectImageType(png)).toBe('png')
    expect(detectImageType(jpeg)).toBe('jpeg')
    expect(detectImageType(webp)).toBe('webp')
    expect(detectImageType(text)).toBeNull()
    expect(
      detectImageType(new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WAVEfmt ')),
    ).toBeNull()
    expect(detectImageType(new TextEncoder().encode('GIF89a......'))).toBeNull()
    expect(detectImageType(new Uint8Array())).toBeNull()
  })

  it('checks the type first, then the size (5 MB = 5,242,880 bytes is allowed, one byte more is not)', () => {
    expect(checkImageFile({ name: 'photo.png', type: 'image/png', size: 1000 }, png)).toBeNull()
    expect(checkImageFile({ name: 'photo.JPG', type: '', size: 1000 }, jpeg)).toBeNull()
    expect(checkImageFile({ name: 'notes.png', type: 'image/png', size: 16 }, text)).toBe(
      IMAGE_MESSAGES.invalidType,
    )
    expect(checkImageFile({ name: 'anim.gif', type: 'image/gif', size: 16 }, png)).toBe(
      IMAGE_MESSAGES.invalidType,
    )
    expect(
      checkImageFile({ name: 'big.png', type: 'image/png', size: IMAGE_MAX_BYTES }, png),
    ).toBeNull()
    expect(
      checkImageFile({ name: 'big.png', type: 'image/png', size: IMAGE_MAX_BYTES + 1 }, png),
    ).toBe(IMAGE_MESSAGES.tooLarge)
    expect(IMAGE_MESSAGES).toEqual({
      invalidType: 'Please select a valid image file (JPEG, PNG, WebP)',
      tooLarge: 'Image size should be less than 5MB',
      uploadFailed: 'Failed to upload image. Please try again.',
      invalidUrl: 'Invalid image URL',
    })
  })
})

describe('the product form schema', () => {
  it('turns a valid form into a product: paise, lists, booleans, null buy link', () => {
    const result = parseProductForm(valid())
    expect(result.errors).toBeNull()
    expect(result.data).toEqual({
      title: 'StreamMax Premium 12 Months',
      slug: 'streammax-premium-12-months',
      description: 'Every show in 4K.',
      shortDescription: 'Premium streaming for a year.',
      category: 'Streaming',
      tags: ['4K', 'family'],
      price: 49_900,
      originalPrice: 99_900,
      image: 'products/1715000000000_ab12cd34ef56.png',
      buyNowLink: null,
      metaTitle: '',
      metaDescription: '',
      keywords: [],
      inStock: true,
      featured: false,
      features: ['4K', 'Four screens'],
      validity: '12 months',
      deliveryTime: 'Instant delivery',
      deliveryMode: 'stock',
      sharedSecret: '',
      clearSharedSecret: false,
    })
  })

  it('requires title, description, short description, image, category and both prices; whitespace is empty', () => {
    const errors = errorsOf({
      title: '   ',
      description: ' \n ',
      shortDescription: '\t',
      image: ' ',
      category: ' ',
      price: ' ',
      originalPrice: '0',
      features: [],
    })
    expect(errors).toMatchObject({
      title: 'Title is required',
      description: 'Description is required',
      shortDescription: 'Short description is required',
      image: 'Product image is required',
      category: 'Category is required',
      price: 'Price must be greater than 0',
      originalPrice: 'Original price must be greater than 0',
    })
  })

  it('takes an optional buy now link, which must be an http(s) URL', () => {
    expect(parseProductForm(valid({ buyNowLink: '  ' })).data?.buyNowLink).toBeNull()
    expect(
      parseProductForm(valid({ buyNowLink: 'https://shop.example.in/buy?x=1' })).data?.buyNowLink,
    ).toBe('https://shop.example.in/buy?x=1')
    for (const bad of ['not a url', 'javascript:alert(1)', 'ftp://example.in/file', 'https://']) {
      expect(errorsOf(valid({ buyNowLink: bad })).buyNowLink, bad).toBe(
        PRODUCT_MESSAGES.buyNowLinkInvalid,
      )
    }
  })

  it('accepts only a known category', () => {
    expect(errorsOf(valid({ category: 'Cooking' })).category).toBe(PRODUCT_MESSAGES.categoryUnknown)
    expect(parseProductForm(valid({ category: 'WordPress Themes' })).data?.category).toBe(
      'WordPress Themes',
    )
  })

  it('accepts a stored image key or an absolute image URL, nothing else', () => {
    expect(parseProductForm(valid({ image: 'https://cdn.example.in/a.webp' })).errors).toBeNull()
    expect(parseProductForm(valid({ image: 'products/demo_streamverse.webp' })).errors).toBeNull()
    for (const bad of ['../secret', 'products/../x.png', 'uploads/x.png', 'javascript:alert(1)']) {
      expect(errorsOf(valid({ image: bad })).image, bad).toBe(IMAGE_MESSAGES.invalidUrl)
    }
  })

  it('counts meta title and description only as advice: longer ones are kept whole', () => {
    const metaTitle = 'T'.repeat(61)
    const metaDescription = 'D'.repeat(161)
    expect(parseProductForm(valid({ metaTitle, metaDescription })).data).toMatchObject({
      metaTitle,
      metaDescription,
    })
  })

  it('reads checkboxes as the browser sends them (on, or absent)', () => {
    expect(parseProductForm(valid({ inStock: 'on', featured: 'on' })).data).toMatchObject({
      inStock: true,
      featured: true,
    })
    const { inStock: _inStock, ...withoutStock } = valid()
    expect(parseProductForm(withoutStock).data).toMatchObject({
      inStock: false,
      featured: false,
    })
  })

  it('has the spec messages for outcomes, delete and duplicate', () => {
    expect(deleteConfirmation('CineNova')).toBe(
      'Are you sure you want to delete "CineNova"? This action cannot be undone.',
    )
    expect(duplicatedMessage('CineNova')).toBe('"CineNova" duplicated successfully!')
    expect(PRODUCT_MESSAGES).toMatchObject({
      created: 'Product created successfully!',
      createFailed: 'Failed to create product. Please try again.',
      updated: 'Product updated successfully!',
      updateFailed: 'Failed to update product. Please try again.',
      updateError: 'An error occurred while updating the product.',
      loading: 'Loading product...',
      idMissing: 'Product ID not found',
      notFound: 'Product not found',
      deleted: 'Product deleted successfully!',
      deleteFailed: 'Failed to delete product. Please try again.',
      deleteGone: 'This product no longer exists: it may have been deleted by another admin.',
      duplicateFailed: 'Failed to duplicate product. Please try again.',
      duplicateSourceMissing: 'Original product not found',
      noProducts: 'No Products Found',
    })
  })

  it('names the reviews a delete takes with the product, when it has any', () => {
    expect(deleteConfirmation('CineNova', 0)).toBe(deleteConfirmation('CineNova'))
    expect(deleteConfirmation('CineNova', 1)).toBe(
      'Are you sure you want to delete "CineNova"? Its 1 review is deleted with it. This action cannot be undone.',
    )
    expect(deleteConfirmation('CineNova', 1_200)).toBe(
      'Are you sure you want to delete "CineNova"? Its 1,200 reviews are deleted with it. This action cannot be undone.',
    )
  })
})

describe('delivery', () => {
  const delivery = (values: ProductFormValues, hasSavedSharedSecret = false) => {
    const result = parseProductForm(valid(values), { hasSavedSharedSecret })
    return result.data ? deliveryFromForm(result.data) : result.errors
  }

  it('takes one of stock, shared or manual, and nothing else', () => {
    expect(delivery({ deliveryMode: 'stock' })).toEqual({ mode: 'stock' })
    expect(delivery({ deliveryMode: 'manual' })).toEqual({ mode: 'manual' })
    for (const deliveryMode of ['', 'free', 'STOCK']) {
      expect(errorsOf(valid({ deliveryMode })).deliveryMode).toBe(
        'Choose how this product is delivered',
      )
    }
    const { deliveryMode: _, ...missing } = valid()
    expect(errorsOf(missing).deliveryMode).toBe(PRODUCT_MESSAGES.deliveryModeRequired)
  })

  it('refuses a shared product without a secret, with the other errors at once', () => {
    const errors = errorsOf(valid({ title: '', deliveryMode: 'shared', sharedSecret: ' \n ' }))
    expect(errors).toMatchObject({
      title: 'Title is required',
      sharedSecret: 'Enter the shared secret: a shared product delivers it to every buyer',
    })
  })

  it('saves a typed shared secret trimmed at its ends, keeping its lines', () => {
    expect(
      delivery({ deliveryMode: 'shared', sharedSecret: '  family@example.in\nPass-1  ' }),
    ).toEqual({ mode: 'shared', sharedSecret: 'family@example.in\nPass-1' })
  })

  it('keeps a saved secret when the field is left empty, and refuses clearing it while shared', () => {
    expect(delivery({ deliveryMode: 'shared', sharedSecret: '' }, true)).toEqual({ mode: 'shared' })
    expect(
      delivery({ deliveryMode: 'shared', sharedSecret: '', clearSharedSecret: 'on' }, true),
    ).toEqual({ sharedSecret: PRODUCT_MESSAGES.sharedSecretRequired })
    // A new secret with "clear" ticked replaces the old one.
    expect(
      delivery({ deliveryMode: 'shared', sharedSecret: 'new', clearSharedSecret: 'on' }, true),
    ).toEqual({ mode: 'shared', sharedSecret: 'new' })
  })

  it('ignores the secret field of stock and manual products, but clears a saved secret when asked', () => {
    expect(delivery({ deliveryMode: 'stock', sharedSecret: 'typed then switched' })).toEqual({
      mode: 'stock',
    })
    expect(
      delivery({ deliveryMode: 'manual', sharedSecret: 'x'.repeat(SHARED_SECRET_MAX_LENGTH + 1) }),
    ).toEqual({ mode: 'manual' })
    expect(delivery({ deliveryMode: 'manual', clearSharedSecret: 'on' }, true)).toEqual({
      mode: 'manual',
      sharedSecret: null,
    })
  })

  it('limits the shared secret to 4,000 characters', () => {
    expect(
      delivery({ deliveryMode: 'shared', sharedSecret: 'x'.repeat(SHARED_SECRET_MAX_LENGTH) }),
    ).toMatchObject({ mode: 'shared' })
    expect(
      errorsOf(valid({ deliveryMode: 'shared', sharedSecret: 'x'.repeat(4_001) })).sharedSecret,
    ).toBe('The shared secret must be at most 4,000 characters')
  })
})

describe('the schema as the form reads it', () => {
  it('names every field of the form, so each can show its message', () => {
    expect(Object.keys(constraintsOf(productFormSchema([])))).toEqual([
      'title',
      'slug',
      'description',
      'shortDescription',
      'category',
      'tags',
      'price',
      'originalPrice',
      'image',
      'buyNowLink',
      'metaTitle',
      'metaDescription',
      'keywords',
      'inStock',
      'featured',
      'features',
      'validity',
      'deliveryTime',
      'deliveryMode',
      'sharedSecret',
      'clearSharedSecret',
    ])
  })
})

describe('why a product is not deleted', () => {
  it('names the open orders and unpaid payment links, in the singular or plural, and what releases them', () => {
    expect(openSalesMessage('VPN', { orders: 1, paymentLinks: 0 })).toBe(
      '"VPN" was not deleted: 1 order is still being paid or delivered. Try again once the order is delivered, refunded or expired.',
    )
    expect(openSalesMessage('VPN', { orders: 0, paymentLinks: 2 })).toBe(
      '"VPN" was not deleted: 2 payment links are not paid yet. Cancel the links on the Payment Links page (/admin/payment-links?status=active&q=VPN).',
    )
    expect(openSalesMessage('VPN', { orders: 3, paymentLinks: 1 })).toBe(
      '"VPN" was not deleted: 3 orders are still being paid or delivered and 1 payment link is not paid yet. Cancel the link on the Payment Links page (/admin/payment-links?status=active&q=VPN). Try again once the orders are delivered, refunded or expired.',
    )
  })

  it("names the Payment Links page filtered to the product's active links, its name encoded", () => {
    const message = openSalesMessage('Office 365 (1 year) & more', { orders: 0, paymentLinks: 1 })
    const path = /\((\/admin\/payment-links\?[^)\s]+)\)/.exec(message)?.[1]
    expect(path).toBeDefined()
    const url = new URL(path!, 'http://shop.test')
    expect(url.pathname).toBe('/admin/payment-links')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      status: 'active',
      q: 'Office 365 (1 year) & more',
    })
    // A name longer than the search box takes is cut to what the box would search for.
    const long = openSalesMessage('A'.repeat(150), { orders: 0, paymentLinks: 1 })
    const longPath = /\((\/admin\/payment-links\?[^)\s]+)\)/.exec(long)![1]!
    expect(new URL(longPath, 'http://shop.test').searchParams.get('q')).toBe('A'.repeat(100))
  })
})
