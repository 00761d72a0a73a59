import { href } from 'react-router'

/*
 * Paths to the pages for one product or user, checked against app/routes.ts by href().
 * href() puts a parameter in as given, so each value is percent-encoded first: a slug made by
 * slugify (app/lib/slug.ts) has only letters, digits and hyphens, and ids only letters, digits
 * and hyphens, so they come out unchanged.
 */

/** The product page: /product/{slug}. */
export const productPath = (slug: string) =>
  href('/product/:slugOrId', { slugOrId: encodeURIComponent(slug) })

/** The product's checkout: /checkout/{slug}. */
export const checkoutPath = (slug: string) =>
  href('/checkout/:slug', { slug: encodeURIComponent(slug) })

/** The admin's product form: /admin/products/edit/{id}. */
export const adminProductEditPath = (id: string) =>
  href('/admin/products/edit/:id', { id: encodeURIComponent(id) })

/** The admin's stock page of a product: /admin/products/{id}/stock. */
export const adminStockPath = (id: string) =>
  href('/admin/products/:id/stock', { id: encodeURIComponent(id) })

/** The admin's page of one user: /admin/users/{id}. */
export const adminUserPath = (id: string) =>
  href('/admin/users/:userId', { userId: encodeURIComponent(id) })
