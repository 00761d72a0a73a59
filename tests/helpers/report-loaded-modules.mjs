// Preloaded into a server under test (NODE_OPTIONS=--import=...): when the process exits, writes
// the files of every CommonJS module it ran (React and react-dom among them) to
// $LOADED_MODULES_FILE, one a line, so a test can tell which builds the packages chose. Only
// modules that ran: Node's ESM loader also lists files it merely parsed for their export names
// (both branches of React's index.js) without running them.
import fs from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
process.on('exit', () => {
  fs.writeFileSync(
    process.env.LOADED_MODULES_FILE,
    Object.entries(require.cache)
      .filter(([, module]) => module?.loaded)
      .map(([file]) => file)
      .join('\n'),
  )
})
