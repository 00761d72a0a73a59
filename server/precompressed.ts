import fs from 'node:fs'
import path from 'node:path'
import type { RequestHandler } from 'express'

/** The encodings the build writes beside an asset (vite.config.ts), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const

/**
 * Serves the build's compressed copies of files in `dir` (`app.js.br` for `app.js`) to the
 * browsers that accept them. Mount it before the static handler of the same directory: it only
 * points the request at the copy and names its encoding and type; the static handler sends it
 * (caching headers, ETag, ranges), and the compression middleware leaves an encoded response
 * alone. The directory is read once: the build's files never change while the server runs.
 */
export function precompressedFiles(dir: string): RequestHandler {
  const files = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : [])
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next()
    const name = req.path.slice(1)
    if (name.includes('/') || !files.has(name)) return next()
    const variants = ENCODINGS.filter(({ suffix }) => files.has(name + suffix))
    if (variants.length === 0) return next()
    // Caches must keep one copy per encoding, also of the uncompressed answer.
    res.vary('Accept-Encoding')
    const chosen = variants.find(
      ({ name: encoding }) => req.acceptsEncodings(encoding) === encoding,
    )
    if (!chosen) return next()
    res.setHeader('Content-Encoding', chosen.name)
    res.type(path.extname(name))
    const query = req.url.indexOf('?')
    req.url = `/${name}${chosen.suffix}${query >= 0 ? req.url.slice(query) : ''}`
    next()
  }
}
