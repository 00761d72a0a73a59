import type { Submission } from '@conform-to/react'
import { data } from 'react-router'
import type { AuthFormResult } from '~/components/auth/auth-forms'
import { tooManyAttemptsMessage } from '~/lib/rate-limit.server'

/**
 * The answers of the forms that carry a password (log in, sign up, set a new password): the
 * submission sent back without its passwords, which are never put back into the page, with a
 * message about the whole form where there is one.
 */
export function passwordReplies(submission: Submission<unknown>, hideFields: string[]) {
  const reply = (formError?: string) =>
    submission.reply({ hideFields, ...(formError ? { formErrors: [formError] } : {}) })
  return {
    /** The fields' own errors (400). */
    invalid: () => data<AuthFormResult>({ result: reply() }, { status: 400 }),
    /** Refused with a message, at the given status. */
    refused: (message: string, status: number) =>
      data<AuthFormResult>({ result: reply(message) }, { status }),
    /** A rate limit: 429 with when to try again. */
    tooMany: (retryAfterSeconds: number) =>
      data<AuthFormResult>(
        { result: reply(tooManyAttemptsMessage(retryAfterSeconds)) },
        { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
      ),
  }
}
