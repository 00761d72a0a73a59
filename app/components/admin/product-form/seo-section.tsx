import { Input, Textarea } from '~/components/ui/input'
import { META_DESCRIPTION_ADVISED, META_TITLE_ADVISED } from '~/lib/validation/product'
import { Counter, ProductFieldRow, Section } from './parts'
import type { ProductFormState } from './use-product-form'

/** Meta title and description with their advised lengths counted, and the keywords. */
export function SeoSection({ form }: { form: ProductFormState }) {
  const { values, errors, textProps, described } = form
  return (
    <Section
      id="section-seo"
      title="SEO Settings"
      description="How the product appears in search results and link previews. Empty fields fall back to the title and short description."
    >
      <ProductFieldRow
        name="metaTitle"
        label="Meta title"
        error={errors.metaTitle}
        wide
        extra={
          <Counter
            id="product-metaTitle-count"
            length={values.metaTitle.length}
            advised={META_TITLE_ADVISED}
          />
        }
        hint={`Up to ${META_TITLE_ADVISED} characters show in search results.`}
      >
        <Input
          {...textProps('metaTitle')}
          aria-describedby={described('metaTitle', 'product-metaTitle-count')}
          surface="admin"
          type="text"
        />
      </ProductFieldRow>
      <ProductFieldRow
        name="metaDescription"
        label="Meta description"
        error={errors.metaDescription}
        wide
        extra={
          <Counter
            id="product-metaDescription-count"
            length={values.metaDescription.length}
            advised={META_DESCRIPTION_ADVISED}
          />
        }
        hint={`Up to ${META_DESCRIPTION_ADVISED} characters show in search results.`}
      >
        <Textarea
          {...textProps('metaDescription')}
          aria-describedby={described('metaDescription', 'product-metaDescription-count')}
          surface="admin"
          rows={3}
          className="py-2.5"
        />
      </ProductFieldRow>
      <ProductFieldRow
        name="keywords"
        label="Keywords"
        error={errors.keywords}
        wide
        hint="Separate keywords with commas."
      >
        <Input {...textProps('keywords')} surface="admin" type="text" />
      </ProductFieldRow>
    </Section>
  )
}
