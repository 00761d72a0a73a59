import { Input, Select } from '~/components/ui/input'
import { slugify } from '~/lib/slug'
import { maxLengthOf, ProductFieldRow, Section } from './parts'
import { ProductTextRow } from './text-row'
import type { ProductFormState } from './use-product-form'

/** Title, slug (following the title), category, tags and the two descriptions. */
export function BasicSection({ form }: { form: ProductFormState }) {
  const { values, errors, textProps, categories } = form
  const slugPreview = values.slug ? slugify(values.slug) : slugify(values.title)
  return (
    <Section
      id="section-basic"
      title="Basic Information"
      description="What the product is, as buyers see it."
    >
      <ProductFieldRow name="title" label="Title" required error={errors.title} wide>
        <Input
          {...textProps('title')}
          surface="admin"
          type="text"
          aria-required="true"
          maxLength={maxLengthOf('title')}
          placeholder="e.g. StreamMax Premium 12 Months"
        />
      </ProductFieldRow>
      <ProductFieldRow
        name="slug"
        label="Slug"
        error={errors.slug}
        wide
        hint={
          <>
            Follows the title; edit it if you like. Preview:{' '}
            <code className="font-semibold text-slate-800 dark:text-slate-200">
              /product/{slugPreview || '…'}
            </code>
          </>
        }
      >
        <Input
          {...textProps('slug')}
          surface="admin"
          type="text"
          // The saved slug's limit; the schema lets longer text through for slugify to shorten.
          maxLength={200}
          spellCheck={false}
          autoCapitalize="none"
          className="font-mono text-sm"
        />
      </ProductFieldRow>
      <ProductFieldRow name="category" label="Category" required error={errors.category}>
        <Select {...textProps('category')} surface="admin" aria-required="true">
          {categories.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </ProductFieldRow>
      <ProductTextRow
        form={form}
        name="tags"
        label="Tags"
        hint="Separate tags with commas, e.g. 4K, family, no ads"
      />
      <ProductTextRow
        form={form}
        name="shortDescription"
        label="Short description"
        required
        wide
        rows={2}
        maxLength={maxLengthOf('shortDescription')}
        hint="One or two sentences for cards and previews."
      />
      <ProductTextRow
        form={form}
        name="description"
        label="Description"
        required
        wide
        rows={6}
        hint="The full description on the product page."
      />
    </Section>
  )
}
