import type { z } from 'zod'
import { parseSubmission } from '~/lib/validation/submission'
import { gatewayFormData, gatewaySchema } from '~/lib/validation/gateway'

/**
 * Submits plain values to a form schema the way the browser and the action do (as FormData,
 * through Conform) and answers with the parsed value or the first message per field, as the
 * form shows them ('form' for the whole form's).
 */
export function submitForm<Schema extends z.ZodType>(
  schema: Schema,
  values: Record<string, string | undefined>,
): { data: z.output<Schema>; errors: null } | { data: null; errors: Record<string, string> } {
  const formData = new FormData()
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) formData.append(name, value)
  }
  const submission = parseSubmission(formData, schema)
  if (submission.status === 'success') return { data: submission.value, errors: null }
  const errors: Record<string, string> = {}
  for (const [name, messages] of Object.entries(submission.error ?? {})) {
    const first = messages?.[0]
    if (first) errors[name === '' ? 'form' : name] = first
  }
  return { data: null, errors }
}

/**
 * The admin's gateway form as saveGateway takes it: the values parsed as the form's action
 * parses them, throwing on any field the schema refuses (a test's values are meant to be valid).
 */
export function gatewayForm(values: Record<string, string>) {
  const parsed = submitForm(gatewaySchema, values)
  if (parsed.errors) throw new Error(JSON.stringify(parsed.errors))
  return gatewayFormData(parsed.data)
}
