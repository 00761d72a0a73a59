import { expect } from '@playwright/test'
import type { DB } from '~/lib/db.server'

/** Waits until the order's status in the shop's database is `status` (the delivery job runs after the callback). */
export async function expectOrderStatus(
  db: DB,
  orderId: string,
  status: string,
  options: { timeout?: number; intervals?: number[] } = {},
): Promise<void> {
  await expect
    .poll(
      async () =>
        (await db.selectFrom('order').select('status').where('id', '=', orderId).executeTakeFirst())
          ?.status,
      options,
    )
    .toBe(status)
}
