import { data } from 'react-router'

/**
 * The one way an action reads its form. A body that is not a form (JSON, plain text, a broken
 * multipart envelope) is the sender's mistake, answered 415 or 400 in plain words instead of
 * an exception; text with a NUL character is refused here too, because PostgreSQL refuses it
 * (urlencoded and JSON bodies are already checked at the edge, server/request-guard.ts; a
 * multipart body can only be checked once parsed). The body's size is limited at the edge.
 */
export const FORM_MESSAGES = {
  notAForm: 'This address accepts a submitted form only.',
  unreadable: 'The submitted form could not be read. Please try again.',
  nul: 'The form contains a character that is not allowed (a NUL byte).',
} as const

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

export function isFormContentType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  return FORM_TYPES.includes(type)
}

/**
 * Whether a loader is running to render the page that answers a form post: after a document
 * post's action, React Router runs the loaders with the post's headers (as a GET). A browser's
 * own GET sends no form Content-Type, so a route that only answers posts can tell the two apart.
 */
export function rendersPostAnswer(request: Request): boolean {
  return isFormContentType(request.headers.get('content-type'))
}

/** Whether any field's name, text or file name holds a NUL character. */
export function formHasNul(form: FormData): boolean {
  for (const [name, value] of form.entries()) {
    const text = typeof value === 'string' ? value : value.name
    if (name.includes('\0') || text.includes('\0')) return true
  }
  return false
}

export async function readFormData(request: Request): Promise<FormData> {
  if (!isFormContentType(request.headers.get('content-type'))) {
    throw data(FORM_MESSAGES.notAForm, { status: 415 })
  }
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    throw data(FORM_MESSAGES.unreadable, { status: 400 })
  }
  if (formHasNul(form)) throw data(FORM_MESSAGES.nul, { status: 400 })
  return form
}
