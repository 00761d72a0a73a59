import type { SubmissionResult } from '@conform-to/react'
import { data, redirect } from 'react-router'
import { services } from '~/lib/app-context.server'
import { flashHeaders } from '~/lib/flash.server'
import { clientIp } from '~/lib/rate-limit.server'
import { invalidLinesText, invalidStockLines, lineWords } from '~/lib/stock-import.server'
import { detectStockFormat, StockImportError, type StockFormat } from '~/lib/stock-parse'
import { readLimitedFormData, UploadError } from '~/lib/uploads.server'
import {
  productNames,
  STOCK_IMPORT_MAX_BYTES,
  STOCK_MESSAGES,
  stockActionSchema,
  type StockImportSummary,
} from '~/lib/validation/stock-import'
import { parseSubmission } from '~/lib/validation/submission'
import { importStockAudited, revokeStockItemAudited } from '~/services/product-admin.server'
import { requireEditableProduct } from './product-form.server'
import { pageUrl } from './stock-paths'
import type { Route } from './+types/stock'

/** Room for the multipart envelope and the other fields around a 5 MB file. */
const FORM_OVERHEAD_BYTES = 64 * 1024
/** Pasted text longer than this is not sent back into the page after a refused import. */
const ECHO_MAX_CHARS = 100_000

/** The import form's answer: Conform's reply, and the summary when items were imported. */
export interface ImportAnswer {
  intent: 'import'
  result: SubmissionResult<string[]>
  summary: StockImportSummary | null
  /** The lines an import left out, with why (invalidLinesText); null when none. */
  skipped: string | null
  /**
   * "These are test items" as posted, ticked again on a refused import: without JavaScript the
   * page is drawn anew, and a corrected paste must not go in as real items (docs/delivery.md).
   */
  testItems: boolean
}

/**
 * A refused import that added nothing: its duplicates and invalid lines, each with why
 * ("Nothing was added. 2 duplicates skipped: lines 1 and 2 repeat items ...").
 */
function nothingAddedMessage(summary: StockImportSummary, skipped: string | null): string {
  const sentences = ['Nothing was added.']
  if (summary.duplicates > 0) {
    const lines = lineWords(summary.duplicateLines, summary.duplicates)
    sentences.push(
      summary.duplicates === 1
        ? `1 duplicate skipped: ${lines} repeats an item this product has or had, or an earlier line.`
        : `${summary.duplicates.toLocaleString('en-IN')} duplicates skipped: ${lines} repeat items this product has or had, or earlier lines.`,
    )
  }
  if (summary.elsewhere > 0) sentences.push(`${elsewhereSentence(summary)}.`)
  if (skipped) sentences.push(`${skipped}.`)
  return sentences.join(' ')
}

/**
 * "2 items skipped: lines 3 and 4 are already in stock under StreamVerse Premium 1 Month (each
 * item is sold to one buyer only)": items another product holds (docs/delivery.md).
 */
export function elsewhereSentence(summary: StockImportSummary): string {
  const lines = lineWords(summary.elsewhereLines, summary.elsewhere)
  const verb = summary.elsewhere === 1 ? 'is' : 'are'
  return `${summary.elsewhere === 1 ? '1 item' : `${summary.elsewhere.toLocaleString('en-IN')} items`} skipped: ${lines} ${verb} already in stock under ${productNames(summary)} (each item is sold to one buyer only)`
}

/** invalidLinesText of an import's content, when some lines were left out. */
function skippedText(summary: StockImportSummary, content: string, format: StockFormat) {
  return summary.invalid > 0 ? invalidLinesText(invalidStockLines(content, format)) : null
}

/**
 * The stock page's action: import (pasted lines or a file) or revoke one item, told apart by
 * the form's intent with one schema (`stockActionSchema`).
 */
export async function stockAction({ request, params, context }: Route.ActionArgs) {
  const { user, product } = await requireEditableProduct(request, params.id)
  const { db, env } = services()
  const who = { actor: user, ip: clientIp(context) }

  let testItems = false
  const answer = (status: number, result: SubmissionResult<string[]>) =>
    data<ImportAnswer>(
      { intent: 'import', result, summary: null, skipped: null, testItems },
      { status },
    )

  let form: FormData
  try {
    form = await readLimitedFormData(request, STOCK_IMPORT_MAX_BYTES + FORM_OVERHEAD_BYTES)
  } catch (error) {
    if (error instanceof UploadError) {
      const message = error.status === 413 ? STOCK_MESSAGES.tooLarge : STOCK_MESSAGES.unreadable
      return answer(error.status === 413 ? 413 : 400, { status: 'error', error: { '': [message] } })
    }
    throw error
  }
  const intent = form.get('intent')
  if (intent !== 'import' && intent !== 'revoke') throw data('Unknown action', { status: 400 })
  // Real unless the admin says otherwise: test mode never sells real items (docs/delivery.md).
  testItems = form.get('testItems') === 'yes'

  const submission = parseSubmission(form, stockActionSchema)
  const pasted = typeof form.get('content') === 'string' ? String(form.get('content')) : ''
  // The file never comes back into the page, nor pasted text too long to echo.
  const hideFields = pasted.length <= ECHO_MAX_CHARS ? ['file'] : ['file', 'content']
  const refuse = (status: number, message: string, field: 'content' | 'file' | null) =>
    answer(
      status,
      submission.reply({
        hideFields,
        ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
      }),
    )

  if (submission.status !== 'success') {
    const messages = Object.values(submission.error ?? {}).flat()
    return answer(
      messages.includes(STOCK_MESSAGES.tooLarge) ? 413 : 400,
      submission.reply({ hideFields }),
    )
  }
  const input = submission.value

  if (input.intent === 'revoke') {
    const back = { status: input.status, page: input.page }
    // Without JavaScript there was no dialog yet: ask on the page first.
    if (input.confirmed !== 'yes') {
      throw redirect(pageUrl(product.id, { ...back, confirmRevoke: input.itemId }))
    }
    const result = await revokeStockItemAudited(
      db,
      {
        itemId: input.itemId,
        productId: product.id,
        productTitle: product.title,
        reason: `by ${user.email} on the stock page`,
      },
      who,
    )
    const headers = result.revoked
      ? await flashHeaders('success', STOCK_MESSAGES.revoked)
      : await flashHeaders(
          'error',
          result.status === null ? STOCK_MESSAGES.revokeMissing : STOCK_MESSAGES.revokeNotAvailable,
        )
    throw redirect(pageUrl(product.id, back), { headers })
  }

  const { file } = input
  let content = input.content
  let format: 'lines' | 'csv' = 'lines'
  if (file) {
    try {
      content = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer())
    } catch {
      return refuse(400, STOCK_MESSAGES.notText, 'file')
    }
    format = detectStockFormat(file.name)
  }

  try {
    const summary = await importStockAudited(
      db,
      {
        productId: product.id,
        productTitle: product.title,
        content,
        format,
        appSecret: env.APP_SECRET,
        addedBy: `user:${user.id}`,
        testItems,
      },
      who,
    )
    if (summary.added + summary.duplicates + summary.elsewhere + summary.invalid === 0) {
      return refuse(400, STOCK_MESSAGES.empty, file ? 'file' : 'content')
    }
    const skipped = skippedText(summary, content, format)
    // Nothing added is refused like a mistake: the text stays to be corrected.
    if (summary.added === 0) {
      return refuse(400, nothingAddedMessage(summary, skipped), file ? 'file' : 'content')
    }
    // A successful import empties the form (the test-items box included).
    return data<ImportAnswer>({
      intent: 'import',
      result: submission.reply({ resetForm: true }),
      summary,
      skipped,
      testItems: false,
    })
  } catch (error) {
    if (error instanceof StockImportError) {
      return refuse(400, error.message, file ? 'file' : 'content')
    }
    console.error(`[admin] importing stock for product ${product.id} failed:`, error)
    return refuse(500, STOCK_MESSAGES.failed, null)
  }
}
