// Loaded into each shop process by bench/soak.mjs (NODE_OPTIONS=--import): every few seconds
// it appends the process's memory, as V8 and Node see it, to $BENCH_MEMORY_DIR/<pid>.jsonl, so
// the soak can tell resident growth (VmRSS) apart from the JavaScript heap V8 keeps committed
// (heapTotal), live objects (heapUsed) and memory outside the heap (external, arrayBuffers).
import fs from 'node:fs'
import path from 'node:path'

const dir = process.env.BENCH_MEMORY_DIR
if (dir) {
  const file = path.join(dir, `${process.pid}.jsonl`)
  const mb = (bytes) => Math.round(bytes / 104857.6) / 10
  const write = () => {
    const memory = process.memoryUsage()
    const row = {
      at: Date.now(),
      heapTotal: mb(memory.heapTotal),
      heapUsed: mb(memory.heapUsed),
      external: mb(memory.external),
      arrayBuffers: mb(memory.arrayBuffers),
    }
    fs.appendFileSync(file, `${JSON.stringify(row)}\n`)
  }
  setInterval(write, Number(process.env.BENCH_MEMORY_INTERVAL_MS) || 5000).unref()
}
