import js from '@eslint/js'
import fs from 'node:fs'
import path from 'node:path'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * The layers of docs/architecture.md, each a folder importing only downwards:
 * app/routes -> app/services -> app/data -> app/lib -> db (see docs/decisions/0009-layers.md).
 * Paths are resolved (the `~/` alias included), so a relative import cannot slip past.
 */
function routeFolders(dir) {
  return fs
    .readdirSync(path.join(import.meta.dirname, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [`${dir}/${entry.name}`, ...routeFolders(`${dir}/${entry.name}`)])
}
const parentsOf = (folder) => {
  const parts = folder.split('/')
  return parts.slice(3).map((_, index) => parts.slice(0, 3 + index).join('/'))
}

const layerZones = [
  {
    target: 'app/lib',
    from: ['app/data', 'app/services', 'app/routes', 'app/components'],
    message:
      'app/lib is infrastructure: it imports nothing from app/data, app/services, app/routes or app/components.',
  },
  {
    target: 'app/data',
    from: ['app/services', 'app/routes', 'app/components'],
    message:
      'app/data holds queries: it imports only app/lib and db (workflows go in app/services).',
  },
  {
    target: 'app/data',
    from: ['app/lib/payments'],
    message: 'app/data makes no HTTP calls: a gateway is asked from app/services.',
  },
  {
    target: 'app/data',
    from: ['app/lib/mail.server.ts', 'app/lib/jobs.server.ts'],
    message:
      'app/data sends and queues no mail: a workflow in app/services (notifications/) does, in the same transaction.',
  },
  {
    target: 'app/services',
    from: ['app/routes', 'app/components'],
    message:
      'app/services holds workflows: it imports app/data and app/lib, never routes or components.',
  },
  {
    target: 'db',
    from: ['app', 'scripts', 'server'],
    message: 'db/ holds the schema and migrations only: it imports nothing from the application.',
  },
  {
    target: 'app/components',
    from: ['app/routes', 'app/services', 'app/data'],
    message:
      'Components receive data from their route; they import only app/lib (browser-safe) and other components.',
  },
  {
    target: 'app/components',
    from: ['app/**/*.server.ts', 'app/**/*.server.tsx'],
    message: 'Components are bundled for the browser: they never import a *.server module.',
  },
  // A route folder's helpers are its own (files directly in a parent folder, such as
  // app/routes/admin/flash.server.ts, are shared by its subfolders); what two areas share
  // belongs in app/services, app/data or app/lib.
  ...routeFolders('app/routes').map((folder) => ({
    target: folder,
    from: 'app/routes/**/*',
    except: [`${folder}/**/*`, ...parentsOf(folder).map((parent) => `${parent}/*`)].map(
      (glob) => `**/${glob}`,
    ),
    message:
      "Routes do not import another route folder's helpers: move what they share to app/services, app/data or app/lib.",
  })),
]

export default tseslint.config(
  {
    ignores: [
      'build/',
      'build-*/',
      '.react-router/',
      'node_modules/',
      'data/',
      'test-results/',
      'playwright-report/',
      'tests/.output/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../shared/*', '../../shared/*'],
              message: 'The project must not read ../shared.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'db/**/*.ts', 'server/**/*.ts', 'scripts/**/*.ts'],
    // Tests may set up their data through any layer; the code they test may not.
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x reads only .js dependencies and no-cycle sees no TypeScript cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: layerZones },
      ],
      // Type-only imports vanish at run time, but a cycle of them still tangles the layers.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Playwright fixtures call a `use` callback that is not a React hook.
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
)
