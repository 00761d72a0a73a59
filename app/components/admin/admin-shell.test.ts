import { SHOP_CONFIGURATION_PERMISSION } from '~/lib/shop-configuration'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  activeAdminSection,
  adminDisplayName,
  adminSectionTitle,
  ADMIN_SECTIONS,
  pageExplainsTestMode,
  type AdminSectionId,
  pendingLabel,
  visibleAdminSections,
} from './admin-shell'
import { pageWindow } from './pagination'

describe('admin shell', () => {
  it('lists every section as a link', () => {
    expect(ADMIN_SECTIONS.map((section) => [section.label, section.to])).toEqual([
      ['Dashboard', '/admin/dashboard'],
      ['Products', '/admin/products'],
      ['Reviews', '/admin/reviews'],
      ['Orders', '/admin/orders'],
      ['Transactions', '/admin/transactions'],
      ['Users', '/admin/users'],
      ['Payment Links', '/admin/payment-links'],
      ['Gateways', '/admin/gateways'],
      ['Audit log', '/admin/audit'],
      ['Settings', '/admin/settings'],
    ])
  })

  describe('shows a section only to admins holding the permission its loader requires', () => {
    const none = { canCreateProducts: false, canManageOrders: false, canManageUsers: false }
    const visible = (access: Partial<typeof none>) =>
      visibleAdminSections({ ...none, ...access }).map((section) => section.id)
    it('without any permission: the Dashboard (requireAdmin only)', () => {
      expect(visible({})).toEqual(['dashboard'])
    })

    it('Can Create Products: Products and Reviews', () => {
      expect(visible({ canCreateProducts: true })).toEqual(['dashboard', 'products', 'reviews'])
    })

    it('Can Manage Orders: Orders, Transactions and Payment Links', () => {
      expect(visible({ canManageOrders: true })).toEqual([
        'dashboard',
        'orders',
        'transactions',
        'payment-links',
      ])
    })

    it("Can Manage Users: Users, the Audit log and the shop's Gateways and Settings", () => {
      expect(visible({ canManageUsers: true })).toEqual([
        'dashboard',
        'users',
        'gateways',
        'audit',
        'settings',
      ])
    })

    it('every permission: every section', () => {
      expect(
        visible({ canCreateProducts: true, canManageOrders: true, canManageUsers: true }),
      ).toEqual(ADMIN_SECTIONS.map((section) => section.id))
    })

    it("is the permission each section's loader asks for", () => {
      const routes = path.resolve(import.meta.dirname, '../../routes/admin')
      const modules: Record<AdminSectionId, string> = {
        dashboard: 'dashboard.tsx',
        products: 'products/list.tsx',
        reviews: 'reviews.tsx',
        orders: 'orders/list.tsx',
        transactions: 'transactions/list.tsx',
        users: 'users/list.tsx',
        'payment-links': 'payment-links.tsx',
        gateways: 'gateways.tsx',
        audit: 'audit.tsx',
        settings: 'settings.tsx',
      }
      for (const section of ADMIN_SECTIONS) {
        const source = fs.readFileSync(path.join(routes, modules[section.id]), 'utf8')
        const loader = source.slice(source.indexOf('export async function loader'))
        const guard =
          /await (requireAdmin\(request\)|requirePermission\(request, '(\w+)'\)|(requireShopConfiguration)\(request\))/.exec(
            loader,
          )
        expect(guard, section.id).not.toBeNull()
        // requireShopConfiguration asks for SHOP_CONFIGURATION_PERMISSION (app/lib/shop-configuration.ts).
        const permission = guard?.[3] ? SHOP_CONFIGURATION_PERMISSION : (guard?.[2] ?? null)
        expect(permission, section.id).toBe(section.permission ?? null)
      }
    })
  })

  it('takes the active section from the path; unknown paths have none', () => {
    expect(activeAdminSection('/admin/products')).toBe('products')
    expect(activeAdminSection('/admin/products/edit/abc')).toBe('products')
    expect(activeAdminSection('/admin/gateways')).toBe('gateways')
    expect(activeAdminSection('/admin')).toBe('dashboard')
    expect(activeAdminSection('/admin/')).toBe('dashboard')
    expect(activeAdminSection('/admin/payment-links')).toBe('payment-links')
    expect(adminSectionTitle('/admin/payment-links')).toBe('Payment Links')
    expect(adminSectionTitle('/admin/settings')).toBe('Settings')
    expect(activeAdminSection('/admin/whatever/else')).toBeNull()
    expect(adminSectionTitle('/admin/products/add')).toBe('Products')
    expect(adminSectionTitle('/admin/nope')).toBe('Page not found')
  })

  it('leaves its test-mode banner out where the page has its own: one banner a page', () => {
    const own = { ownTestModeNote: true }
    expect(pageExplainsTestMode([undefined, undefined, own])).toBe(true)
    expect(pageExplainsTestMode([undefined, {}, undefined])).toBe(false)
    expect(pageExplainsTestMode([])).toBe(false)
    // The Gateways and Stock pages say so through their route's handle, and each shows a
    // test-mode note of its own.
    const app = path.resolve(import.meta.dirname, '../..')
    const routes = fs.readFileSync(path.join(app, 'routes.ts'), 'utf8')
    for (const module of ['routes/admin/gateways', 'routes/admin/products/stock']) {
      expect(routes).toContain(`'${module}.tsx'`)
      expect(fs.readFileSync(path.join(app, `${module}.tsx`), 'utf8')).toContain(
        'export const handle: AdminPageHandle = { ownTestModeNote: true }',
      )
      expect(fs.readFileSync(path.join(app, `${module}.tsx`), 'utf8')).toMatch(/Test mode/)
    }
  })

  it('shows the display name or the part of the e-mail before the @', () => {
    expect(adminDisplayName({ name: 'Asha Rao', email: 'asha@example.in' })).toBe('Asha Rao')
    expect(adminDisplayName({ name: '  ', email: 'owner@example.in' })).toBe('owner')
  })

  it("says 'Loading product...' while an edit page loads", () => {
    expect(pendingLabel('/admin/products/edit/abc123')).toBe('Loading product...')
    expect(pendingLabel('/admin/products')).toBe('Loading...')
  })
})

describe('pagination window', () => {
  it('offers the first, the last and two pages either side, with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1])
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5])
    expect(pageWindow(6, 250)).toEqual([1, null, 4, 5, 6, 7, 8, null, 250])
    // A gap of one page shows the page instead of an ellipsis.
    expect(pageWindow(4, 10)).toEqual([1, 2, 3, 4, 5, 6, null, 10])
    expect(pageWindow(250, 250)).toEqual([1, null, 248, 249, 250])
  })
})
