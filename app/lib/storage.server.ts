import type { Dirent } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'

/**
 * Files the shop serves (product images). Local disk under DATA_DIR/uploads by default;
 * the server exposes it at /uploads/. Keys are relative paths such as products/1715_ab12.webp.
 */
export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>
  delete(key: string): Promise<void>
  exists(key: string): Promise<boolean>
  /** Size and modification time, or null when there is no such file (image versions use it). */
  stat(key: string): Promise<{ size: number; modifiedMs: number } | null>
  /** The file's bytes (image variants are derived from them). */
  read(key: string): Promise<Buffer>
  /** The URL a browser uses for the key. */
  url(key: string): string
  /**
   * Every file whose key starts with `prefix` (a folder such as `products/`), in key order, read
   * a page at a time: the sweep of abandoned uploads walks it (docs/admin.md, "Images").
   */
  list(prefix: string): AsyncIterable<StoredFile>
}

/** A file as a listing names it: its key, size and last modification (ms since the epoch). */
export interface StoredFile {
  key: string
  size: number
  modifiedMs: number
}

export const UPLOADS_URL_PREFIX = '/uploads/'

type FileStat = { size: number; modifiedMs: number } | null

/**
 * stat() answers kept for `ttlMs` in this process: every page names its images' versions from
 * them, so without this a page under load would stat (or, on S3, HEAD) the same files hundreds
 * of times a second. Uploads get new keys, so a key's file rarely changes; a write or delete
 * through this storage forgets the key at once, and another process's change shows within
 * `ttlMs`.
 */
export function statCache(read: (key: string) => Promise<FileStat>, ttlMs: number) {
  const stats = new Map<string, { at: number; value: FileStat }>()
  return {
    async stat(key: string): Promise<FileStat> {
      const cached = stats.get(key)
      if (cached && Date.now() - cached.at < ttlMs) return cached.value
      const value = await read(key)
      if (stats.size > 5000) stats.clear()
      stats.set(key, { at: Date.now(), value })
      return value
    },
    forget(key: string): void {
      stats.delete(key)
    },
  }
}

const LOCAL_STAT_CACHE_MS = 1000

export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9][a-z0-9._/-]*$/i.test(key) || key.includes('..') || key.includes('//')) {
    throw new Error(`Invalid storage key: ${key}`)
  }
}

/** A folder prefix for list(): a safe key ending in a slash (`products/`). */
export function assertSafePrefix(prefix: string): void {
  if (!prefix.endsWith('/')) throw new Error(`Invalid storage prefix: ${prefix}`)
  assertSafeKey(prefix.slice(0, -1))
}

/**
 * The files under `dir` (the folder of key prefix `prefix`), depth first in name order, with
 * their sizes and modification times. Links and other non-files are passed over, and so is a
 * file removed while the walk reaches it.
 */
async function* walkFiles(dir: string, prefix: string): AsyncGenerator<StoredFile> {
  let entries: Dirent[]
  try {
    entries = await fs.readdir(dir, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      yield* walkFiles(full, `${prefix}${entry.name}/`)
    } else if (entry.isFile()) {
      try {
        const stats = await fs.stat(full)
        yield { key: `${prefix}${entry.name}`, size: stats.size, modifiedMs: stats.mtimeMs }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      }
    }
  }
}

export function createLocalStorage(root: string): Storage {
  const fullPath = (key: string) => {
    assertSafeKey(key)
    return path.join(root, key)
  }
  const stats = statCache(async (key) => {
    try {
      const stats = await fs.stat(fullPath(key))
      return stats.isFile() ? { size: stats.size, modifiedMs: stats.mtimeMs } : null
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }, LOCAL_STAT_CACHE_MS)
  return {
    async put(key, body) {
      const target = fullPath(key)
      await fs.mkdir(path.dirname(target), { recursive: true })
      // Write then rename, so a reader never sees half a file.
      const temporary = `${target}.${process.pid}.tmp`
      await fs.writeFile(temporary, body)
      await fs.rename(temporary, target)
      stats.forget(key)
    },
    async delete(key) {
      await fs.rm(fullPath(key), { force: true })
      stats.forget(key)
    },
    async exists(key) {
      try {
        await fs.access(fullPath(key))
        return true
      } catch {
        return false
      }
    },
    stat: stats.stat,
    async read(key) {
      return fs.readFile(fullPath(key))
    },
    url(key) {
      return `${UPLOADS_URL_PREFIX}${key}`
    },
    list(prefix) {
      assertSafePrefix(prefix)
      return walkFiles(path.join(root, prefix), prefix)
    },
  }
}
