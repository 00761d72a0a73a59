import Plus from 'lucide-react/icons/plus'
import X from 'lucide-react/icons/x'
import { Button } from '~/components/ui/button'
import { FieldError, FieldHint } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { fieldId, Section } from './parts'
import type { ProductFormState } from './use-product-form'

/**
 * The "What you get" list: features added by button or Enter, edited in place and removed.
 * Without JavaScript the "New feature" box is itself one of the submitted features.
 */
export function FeaturesSection({ form }: { form: ProductFormState }) {
  const { features, errors, hydrated } = form
  const newFeatureId = fieldId('newFeature')
  return (
    <Section
      id="section-features"
      title="What You Get Features"
      grid={false}
      description="The list under “What you get” on the product page. Edit a feature in place; empty ones are dropped."
    >
      {features.length ? (
        <ol className="mt-5 space-y-2" aria-label="Features">
          {features.map((feature, index) => (
            <li key={index} className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className="w-6 shrink-0 text-right text-sm tabular-nums text-slate-500 dark:text-slate-400"
              >
                {index + 1}.
              </span>
              <Input
                surface="admin"
                type="text"
                name="features"
                value={feature}
                aria-label={`Feature ${index + 1}`}
                maxLength={200}
                onChange={(event) => form.editFeature(index, event.currentTarget.value)}
                onKeyDown={(event) => {
                  // Enter here would submit the whole form.
                  if (event.key === 'Enter') event.preventDefault()
                }}
              />
              <Button
                variant="ghost"
                onClick={() => form.removeFeature(index)}
                aria-label={`Remove feature ${index + 1}: ${feature}`}
                className="size-11 shrink-0 px-0 text-slate-500 hover:bg-rose-50 hover:text-rose-700 dark:text-slate-400 dark:hover:bg-rose-950 dark:hover:text-rose-400"
              >
                <X aria-hidden="true" className="size-5" />
              </Button>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-5 text-sm text-slate-500 dark:text-slate-400">No features yet.</p>
      )}
      <div className="mt-4 space-y-1.5">
        <label
          htmlFor={newFeatureId}
          className="block text-sm font-medium text-slate-800 dark:text-slate-200"
        >
          New feature
        </label>
        <div className="flex gap-2">
          <Input
            id={newFeatureId}
            surface="admin"
            type="text"
            // Without JavaScript each save adds the one typed here.
            name={hydrated ? undefined : 'features'}
            value={form.newFeature}
            maxLength={200}
            placeholder="e.g. 4K Ultra HD streaming"
            aria-invalid={errors.features ? true : undefined}
            aria-describedby={errors.features ? 'product-features-error' : `${newFeatureId}-hint`}
            onChange={(event) => form.setNewFeature(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return
              event.preventDefault()
              form.addTypedFeature()
            }}
          />
          {hydrated ? (
            <Button
              onClick={form.addTypedFeature}
              className="shrink-0 gap-1.5 bg-slate-900 text-white shadow-none hover:bg-slate-800 dark:bg-slate-100 dark:text-slate-900 dark:hover:bg-white"
            >
              <Plus aria-hidden="true" className="size-4" />
              Add
            </Button>
          ) : null}
        </div>
        {errors.features ? (
          <FieldError id="product-features-error" icon>
            {errors.features}
          </FieldError>
        ) : (
          <FieldHint id={`${newFeatureId}-hint`}>Press Enter or Add.</FieldHint>
        )}
      </div>
    </Section>
  )
}
