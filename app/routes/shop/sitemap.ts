import { listProducts } from '~/data/product.server'
import { services } from '~/lib/app-context.server'
import { productPath } from '~/lib/paths'

/** GET /sitemap.xml: the home page and every product. */
export async function loader() {
  const { db, env } = services()
  const products = await listProducts(db)
  const escape = (text: string) =>
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  const newest = products.reduce(
    (latest, product) => (product.updatedAt > latest ? product.updatedAt : latest),
    '',
  )
  const urls = [
    `  <url><loc>${escape(`${env.PUBLIC_URL}/`)}</loc>${newest ? `<lastmod>${newest}</lastmod>` : ''}<changefreq>daily</changefreq><priority>1.0</priority></url>`,
    ...products.map(
      (product) =>
        `  <url><loc>${escape(`${env.PUBLIC_URL}${productPath(product.slug)}`)}</loc><lastmod>${product.updatedAt}</lastmod><priority>0.8</priority></url>`,
    ),
  ]
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
  return new Response(body, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    },
  })
}
