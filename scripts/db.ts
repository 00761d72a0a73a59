/**
 * Database commands, with the same configuration as the server (environment, DATA_DIR):
 *   npm run db:migrate    apply pending migrations
 *   npm run db:rollback   revert the newest migration
 *   npm run db:seed       add the demo catalogue (idempotent: existing products are kept)
 */
import { closeServices, openServices } from '~/lib/app-context.server'
import { ConfigError, loadEnv } from '~/lib/env.server'
import { migrateDown, migrateToLatest } from '../db/migrate'
import { seedDemo } from '../app/services/seed'

const command = process.argv[2]

async function main(): Promise<void> {
  const env = loadEnv()
  const { db, engine, storage } = openServices(env)
  const where = engine === 'sqlite' ? `SQLite in ${env.DATA_DIR}` : 'PostgreSQL'
  try {
    switch (command) {
      case 'migrate': {
        const applied = await migrateToLatest(db)
        console.log(
          applied.length ? `Applied on ${where}: ${applied.join(', ')}` : `${where} is up to date`,
        )
        break
      }
      case 'rollback': {
        const reverted = await migrateDown(db)
        console.log(
          reverted.length ? `Reverted on ${where}: ${reverted.join(', ')}` : 'Nothing to revert',
        )
        break
      }
      case 'seed': {
        await migrateToLatest(db)
        const result = await seedDemo(db, storage, env.APP_SECRET)
        console.log(
          `Demo catalogue on ${where}: ${result.created} added, ${result.skipped} already there`,
        )
        break
      }
      default:
        console.error('Usage: tsx scripts/db.ts migrate | rollback | seed')
        process.exitCode = 2
    }
  } finally {
    await closeServices()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exitCode = 1
})
