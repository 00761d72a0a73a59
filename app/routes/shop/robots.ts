import { services } from '~/lib/app-context.server'

/** GET /robots.txt: the shop is public; accounts and the back office are not for crawlers. */
export function loader() {
  const { env } = services()
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /dashboard',
    '',
    `Sitemap: ${env.PUBLIC_URL}/sitemap.xml`,
    '',
  ].join('\n')
  return new Response(body, {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    },
  })
}
