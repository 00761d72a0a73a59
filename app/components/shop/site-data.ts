import { useRouteLoaderData } from 'react-router'
import type { loader as rootLoader } from '~/root'
import { RUPEES, type DisplayCurrency } from '~/lib/money'
import type { PublicSiteSettings } from './site-footer'

const FALLBACK: PublicSiteSettings = {
  siteName: 'KeyBazaar',
  siteDescription: '',
  contactEmail: '',
  phoneNumber: '',
  whatsappNumber: '',
  whatsappCommunityUrl: '',
}

/** The public site settings the root loader read (site name, contacts, WhatsApp number). */
export function useSiteSettings(): PublicSiteSettings {
  return useRouteLoaderData<typeof rootLoader>('root')?.site ?? FALLBACK
}

/** The currency the storefront shows prices in (admin Settings); rupees when unknown. */
export function useDisplayCurrency(): DisplayCurrency {
  return useRouteLoaderData<typeof rootLoader>('root')?.currency ?? RUPEES
}

/** The root loader's data inside `meta` (route meta functions get it through `matches`). */
export function rootMetaData(
  matches: readonly unknown[],
): { site: PublicSiteSettings; publicUrl: string } | undefined {
  const root = matches.find(
    (match): match is { id: 'root'; data: { site: PublicSiteSettings; publicUrl: string } } =>
      typeof match === 'object' && match !== null && (match as { id?: unknown }).id === 'root',
  )
  return root?.data ?? undefined
}
