import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startApp } from '../helpers/app'
import { expect, test } from '@playwright/test'

const root = path.resolve(import.meta.dirname, '../..')
const serverDir = path.join(root, process.env.BUILD_DIR ?? 'build', 'server')

function serverBundle(): string {
  const files = fs.readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
  return files
    .filter((file) => file.endsWith('.js'))
    .map((file) => fs.readFileSync(path.join(serverDir, file), 'utf8'))
    .join('\n')
}

test.describe('production builds of the dependencies (npm start)', () => {
  test('the server bundle holds one copy of React Router, its production build', () => {
    const bundle = serverBundle()
    // Imported from node_modules, React Router's package exports would load dist/development.
    const imported = [...bundle.matchAll(/(?:from\s*|import\(\s*)["']([^"'./][^"']*)["']/g)].map(
      (match) => match[1]!,
    )
    expect(imported).toContain('react-dom/server')
    expect(imported.filter((name) => /^(?:react-router|@react-router\/)/.test(name))).toEqual([])
    // Bundled: its code is there (ServerRouter's error page)...
    expect(bundle).toContain('React Router caught the following error during render')
    // ...without the development build's route warnings.
    expect(bundle).not.toContain('You should not include both `Component` and `element`')
  })

  test('a server started without NODE_ENV loads the production builds of React', async () => {
    const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kb-modules-')), 'loaded.txt')
    const app = await startApp({
      env: {
        NODE_ENV: undefined,
        NODE_OPTIONS: `--import=${path.join(root, 'tests/helpers/report-loaded-modules.mjs')}`,
        LOADED_MODULES_FILE: report,
      },
    })
    try {
      const page = await fetch(`${app.url}/product/streamverse-premium-12-months`)
      expect(page.status).toBe(200)
      await page.text()
    } finally {
      await app.dispose()
    }
    const loaded = fs.readFileSync(report, 'utf8').split('\n')
    const react = loaded.filter((file) => /node_modules\/react(?:-dom)?\/cjs\//.test(file))
    expect(react.length).toBeGreaterThan(0)
    expect(react.filter((file) => file.includes('development'))).toEqual([])
    expect(loaded.filter((file) => file.includes('/dist/development/'))).toEqual([])
  })
})
