import fs from 'node:fs'
import path from 'node:path'

/**
 * DATA_DIR holds the database, the generated APP_SECRET and the mail outbox (reset links,
 * delivered keys): only the account the shop runs as may read them. Files are created with
 * these modes, and start-up fixes the ones an older version left readable by everyone.
 */
export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/** The SQLite file and its companions, the generated secret. */
const PRIVATE_FILES = [
  'keybazaar.db',
  'keybazaar.db-wal',
  'keybazaar.db-shm',
  'keybazaar.db-journal',
  'secret',
]
const PRIVATE_DIRS = ['mail']

/** Creates a directory that only the owner can enter (and narrows an existing one). */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  fs.chmodSync(dir, PRIVATE_DIR_MODE)
}

/**
 * Creates an empty SQLite file readable only by the owner when there is none: SQLite gives its
 * -wal and -shm files the database file's mode, so they follow.
 */
export function createPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE))
}

/** At start-up: DATA_DIR 0700, its private files 0600, the mail outbox 0700 with its files 0600. */
export function restrictDataDir(dataDir: string): void {
  makePrivateDir(dataDir)
  const chmodIfPresent = (file: string, mode: number) => {
    try {
      fs.chmodSync(file, mode)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  for (const name of PRIVATE_FILES) chmodIfPresent(path.join(dataDir, name), PRIVATE_FILE_MODE)
  for (const name of PRIVATE_DIRS) {
    const dir = path.join(dataDir, name)
    if (!fs.existsSync(dir)) continue
    fs.chmodSync(dir, PRIVATE_DIR_MODE)
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile()) chmodIfPresent(path.join(dir, entry.name), PRIVATE_FILE_MODE)
    }
  }
}
