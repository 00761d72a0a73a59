// `npm start`: builds the app when there is no build or the sources are newer, then
// starts the production server. A fresh clone therefore needs only `npm install && npm start`.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const builtEntry = path.join(root, process.env.BUILD_DIR ?? 'build', 'server/index.js')
const sources = [
  'app',
  'server',
  'db',
  'simulators',
  'public',
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'react-router.config.ts',
]

function newestMtime(target) {
  let stat
  try {
    stat = fs.statSync(target)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(target)) {
    if (entry.endsWith('.test.ts')) continue
    newest = Math.max(newest, newestMtime(path.join(target, entry)))
  }
  return newest
}

export function buildIsStale() {
  if (!fs.existsSync(builtEntry)) return true
  const builtAt = fs.statSync(builtEntry).mtimeMs
  return sources.some((source) => newestMtime(path.join(root, source)) > builtAt)
}

if (buildIsStale()) {
  console.log('Building KeyBazaar for production (first start, or the sources changed)...')
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/@react-router/dev/bin.js'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  )
  if (result.status !== 0) process.exit(result.status ?? 1)
}

process.chdir(root)
await import('../server.js')
