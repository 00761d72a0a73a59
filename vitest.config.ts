import os from 'node:os'
import path from 'node:path'
import { defineConfig } from 'vitest/config'

/**
 * Unit and integration tests. Data tests (app/data/**, app/services/**, db/**, *.db.test.ts) run against
 * SQLite, and once more against PostgreSQL when TEST_DATABASE_URL is set.
 */
const dataTests = [
  'app/data/**/*.test.ts',
  'app/services/**/*.test.ts',
  'db/**/*.test.ts',
  '**/*.db.test.ts',
]
const exclude = ['node_modules/**', 'build/**', 'build-*/**', 'tests/e2e/**', 'data/**']
const alias = { '~': path.resolve(import.meta.dirname, 'app') }

export default defineConfig({
  test: {
    // Two cores: one fork per core at most, and files isolated in their own process.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    // Nothing a test does may write into the work tree's ./data.
    env: { DATA_DIR: path.join(os.tmpdir(), 'keybazaar-vitest-data') },
    hookTimeout: 30_000,
    projects: [
      {
        extends: true as const,
        resolve: { alias },
        test: {
          name: 'sqlite',
          include: ['**/*.test.ts'],
          exclude,
          env: { TEST_DB_ENGINE: 'sqlite' },
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              resolve: { alias },
              test: {
                name: 'postgres',
                include: dataTests,
                exclude,
                env: { TEST_DB_ENGINE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
})
