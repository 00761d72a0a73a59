import fs from 'node:fs'

/** Where Chromium is: CHROME_PATH, then Debian's and Ubuntu's usual paths. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  return candidates.find((candidate): candidate is string =>
    Boolean(candidate && fs.existsSync(candidate)),
  )
}

/** Flags for headless Chromium on a machine with no outside network. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
]
