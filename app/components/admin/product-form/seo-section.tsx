import { META_DESCRIPTION_ADVISED, META_TITLE_ADVISED } from '~/lib/validation/product'
import { Counter, Section } from './parts'
import { ProductTextRow } from './text-row'
import type { ProductFormState } from './use-product-form'

/** Meta title and description with their advised lengths counted, and the keywords. */
export function SeoSection({ form }: { form: ProductFormState }) {
  const { values, described } = form
  return (
    <Section
      id="section-seo"
      title="SEO Settings"
      description="How the product appears in search results and link previews. Empty fields fall back to the title and short description."
    >
      {(
        [
          ['metaTitle', 'Meta title', META_TITLE_ADVISED, undefined],
          ['metaDescription', 'Meta description', META_DESCRIPTION_ADVISED, 3],
        ] as const
      ).map(([name, label, advised, rows]) => (
        <ProductTextRow
          key={name}
          form={form}
          name={name}
          label={label}
          wide
          rows={rows}
          extra={
            <Counter id={`product-${name}-count`} length={values[name].length} advised={advised} />
          }
          hint={`Up to ${advised} characters show in search results.`}
          aria-describedby={described(name, `product-${name}-count`)}
        />
      ))}
      <ProductTextRow
        form={form}
        name="keywords"
        label="Keywords"
        wide
        hint="Separate keywords with commas."
      />
    </Section>
  )
}
