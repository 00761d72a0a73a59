import { z } from 'zod'

/**
 * Zod for the schemas the browser runs too. Its compiled fast path first probes `new Function`;
 * under the shop's Content-Security-Policy (no eval, docs/security.md) the browser reports that
 * probe as a violation even though Zod catches it. Without JIT, Zod never probes.
 */
z.config({ jitless: true })

export { z }
