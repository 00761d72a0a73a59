// `npm run bench [name...]`: runs the benchmarks in this folder one after another
// (each checks its own budget and exits non-zero when it misses it).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const wanted = process.argv.slice(2)
const benches = fs
  .readdirSync(here)
  .filter((file) => file.endsWith('.mjs') && file !== 'run.mjs' && !file.startsWith('_'))
  .filter((file) => wanted.length === 0 || wanted.includes(path.basename(file, '.mjs')))
  .sort()

if (benches.length === 0) {
  console.error(`No benchmark matches ${wanted.join(', ')}`)
  process.exit(2)
}

let failed = 0
for (const bench of benches) {
  console.log(`\n=== bench/${bench} ===`)
  const result = spawnSync(process.execPath, [path.join(here, bench)], {
    stdio: 'inherit',
    env: process.env,
  })
  if (result.status !== 0) failed++
}
console.log(`\nbench: ${benches.length - failed} within budget, ${failed} over budget or failed`)
process.exit(failed ? 1 : 0)
