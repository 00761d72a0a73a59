import { href } from 'react-router'

/*
 * Paths to the storefront's pages for one product, checked against app/routes.ts by href().
 * href() puts a parameter in as given, so the slug is percent-encoded first: a slug made by
 * slugify (app/lib/slug.ts) has only letters, digits and hyphens and comes out unchanged.
 */

/** The product page: /product/{slug}. */
export const productPath = (slug: string) =>
  href('/product/:slugOrId', { slugOrId: encodeURIComponent(slug) })

/** The product's checkout: /checkout/{slug}. */
export const checkoutPath = (slug: string) =>
  href('/checkout/:slug', { slug: encodeURIComponent(slug) })
