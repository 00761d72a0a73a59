import { expect, test } from '../helpers/fixtures'

/**
 * What crawlers and link previews (WhatsApp, search engines) read: plain HTTP, no JavaScript.
 */
function metaContent(
  html: string,
  attribute: 'name' | 'property',
  key: string,
): string | undefined {
  const tag = html.match(
    new RegExp(`<meta[^>]*${attribute}="${key.replace(/[.:]/g, '\\$&')}"[^>]*>`),
  )?.[0]
  return tag?.match(/content="([^"]*)"/)?.[1]?.replaceAll('&amp;', '&')
}

test('a product page carries its title, description, social tags, canonical link and JSON-LD in the HTML', async ({
  request,
  app,
}) => {
  const response = await request.get('/product/streamverse-premium-12-months')
  expect(response.status()).toBe(200)
  const html = await response.text()

  // metaTitle and metaDescription are preferred (the demo seed sets both).
  expect(html).toContain('<title>StreamVerse Premium 12 Months at 75% off</title>')
  expect(metaContent(html, 'name', 'description')).toBe(
    'Ad-free 4K movies and series on up to 4 screens for a full year.',
  )
  expect(metaContent(html, 'name', 'keywords')).toBe('streaming, movies, 4k')
  expect(metaContent(html, 'property', 'og:title')).toBe('StreamVerse Premium 12 Months at 75% off')
  expect(metaContent(html, 'property', 'og:type')).toBe('product')
  expect(metaContent(html, 'name', 'twitter:card')).toBe('summary_large_image')

  const canonical = html.match(/<link rel="canonical" href="([^"]+)"/)?.[1]
  expect(canonical).toBe(`${app.url}/product/streamverse-premium-12-months`)
  expect(metaContent(html, 'property', 'og:url')).toBe(canonical)

  const ogImage = metaContent(html, 'property', 'og:image')
  expect(ogImage).toMatch(
    new RegExp(
      `^${app.url.replace(/[.]/g, '\\.')}/images/products/demo_streamverse-premium-12-months\\.webp\\?w=1200&f=jpeg&v=\\S+$`,
    ),
  )
  expect(metaContent(html, 'name', 'twitter:image')).toBe(ogImage)
  const image = await request.get(ogImage!)
  expect(image.status()).toBe(200)
  expect(image.headers()['content-type']).toBe('image/jpeg')

  const jsonLd = html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)?.[1]
  const product = JSON.parse(jsonLd!) as Record<string, any>
  expect(product['@type']).toBe('Product')
  expect(product.name).toBe('StreamVerse Premium 12 Months')
  expect(product.image).toEqual([ogImage])
  expect(product.offers).toMatchObject({
    '@type': 'Offer',
    priceCurrency: 'INR',
    price: '1499.00',
    availability: 'https://schema.org/InStock',
    url: canonical,
  })
  // From the demo seed's reviews of this product (5, 4 and 5 stars), never a typed-in figure.
  expect(product.aggregateRating).toMatchObject({
    '@type': 'AggregateRating',
    ratingValue: 4.7,
    reviewCount: 3,
  })
})

test('an out-of-stock product says so in its JSON-LD', async ({ request }) => {
  const html = await (await request.get('/product/chatmind-plus-1-month')).text()
  const product = JSON.parse(
    html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)![1]!,
  ) as { offers: { availability: string } }
  expect(product.offers.availability).toBe('https://schema.org/OutOfStock')
})

test('the home page has a canonical link, a description and an absolute preview image', async ({
  request,
  app,
}) => {
  const html = await (await request.get('/?category=music')).text()
  expect(html).toMatch(/<title>KeyBazaar: [^<]+<\/title>/)
  expect(html).toContain(`<link rel="canonical" href="${app.url}/"`)
  expect(metaContent(html, 'name', 'description')).toBeTruthy()
  expect(metaContent(html, 'property', 'og:image')).toMatch(
    new RegExp(`^${app.url.replace(/[.]/g, '\\.')}/images/`),
  )
})

test('an unknown address answers 404 with a title, kept out of search results', async ({
  request,
}) => {
  const response = await request.get('/no-such-page')
  expect(response.status()).toBe(404)
  const html = await response.text()
  // The shop's name follows when the root loader ran (it does not for an address nothing matches).
  expect(html).toMatch(/<title>Page not found( \| [^<]+)?<\/title>/)
  expect(metaContent(html, 'name', 'robots')).toBe('noindex')
})

test('an unknown product answers 404 with the message in the HTML', async ({ request }) => {
  const response = await request.get('/product/no-such-product')
  expect(response.status()).toBe(404)
  expect(await response.text()).toContain('Product not found')
})

test('sitemap.xml lists the home page and every product with absolute URLs', async ({
  request,
  app,
}) => {
  const response = await request.get('/sitemap.xml')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toMatch(/^application\/xml/)
  const xml = await response.text()
  const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])
  expect(locations[0]).toBe(`${app.url}/`)
  expect(locations).toContain(`${app.url}/product/streamverse-premium-12-months`)
  expect(locations).toContain(`${app.url}/product/chatmind-plus-1-month`)
  const html = await (await request.get('/')).text()
  const productCount = new Set(
    [...html.matchAll(/href="\/product\/([^"]+)"/g)].map((match) => match[1]),
  ).size
  expect(locations).toHaveLength(productCount + 1)
})

test('robots.txt keeps crawlers out of the back office and the customer area', async ({
  request,
  app,
}) => {
  const response = await request.get('/robots.txt')
  expect(response.headers()['content-type']).toMatch(/^text\/plain/)
  const text = await response.text()
  expect(text).toContain('Disallow: /admin')
  expect(text).toContain('Disallow: /dashboard')
  expect(text).toContain(`Sitemap: ${app.url}/sitemap.xml`)
})

test('images are WebP variants, immutable when versioned, and the version changes the URL only', async ({
  request,
}) => {
  const html = await (await request.get('/product/streamverse-premium-12-months')).text()
  const src = html.match(/<img[^>]+src="(\/images\/[^"]+)"/)![1]!.replaceAll('&amp;', '&')
  const versioned = await request.get(src)
  expect(versioned.status()).toBe(200)
  expect(versioned.headers()['content-type']).toBe('image/webp')
  expect(versioned.headers()['cache-control']).toBe('public, max-age=31536000, immutable')

  const unversioned = await request.get(src.replace(/&v=[^&]+/, ''))
  expect(unversioned.status()).toBe(200)
  expect(unversioned.headers()['cache-control']).not.toContain('immutable')
  expect(await unversioned.body()).toEqual(await versioned.body())

  expect((await request.get(src.replace('w=1200', 'w=1234'))).status()).toBe(400)
  expect((await request.get('/images/products/none.webp?w=320')).status()).toBe(404)
})
