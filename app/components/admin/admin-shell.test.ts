import { describe, expect, it } from 'vitest'
import {
  activeAdminSection,
  adminDisplayName,
  adminSectionTitle,
  ADMIN_SECTIONS,
  pendingLabel,
  visibleAdminSections,
} from './admin-shell'
import { pageWindow } from './pagination'

describe('admin shell', () => {
  it('lists every section as a link; the audit log only for admins who manage users', () => {
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
    expect(visibleAdminSections({ canManageUsers: false }).map((s) => s.id)).not.toContain('audit')
    expect(visibleAdminSections({ canManageUsers: true }).map((s) => s.id)).toContain('audit')
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
