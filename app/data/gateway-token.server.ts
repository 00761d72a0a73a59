import type { DB } from '~/lib/db.server'

/**
 * Gateway access tokens shared by every process (table gateway_token; PhonePe's OAuth token,
 * docs/payments.md "PhonePe"). The caller encrypts the token before it is stored here.
 */
export interface StoredGatewayToken {
  token: string
  tokenType: string
  issuedAt: string
  expiresAt: string
}

export async function readGatewayToken(db: DB, key: string): Promise<StoredGatewayToken | null> {
  const row = await db
    .selectFrom('gatewayToken')
    .select(['token', 'tokenType', 'issuedAt', 'expiresAt'])
    .where('key', '=', key)
    .executeTakeFirst()
  return row ?? null
}

/** Stores the newest token for `key` (several processes may refresh at once: the last one stays). */
export async function writeGatewayToken(
  db: DB,
  key: string,
  gateway: string,
  token: StoredGatewayToken,
  now = new Date(),
): Promise<void> {
  const updatedAt = now.toISOString()
  await db
    .insertInto('gatewayToken')
    .values({ key, gateway, ...token, updatedAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ ...token, updatedAt }))
    .execute()
}
