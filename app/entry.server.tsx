import { Transform, type TransformCallback } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import type { RenderToPipeableStreamOptions } from 'react-dom/server'
import { renderToPipeableStream } from 'react-dom/server'
import { ServerRouter, type AppLoadContext, type EntryContext } from 'react-router'
import { StaticMarkupContext } from '~/components/ui/static-markup'
import { renderStaticMarkup } from '~/lib/static-markup.server'

/**
 * React Router's default server entry, plus the Content-Security-Policy nonce: server/index.ts
 * makes a fresh one per response, sends it in the policy and puts it in the load context; here
 * it goes on every script tag React and React Router write (the hydration data, the module
 * scripts and preloads, scroll restoration, streamed Suspense boundaries). The nonce appears in
 * the HTML only as nonce="…" attributes, so a cached page can be served again with a fresh one
 * substituted (docs/security.md).
 */
export const streamTimeout = 5_000

/**
 * React writes a page in 4 KB pieces (and a long string, such as reused markup, as one more),
 * and each piece would then pass on its own through the Response's stream, React Router's copy
 * into the Node response and the compression middleware. React calls `flush()` after each pass
 * over the work it has completed, so the pieces of one pass go on here as one chunk: a page
 * rendered at once leaves in one write, and a part that streams in later still leaves as soon
 * as React has written it.
 */
class FlushedPieces extends Transform {
  #pieces: Buffer[] = []

  constructor(private readonly onEnd: () => void) {
    super()
  }

  override _transform(piece: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.#pieces.push(piece)
    callback()
  }

  flush() {
    const pieces = this.#pieces
    if (pieces.length === 0) return
    this.#pieces = []
    this.push(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces))
  }

  override _flush(callback: TransformCallback) {
    this.flush()
    this.onEnd()
    callback()
  }
}

declare module 'react-router' {
  interface AppLoadContext {
    /** This response's CSP nonce (set by server/index.ts). */
    cspNonce?: string
    /** Maintenance mode for this request (server/maintenance.ts): an admin, or a visitor. */
    maintenance?: 'admin' | 'closed'
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }
  const nonce = loadContext.cspNonce

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    // Crawlers (and SPA mode) get the whole page at once, not streamed.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'

    // Abort after streamTimeout, with time left to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    )

    const { pipe, abort } = renderToPipeableStream(
      // Visitor-independent parts of the page come from HTML rendered before (StaticMarkup).
      <StaticMarkupContext value={renderStaticMarkup}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </StaticMarkupContext>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true
          const body = new FlushedPieces(() => {
            clearTimeout(timeoutId)
            timeoutId = undefined
          })
          const stream = createReadableStreamFromReadable(body)
          responseHeaders.set('Content-Type', 'text/html')
          pipe(body)
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }))
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors before the shell are logged by React Router; these come later, while streaming.
          if (shellRendered) console.error(error)
        },
      },
    )
  })
}
