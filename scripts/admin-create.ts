/**
 * First admin on a new install (or any later one):
 *   npm run admin:create -- --email you@example.com [--name "Your Name"]
 * Creates the account, or promotes an existing one (role admin with every permission,
 * reactivated if it was suspended), and prints a one-time link to set its password.
 * Uses the server's configuration (DATA_DIR, DATABASE_URL, PUBLIC_URL).
 */
import { parseArgs } from 'node:util'
import {
  createPasswordResetToken,
  createUser,
  findUserByEmail,
  setUserRole,
  setUserStatus,
  SET_PASSWORD_TOKEN_TTL_SECONDS,
} from '~/data/user.server'
import { closeServices, openServices } from '~/lib/app-context.server'
import { resetPasswordUrl } from '~/services/notifications/account-mail.server'
import { ConfigError, loadEnv } from '~/lib/env.server'
import { emailField } from '~/lib/validation/auth'
import { migrateToLatest } from '../db/migrate'

const USAGE = 'Usage: npm run admin:create -- --email you@example.com [--name "Your Name"]'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, name: { type: 'string' } },
    strict: true,
  })
  const email = emailField.safeParse(values.email)
  if (!email.success) {
    console.error(`${email.error.issues[0]?.message ?? 'Invalid e-mail'}.\n${USAGE}`)
    process.exitCode = 2
    return
  }
  const env = loadEnv()
  const { db } = openServices(env)
  try {
    await migrateToLatest(db)
    let user = await findUserByEmail(db, email.data)
    let what: string
    if (user) {
      await setUserRole(db, user.id, 'admin')
      if (user.status !== 'active') await setUserStatus(db, user.id, 'active')
      what =
        user.role === 'admin'
          ? 'is already an admin (permissions reset to all)'
          : 'was promoted to admin'
    } else {
      const name = values.name?.trim() || email.data.split('@')[0] || email.data
      user = await createUser(db, { email: email.data, name, admin: true })
      what = 'was created as an admin'
    }
    const token = await createPasswordResetToken(db, user.id, SET_PASSWORD_TOKEN_TTL_SECONDS)
    const hours = SET_PASSWORD_TOKEN_TTL_SECONDS / 3600
    console.log(`${user.email} ${what}.`)
    console.log(`Set its password with this link (it works once, for ${hours} hours):`)
    console.log(`  ${resetPasswordUrl(env.PUBLIC_URL, token)}`)
    console.log(
      'The account can also sign in with Google when that is configured and uses the same address.',
    )
  } finally {
    await closeServices()
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`admin:create cannot run: ${error.message}`)
  else console.error(error)
  process.exitCode = 1
})
