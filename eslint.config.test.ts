import path from 'node:path'
import { ESLint, type Linter } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

/**
 * The layers of docs/architecture.md hold only while `npm run lint` refuses a wrong import.
 * These lint made-up modules placed in real folders, with the project's own eslint.config.js.
 */
const root = import.meta.dirname
let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) })
  return result!.messages
}

const ruleIds = (messages: Linter.LintMessage[]) => messages.map((message) => message.ruleId)

describe('lint keeps the layers', { timeout: 60_000 }, () => {
  const readsSettings =
    "import { getSiteSettings } from '~/data/settings.server'\nexport const read = getSiteSettings\n"

  it('refuses an app/lib module that imports app/data', async () => {
    const messages = await lint('app/lib/wrong-layer.server.ts', readsSettings)
    expect(ruleIds(messages)).toContain('import-x/no-restricted-paths')
    expect(messages.find((m) => m.ruleId === 'import-x/no-restricted-paths')?.message).toMatch(
      /app\/lib is infrastructure/,
    )
  })

  it('refuses the same import written as a relative path', async () => {
    const messages = await lint(
      'app/lib/payments/wrong-layer.server.ts',
      "import { getSiteSettings } from '../../data/settings.server'\nexport const read = getSiteSettings\n",
    )
    expect(ruleIds(messages)).toContain('import-x/no-restricted-paths')
  })

  it('lets an app/services module import app/data', async () => {
    const messages = await lint('app/services/right-layer.server.ts', readsSettings)
    expect(messages).toEqual([])
  })

  it('refuses app/data importing a service', async () => {
    const messages = await lint(
      'app/data/wrong-layer.server.ts',
      "import { renderInvoicePdf } from '~/services/invoice.server'\nexport const render = renderInvoicePdf\n",
    )
    expect(ruleIds(messages)).toContain('import-x/no-restricted-paths')
  })

  it('refuses app/data queueing mail through the job outbox', async () => {
    const messages = await lint(
      'app/data/wrong-layer.server.ts',
      "import { enqueueJob } from '~/lib/jobs.server'\nexport const queue = enqueueJob\n",
    )
    expect(messages.find((m) => m.ruleId === 'import-x/no-restricted-paths')?.message).toMatch(
      /app\/data sends and queues no mail/,
    )
  })

  it('refuses a component that imports a *.server module', async () => {
    const messages = await lint(
      'app/components/shop/wrong-layer.tsx',
      "import { services } from '~/lib/app-context.server'\nexport const open = services\n",
    )
    expect(ruleIds(messages)).toContain('import-x/no-restricted-paths')
  })

  it("refuses a route that imports another route folder's helper", async () => {
    const messages = await lint(
      'app/routes/admin/orders/wrong-layer.ts',
      "import { imagePreviewUrl } from '../products/product-form.server'\nexport const preview = imagePreviewUrl\n",
    )
    expect(ruleIds(messages)).toContain('import-x/no-restricted-paths')
  })

  it('refuses an import cycle', async () => {
    // app/lib/payments/paytm.server.ts imports app/lib/money.ts: importing it back closes a loop.
    const messages = await lint(
      'app/lib/money.ts',
      "import { PAYTM_STAGING_DEFAULTS } from './payments/paytm.server'\nexport const defaults = PAYTM_STAGING_DEFAULTS\n",
    )
    expect(ruleIds(messages)).toContain('import-x/no-cycle')
  })
})
