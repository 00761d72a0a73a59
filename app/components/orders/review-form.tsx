import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { FormAlert, FormErrors, TextareaField, TextField, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { FieldError } from '~/components/ui/field'
import { REVIEW_BODY_MIN, REVIEW_EDIT_DAYS, reviewSchema } from '~/lib/validation/review'

/**
 * The buyer's review of a delivered order, on the order page: stars (1 to 5, radio buttons), an
 * optional title and the text. A plain form post; with JavaScript it is checked before it is
 * sent. Shown again filled in while the review can still be changed.
 */
export interface ReviewFormView {
  rating: number
  title: string
  body: string
}

const STAR_LABELS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'] as const

export function ReviewForm({
  existing,
  lastResult,
}: {
  existing: ReviewFormView | null
  lastResult: SubmissionResult<string[]> | null | undefined
}) {
  const [form, fields] = useAppForm({
    id: 'review-form',
    schema: reviewSchema,
    lastResult,
    defaultValue: existing
      ? { rating: String(existing.rating), title: existing.title, body: existing.body }
      : undefined,
  })
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'review'
  const ratingError = fields.rating.errors?.[0]
  const chosen = String(fields.rating.value ?? fields.rating.initialValue ?? '')
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="mt-4 space-y-4">
      <input type="hidden" name="intent" value="review" />
      <FormErrors id={form.errorId} errors={form.errors} />
      {/* A radio group (not a plain group) may be marked invalid, so its error is announced. */}
      <fieldset
        role="radiogroup"
        aria-invalid={ratingError ? true : undefined}
        aria-describedby={ratingError ? `${fields.rating.id}-error` : undefined}
      >
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">
          Your rating
        </legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {[5, 4, 3, 2, 1].map((stars) => (
            <label
              key={stars}
              className="inline-flex cursor-pointer items-center gap-2 rounded-xl border border-slate-300 px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 dark:border-slate-600 dark:has-[:checked]:bg-brand-950"
            >
              <input
                type="radio"
                name={fields.rating.name}
                value={String(stars)}
                defaultChecked={chosen === String(stars)}
                id={stars === 5 ? fields.rating.id : undefined}
                className="size-4 accent-brand-600"
              />
              <span aria-hidden="true" className="text-amber-500">
                {'★'.repeat(stars)}
              </span>
              <span className="text-slate-800 dark:text-slate-100">
                {stars} {stars === 1 ? 'star' : 'stars'}
                <span className="sr-only">, {STAR_LABELS[stars]}</span>
              </span>
            </label>
          ))}
        </div>
        {ratingError ? (
          <FieldError id={`${fields.rating.id}-error`} className="mt-1.5">
            {ratingError}
          </FieldError>
        ) : null}
      </fieldset>
      <TextField label="Title (optional)" field={fields.title} />
      <TextareaField
        label="Your review"
        field={fields.body}
        rows={5}
        hint={`What did you buy it for, and how did it work? At least ${REVIEW_BODY_MIN} characters. Your first name and last initial are shown with it.`}
      />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        You can change your review for {REVIEW_EDIT_DAYS} days after you write it.
      </p>
      <Button type="submit" pending={busy} pendingLabel="Saving…">
        {existing ? 'Save changes' : 'Publish review'}
      </Button>
    </Form>
  )
}

export function ReviewSaved({ created }: { created: boolean }) {
  return (
    <FormAlert tone="success" className="mt-3">
      {created ? 'Thank you! Your review is published.' : 'Your review was updated.'}
    </FormAlert>
  )
}
