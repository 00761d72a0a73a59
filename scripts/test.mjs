// `npm test`: unit and data tests (Vitest: SQLite, and PostgreSQL when TEST_DATABASE_URL
// is set), then browser tests (Playwright in Chromium) against a fresh production build.
// Ends with one summary line: "tests: N passed, N failed, N skipped".
//   --unit-only / --e2e-only   run one half
//   E2E_REQUIRED=1             fail instead of skipping when no Chromium is installed
//   E2E_SKIP_BUILD=1           reuse the existing build in $BUILD_DIR
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = new Set(process.argv.slice(2))
const extra = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
const outDir = path.join(root, 'tests/.output')
fs.mkdirSync(outDir, { recursive: true })

const totals = { passed: 0, failed: 0, skipped: 0 }
let ok = true

function run(label, script, scriptArgs, env = {}) {
  console.log(`\n=== ${label} ===`)
  const result = spawnSync(process.execPath, [path.join(root, script), ...scriptArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  })
  return result.status === 0
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

function findChromium() {
  // The same order as tests/helpers/chromium.ts: the headless shell first when installed.
  return [
    process.env.CHROME_PATH,
    '/usr/lib/chromium/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ].find((candidate) => candidate && fs.existsSync(candidate))
}

// The production build for the browser tests runs while the unit and data tests do: the build
// keeps one core busy, and the data tests spend much of their time waiting on the database.
const chromium = args.has('--unit-only') ? undefined : findChromium()
const build =
  chromium && process.env.E2E_SKIP_BUILD !== '1' ? startBuild(path.join(outDir, 'build.log')) : null

function startBuild(logFile) {
  const log = fs.openSync(logFile, 'w')
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/@react-router/dev/bin.js'), 'build'],
    {
      cwd: root,
      stdio: ['ignore', log, log],
      env: { ...process.env, NODE_ENV: 'production' },
    },
  )
  const done = new Promise((resolve) => {
    child.once('error', () => resolve(false))
    child.once('exit', (code) => resolve(code === 0))
  })
  return { logFile, done: done.finally(() => fs.closeSync(log)) }
}

if (!args.has('--e2e-only')) {
  const report = path.join(outDir, 'vitest.json')
  fs.rmSync(report, { force: true })
  const engines = process.env.TEST_DATABASE_URL
    ? 'SQLite and PostgreSQL'
    : 'SQLite (set TEST_DATABASE_URL to add PostgreSQL)'
  const passed = run(`Unit and data tests on ${engines}`, 'node_modules/vitest/vitest.mjs', [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...extra.filter((arg) => !arg.includes('e2e')),
  ])
  const json = readJson(report)
  if (json) {
    totals.passed += json.numPassedTests
    totals.failed += json.numFailedTests
    totals.skipped += json.numPendingTests + (json.numTodoTests ?? 0)
  } else if (!passed) {
    totals.failed += 1
  }
  ok &&= passed
}

if (!args.has('--unit-only')) {
  if (!chromium) {
    const line =
      'Browser tests: Chromium not found. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROME_PATH.'
    if (process.env.E2E_REQUIRED === '1') {
      console.error(`\n${line} E2E_REQUIRED=1, so this is a failure.`)
      totals.failed += 1
      ok = false
    } else {
      console.log(`\n${line} Skipping them.`)
    }
  } else {
    let built = true
    if (build) {
      console.log('\n=== Production build for browser tests (ran beside the unit tests) ===')
      built = await build.done
      process.stdout.write(fs.readFileSync(build.logFile, 'utf8'))
    }
    if (!built) {
      totals.failed += 1
      ok = false
    } else {
      const report = path.join(outDir, 'playwright.json')
      fs.rmSync(report, { force: true })
      const passed = run(
        `Browser tests (Chromium at ${chromium})`,
        'node_modules/@playwright/test/cli.js',
        ['test', ...extra],
        {
          CHROME_PATH: chromium,
          PLAYWRIGHT_JSON_OUTPUT_NAME: report,
        },
      )
      const json = readJson(report)
      if (json?.stats) {
        totals.passed += json.stats.expected + json.stats.flaky
        totals.failed += json.stats.unexpected
        totals.skipped += json.stats.skipped
      } else if (!passed) {
        totals.failed += 1
      }
      ok &&= passed
    }
  }
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(ok && totals.failed === 0 ? 0 : 1)
