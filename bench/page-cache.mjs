// Anonymous page throughput with and without the page cache (docs/page-cache.md): one
// production server process (the build in $BUILD_DIR, default build), demo catalogue on SQLite
// in a temporary DATA_DIR, autocannon against the home page and a product page as a browser
// asks for them (Accept-Encoding: gzip, deflate, br; no cookies).
//
//   BUILD_DIR=build-x node bench/page-cache.mjs                 cache on (the default)
//   BUILD_DIR=build-x PAGE_CACHE=off node bench/page-cache.mjs  every page rendered
//   node bench/page-cache.mjs --duration 10 --connections 50
//
// A build from before the page cache existed ignores PAGE_CACHE: it is the "before" figure.
// Prints requests per second, latency and bytes per response; no budget (figures in bench/README.md).
import os from 'node:os'
import autocannon from 'autocannon'
import { loadAppModule, option } from './_shop.mjs'

const duration = Number(option('duration', '10'))
const connections = Number(option('connections', '50'))
const paths = ['/', '/product/streamverse-premium-12-months']

const { startApp } = await loadAppModule('tests/helpers/app.ts')
const app = await startApp({
  env: process.env.PAGE_CACHE ? { PAGE_CACHE: process.env.PAGE_CACHE } : {},
})
const url = app.url
try {
  const headers = { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'Mozilla/5.0 bench' }
  console.log(
    `load average before: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  )
  for (const page of paths) {
    // Warm up: images resized, the page in the cache when it is on.
    for (let i = 0; i < 20; i++)
      await fetch(`${url}${page}`, { headers }).then((r) => r.arrayBuffer())
    const result = await autocannon({ url: `${url}${page}`, connections, duration, headers })
    const non2xx = result.non2xx + result.errors
    console.log(
      `${page}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
        `${(result.throughput.average / result.requests.average / 1024).toFixed(1)} KiB/response, ${non2xx} errors or non-2xx`,
    )
  }
  console.log(
    `load average after: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  )
} finally {
  await app.dispose()
}
