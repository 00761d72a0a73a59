import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLocalStorage } from './storage.server'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('local storage stat()', () => {
  it('reuses a stat for a second, and forgets it when this storage writes the key', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-storage-'))
    try {
      const storage = createLocalStorage(root)
      await storage.put('products/a.png', Buffer.from('one'), 'image/png')
      const first = await storage.stat('products/a.png')
      expect(first?.size).toBe(3)

      // Changed behind the storage's back (another process): the copy stands for now...
      fs.writeFileSync(path.join(root, 'products/a.png'), 'three')
      expect(await storage.stat('products/a.png')).toEqual(first)
      // ...and is read again once it is a second old.
      const now = Date.now()
      vi.spyOn(Date, 'now').mockReturnValue(now + 1000)
      expect((await storage.stat('products/a.png'))?.size).toBe(5)

      await storage.put('products/a.png', Buffer.from('seven!!'), 'image/png')
      expect((await storage.stat('products/a.png'))?.size).toBe(7)
      await storage.delete('products/a.png')
      expect(await storage.stat('products/a.png')).toBeNull()
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })
})
