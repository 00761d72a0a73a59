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
}

export const UPLOADS_URL_PREFIX = '/uploads/'

export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9][a-z0-9._/-]*$/i.test(key) || key.includes('..') || key.includes('//')) {
    throw new Error(`Invalid storage key: ${key}`)
  }
}

export function createLocalStorage(root: string): Storage {
  const fullPath = (key: string) => {
    assertSafeKey(key)
    return path.join(root, key)
  }
  return {
    async put(key, body) {
      const target = fullPath(key)
      await fs.mkdir(path.dirname(target), { recursive: true })
      // Write then rename, so a reader never sees half a file.
      const temporary = `${target}.${process.pid}.tmp`
      await fs.writeFile(temporary, body)
      await fs.rename(temporary, target)
    },
    async delete(key) {
      await fs.rm(fullPath(key), { force: true })
    },
    async exists(key) {
      try {
        await fs.access(fullPath(key))
        return true
      } catch {
        return false
      }
    },
    async stat(key) {
      try {
        const stats = await fs.stat(fullPath(key))
        return stats.isFile() ? { size: stats.size, modifiedMs: stats.mtimeMs } : null
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async read(key) {
      return fs.readFile(fullPath(key))
    },
    url(key) {
      return `${UPLOADS_URL_PREFIX}${key}`
    },
  }
}

/** A product's image field holds a storage key or an absolute URL. */
export function imageUrl(storage: Storage, image: string): string {
  if (!image) return ''
  return /^https?:\/\//.test(image) ? image : storage.url(image)
}
