/**
 * The permission that opens the shop's own configuration, Settings and Payment Gateways
 * (docs/decisions/0019): Can Manage Users, the flag that can already grant every other one.
 * The server's guard (requireShopConfiguration) and every link to those pages ask it here.
 */
export const SHOP_CONFIGURATION_PERMISSION = 'canManageUsers' as const

/** Whether an admin holding these flags may open Settings and Payment Gateways. */
export function mayConfigureShop(
  permissions: Record<typeof SHOP_CONFIGURATION_PERMISSION, boolean>,
): boolean {
  return permissions[SHOP_CONFIGURATION_PERMISSION]
}
