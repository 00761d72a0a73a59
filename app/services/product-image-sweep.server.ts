import { countProductsUsingImage, productImageKeysInUse } from '~/data/product.server'
import type { DB } from '~/lib/db.server'
import { schedulePeriodicJob, type JobHandlers } from '~/lib/jobs.server'
import type { Storage, StoredFile } from '~/lib/storage.server'
import { isProductImageKey } from '~/lib/validation/product'
import { deleteProductImageFile } from './product-images.server'

/**
 * The periodic sweep of abandoned product image uploads (docs/admin.md, "Images"). The product
 * form stores an image as soon as it is picked; one whose form was never saved (the tab closed)
 * is shown by no product and would stay in storage for good. Once an hour, one process of the
 * cluster (a periodic job: one a period, claimed under a lease) lists the files under
 * `products/` and removes, with their cached variants, those no product shows that are older than
 * a day, at most 100 a run.
 */
export const PRODUCT_IMAGE_SWEEP_JOB = 'product-images.sweep'

/** How often the sweep runs: once in each hour of the clock, across the cluster. */
export const PRODUCT_IMAGE_SWEEP_PERIOD_MS = 60 * 60_000

/**
 * How old an unused file must be before it goes: a day. An admin who uploaded an image and is
 * still filling in the form (or left it open over lunch) saves long before that, so a form in use
 * never loses its picture; a form kept open longer than a day gets 'Invalid image URL' on saving
 * and the image is picked again.
 */
export const PRODUCT_IMAGE_SWEEP_GRACE_MS = 24 * 60 * 60_000

/**
 * The most files one run removes. A large backlog (a first run after years of abandoned uploads)
 * is cleared a hundred an hour, so no run holds its lease for long or floods the storage.
 */
export const PRODUCT_IMAGE_SWEEP_MAX_REMOVALS = 100

/** Where stored product images live in storage. */
const PRODUCTS_PREFIX = 'products/'

export interface ProductImageSweepOptions {
  storage: Storage
  /** The image service's variants (DATA_DIR/cache/images), removed with each file. */
  cacheDir?: string
  now?: Date
  graceMs?: number
  maxRemovals?: number
  log?: (line: string) => void
}

export interface ProductImageSweepResult {
  /** The keys removed, in the order they were. */
  removed: string[]
  /** Old unused files found that a product had come to show by the time of removal, kept. */
  kept: string[]
  /** Files whose removal failed (logged; the next run tries again). */
  failed: string[]
}

/**
 * One run of the sweep. The keys in use are read first; then the listing is walked and each old
 * file no product shows becomes a candidate, up to `maxRemovals`. The database is asked again
 * about each candidate right before it is removed, so a product saved with the file meanwhile
 * keeps it; the file goes with its cached variants as a replaced image does
 * (deleteProductImageFile). A file that cannot be removed is logged and left for the next run;
 * it never stops the others.
 */
export async function sweepAbandonedProductImages(
  db: DB,
  options: ProductImageSweepOptions,
): Promise<ProductImageSweepResult> {
  const now = options.now ?? new Date()
  const cutoff = now.getTime() - (options.graceMs ?? PRODUCT_IMAGE_SWEEP_GRACE_MS)
  const maxRemovals = options.maxRemovals ?? PRODUCT_IMAGE_SWEEP_MAX_REMOVALS
  const log = options.log ?? ((line: string) => console.log(line))
  const result: ProductImageSweepResult = { removed: [], kept: [], failed: [] }
  if (maxRemovals <= 0) return result

  const inUse = await productImageKeysInUse(db)
  const candidates: StoredFile[] = []
  for await (const file of options.storage.list(PRODUCTS_PREFIX)) {
    // Only what the uploader writes; anything else under products/ is not ours to judge.
    if (!isProductImageKey(file.key)) continue
    // A file without a date, or from within the grace period, may be in a form being filled in.
    if (!Number.isFinite(file.modifiedMs) || file.modifiedMs > cutoff) continue
    if (inUse.has(file.key)) continue
    candidates.push(file)
    if (candidates.length >= maxRemovals) break
  }

  for (const file of candidates) {
    try {
      // Asked again right before removing: a product saved since the list was read keeps it.
      if ((await countProductsUsingImage(db, file.key)) > 0) {
        result.kept.push(file.key)
        continue
      }
      await deleteProductImageFile(options.storage, file.key, options.cacheDir)
      result.removed.push(file.key)
      log(
        `[uploads] removed abandoned upload ${file.key} (stored ${new Date(file.modifiedMs).toISOString()}; no product shows it)`,
      )
    } catch (error) {
      result.failed.push(file.key)
      console.error(
        `[uploads] could not remove abandoned upload ${file.key}:`,
        error instanceof Error ? error.message : error,
      )
    }
  }
  if (result.removed.length || result.failed.length) {
    log(
      `[uploads] sweep of abandoned uploads: ${result.removed.length} removed, ` +
        `${result.kept.length} kept (shown by a product now), ${result.failed.length} failed`,
    )
  }
  return result
}

/**
 * Schedules this hour's sweep, unless some process did already; every runner's housekeeping
 * calls it (app/services/background.server.ts).
 */
export function scheduleProductImageSweep(db: DB, now = new Date()): Promise<boolean> {
  return schedulePeriodicJob(db, PRODUCT_IMAGE_SWEEP_JOB, PRODUCT_IMAGE_SWEEP_PERIOD_MS, {
    now,
    // A run that fails is not tried again: the next hour's run does the same work.
    maxAttempts: 1,
  })
}

/** The sweep's job; `deps` gives the storage and cache folder when a run starts. */
export function productImageSweepJobHandlers(
  db: DB,
  deps: () => Omit<ProductImageSweepOptions, 'now'>,
): JobHandlers {
  return {
    [PRODUCT_IMAGE_SWEEP_JOB]: async () => {
      await sweepAbandonedProductImages(db, deps())
    },
  }
}
