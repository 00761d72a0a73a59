import Heart from 'lucide-react/icons/heart'
import LayoutDashboard from 'lucide-react/icons/layout-dashboard'
import Package from 'lucide-react/icons/package'
import Settings from 'lucide-react/icons/settings'
import { href } from 'react-router'

/** The customer area's pages, in the sidebar and the profile menu alike. */
export const ACCOUNT_NAV = [
  { to: href('/dashboard'), label: 'Dashboard', icon: LayoutDashboard, end: true },
  { to: href('/dashboard/orders'), label: 'My Orders', icon: Package, end: false },
  { to: href('/dashboard/wishlist'), label: 'Wishlist', icon: Heart, end: false },
  { to: href('/dashboard/settings'), label: 'Settings', icon: Settings, end: false },
] as const

/** The page of the customer area a path belongs to (the phone menu's button names it). */
export function currentAccountPage(pathname: string): (typeof ACCOUNT_NAV)[number] {
  const path = pathname.replace(/\/+$/, '') || '/'
  return (
    ACCOUNT_NAV.find((item) => (item.end ? path === item.to : path.startsWith(item.to))) ??
    ACCOUNT_NAV[0]
  )
}
