import Boxes from 'lucide-react/icons/boxes'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import { Form, href, Link } from 'react-router'
import { FormAlert } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { cn } from '~/components/ui/cn'
import { PRODUCT_MESSAGES } from '~/lib/validation/product'
import { discardUpload } from './image-uploader'
import { BackLink, PageHeader } from './page-header'
import { AvailabilitySection } from './product-form/availability-section'
import { BasicSection } from './product-form/basic-section'
import { DeliverySection } from './product-form/delivery-section'
import { DetailsSection } from './product-form/details-section'
import { FeaturesSection } from './product-form/features-section'
import { MediaSection } from './product-form/media-section'
import { PricingSection } from './product-form/pricing-section'
import { SeoSection } from './product-form/seo-section'
import {
  useProductForm,
  type ProductFormInitial,
  type ProductFormResult,
  type SavedProductDelivery,
} from './product-form/use-product-form'

export type { ProductFormInitial, SavedProductDelivery } from './product-form/use-product-form'

export interface ProductFormProps {
  mode: 'add' | 'edit'
  categories: readonly string[]
  initial: ProductFormInitial
  /**
   * Edit only: the version of the product the form's values came from (productEditVersion in
   * app/services/product-admin.server.ts), posted as `version`; a save over a newer change is
   * refused.
   */
  version?: string | undefined
  /** The product's saved image (edit), which the form never deletes itself. */
  savedImage: string
  /** Edit only: whether a shared secret is saved, and the product's stock. */
  saved?: SavedProductDelivery | undefined
  /** From the action: Conform's reply (field errors, or a message for the whole form). */
  result?: ProductFormResult | undefined
}

/**
 * The product form of Add Product and Edit Product: its sections
 * (`./product-form/*-section.tsx`) share one state (`useProductForm`, on Conform), every rule
 * of the shared schema is checked before submitting (and again on the server). A plain
 * multipart POST form: it works without JavaScript.
 */
export function ProductForm({
  mode,
  categories,
  initial,
  version,
  savedImage,
  saved,
  result,
}: ProductFormProps) {
  const form = useProductForm({ initial, categories, saved, result })
  const isAdd = mode === 'add'
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...form.formProps}
      aria-labelledby="product-form-title"
      className="mx-auto max-w-6xl space-y-6"
    >
      <div className="space-y-3">
        <BackLink to={href('/admin/products')}>{PRODUCT_MESSAGES.backToProducts}</BackLink>
        <PageHeader
          titleId="product-form-title"
          title={isAdd ? 'Add New Product' : 'Edit Product'}
          description={
            isAdd
              ? 'Create a new product listing for your store. Fields marked * are required.'
              : `Update the listing of “${initial.title}”. Fields marked * are required.`
          }
        >
          {saved ? (
            <Link
              to={saved.stockUrl}
              className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'font-medium')}
            >
              <Boxes aria-hidden="true" className="size-4" />
              Manage stock
            </Link>
          ) : null}
        </PageHeader>
      </div>

      {form.formError ? <FormAlert>{form.formError}</FormAlert> : null}
      {!isAdd ? <input type="hidden" name="version" value={version ?? ''} /> : null}

      <BasicSection form={form} />
      <PricingSection form={form} />
      <MediaSection form={form} savedImage={savedImage} />
      <SeoSection form={form} />
      <AvailabilitySection form={form} />
      <DeliverySection form={form} />
      <FeaturesSection form={form} />
      <DetailsSection form={form} />

      <div className="sticky bottom-0 z-20 -mx-4 border-t border-slate-200 bg-white/95 backdrop-blur sm:-mx-6 sm:rounded-t-2xl sm:border-x lg:mx-0 dark:border-slate-800 dark:bg-slate-900/95">
        <div className="flex items-center justify-end gap-3 px-4 py-3 sm:px-6">
          {form.uploading ? (
            <p className="mr-auto text-sm text-slate-600 dark:text-slate-300">
              Wait for the image upload to finish.
            </p>
          ) : null}
          <Link
            to={href('/admin/products')}
            onClick={() => {
              // An image uploaded for this form but never saved goes with the cancelled form.
              if (form.image.value && form.image.value !== savedImage) {
                discardUpload(form.image.value)
              }
            }}
            className={cn(buttonVariants({ variant: 'outline', size: 'wide' }), 'font-medium')}
          >
            Cancel
          </Link>
          <Button
            type="submit"
            size="wide"
            disabled={form.uploading || form.submitting}
            className="disabled:opacity-60"
          >
            {form.submitting ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : null}
            {isAdd ? 'Create Product' : 'Update Product'}
          </Button>
        </div>
      </div>
    </Form>
  )
}
