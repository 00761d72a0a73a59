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

describe('local storage list()', () => {
  it('walks the folder of a prefix in key order, with sizes and file times as dates', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-storage-'))
    try {
      const storage = createLocalStorage(root)
      // Nothing stored yet: an empty listing, not an error.
      const none = []
      for await (const file of storage.list('products/')) none.push(file)
      expect(none).toEqual([])

      await storage.put('products/2_b.png', Buffer.from('bb'), 'image/png')
      await storage.put('products/1_a.webp', Buffer.from('a'), 'image/webp')
      await storage.put('products/nested/3_c.png', Buffer.from('ccc'), 'image/png')
      await storage.put('avatars/1_x.webp', Buffer.from('x'), 'image/webp')
      const old = new Date('2026-01-02T03:04:05Z')
      fs.utimesSync(path.join(root, 'products/2_b.png'), old, old)
      // A link is not a stored file.
      fs.symlinkSync(path.join(root, 'avatars/1_x.webp'), path.join(root, 'products/link.webp'))

      const listed = []
      for await (const file of storage.list('products/')) listed.push(file)
      expect(listed.map((file) => [file.key, file.size])).toEqual([
        ['products/1_a.webp', 1],
        ['products/2_b.png', 2],
        ['products/nested/3_c.png', 3],
      ])
      expect(listed[1]?.modifiedMs).toBe(old.getTime())
      expect(Math.abs((listed[0]?.modifiedMs ?? 0) - Date.now())).toBeLessThan(60_000)

      expect(() => storage.list('products')).toThrow('Invalid storage prefix')
      expect(() => storage.list('../')).toThrow('Invalid storage key')
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })
})
