import { sql, type Kysely } from 'kysely'

/** True when the database answers a trivial query within the time limit. */
export async function databaseAnswers(db: Kysely<any>, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  try {
    return await Promise.race([sql`select 1`.execute(db).then(() => true as const), timeout])
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}
