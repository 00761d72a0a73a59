import { Input } from '~/components/ui/input'
import { ImageUploader } from '../image-uploader'
import { fieldId, ProductFieldRow, Section } from './parts'
import type { ProductFormState } from './use-product-form'

/** The product image (uploaded as it is chosen; with the form without JavaScript) and the buy now link. */
export function MediaSection({ form, savedImage }: { form: ProductFormState; savedImage: string }) {
  const { errors, image, hydrated, textProps } = form
  return (
    <Section id="section-media" title="Media & Links">
      <ProductFieldRow
        name="image"
        label="Product image"
        required
        error={errors.image}
        wide
        hint="JPEG, PNG or WebP, up to 5 MB. Shown cropped to 4:3."
      >
        <input type="hidden" name="image" value={image.value} />
        <ImageUploader
          id={fieldId('image')}
          value={image.value}
          previewUrl={image.preview}
          savedValue={savedImage}
          error={errors.image}
          describedBy=""
          hydrated={hydrated}
          onChange={form.chooseImage}
          onError={form.setImageError}
          onBusyChange={form.setUploading}
        />
      </ProductFieldRow>
      <ProductFieldRow
        name="buyNowLink"
        label="Buy now link"
        error={errors.buyNowLink}
        wide
        hint="Optional. Leave it empty to sell through this shop's own checkout; a link sends buyers to that address instead, bypassing this shop's payment and delivery."
      >
        <Input
          {...textProps('buyNowLink')}
          surface="admin"
          type="url"
          inputMode="url"
          placeholder="https://"
        />
      </ProductFieldRow>
    </Section>
  )
}
