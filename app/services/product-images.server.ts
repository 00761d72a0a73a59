import fs from 'node:fs/promises'
import path from 'node:path'
import { countProductsUsingImage } from '~/data/product.server'
import type { DB } from '~/lib/db.server'
import type { Storage } from '~/lib/storage.server'
import { keyFromImageUrl } from '~/lib/uploads.server'
import { isProductImageKey } from '~/lib/validation/product'

/**
 * A product image as the product form saves it. One of our own image URLs (the storefront's
 * /images/<key>?w=...&v=..., /uploads/<key>, the storage's own URL for the key), whole or as a
 * path, under any of `origins` (PUBLIC_URL, the address the admin is using), becomes its storage
 * key, the one form the rest of the app expects (the check that a new stored image exists, the
 * form's preview). A URL form saved by an older release still counts as showing the file
 * (productImageKeysIn in app/data/product.server.ts), so neither removeProductImage nor the sweep
 * of abandoned uploads deletes it under the product. Anything else comes back as it is.
 */
export function productImageValue(
  value: string,
  options: { storage: Storage; origins: readonly string[] },
): string {
  for (const origin of [undefined, ...options.origins]) {
    const key = keyFromImageUrl(value, {
      storage: options.storage,
      ...(origin ? { publicUrl: origin } : {}),
    })
    if (key) return key
  }
  return value
}

/**
 * Removes a product image from storage when no product (other than `exceptProductId`) still
 * shows it. Images hosted elsewhere are never touched. Returns whether a file was removed.
 * The image service's cached variants (DATA_DIR/cache/images/<key>/, see images.server.ts)
 * go with it.
 */
export async function removeProductImage(
  db: DB,
  storage: Storage,
  image: string,
  options: { exceptProductId?: string; cacheDir?: string } = {},
): Promise<boolean> {
  if (!isProductImageKey(image)) return false
  if ((await countProductsUsingImage(db, image, options.exceptProductId)) > 0) return false
  try {
    await deleteProductImageFile(storage, image, options.cacheDir)
    return true
  } catch (error) {
    // A file left behind wastes space but breaks nothing; the product change stands.
    console.error(`[uploads] could not remove ${image}:`, error)
    return false
  }
}

/**
 * Deletes a stored product image and the image service's cached variants of it
 * (`cacheDir`/<key>/), whoever shows it: the caller has made sure nobody does. Throws when the
 * storage refuses.
 */
export async function deleteProductImageFile(
  storage: Storage,
  image: string,
  cacheDir?: string,
): Promise<void> {
  if (!isProductImageKey(image)) throw new Error(`Not a stored product image: ${image}`)
  await storage.delete(image)
  if (cacheDir) {
    const dir = path.join(cacheDir, image)
    if (dir.startsWith(path.join(cacheDir, 'products') + path.sep))
      await fs.rm(dir, { recursive: true, force: true })
  }
}
