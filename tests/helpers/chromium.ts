import fs from 'node:fs'

/**
 * Debian's `chromium-headless-shell`: the headless-only build Playwright itself prefers for
 * headless runs. It skips the full browser's UI layers, so the browser tests take about a
 * quarter less time than in full Chromium (measured in README.md, "Tests").
 */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell'

/** Where Chromium is: CHROME_PATH, then Debian's headless shell, then Debian's and Ubuntu's usual paths. */
export function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROME_PATH,
    HEADLESS_SHELL,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ]
  return candidates.find((candidate): candidate is string =>
    Boolean(candidate && fs.existsSync(candidate)),
  )
}

/** Flags for headless Chromium on a machine with no outside network. */
export function chromiumArgs(executable: string | undefined): string[] {
  return [
    // The headless shell is headless already; the full browser needs to be told.
    ...(executable?.includes('headless-shell') ? [] : ['--headless=new']),
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
  ]
}
