import Boxes from 'lucide-react/icons/boxes'
import KeyRound from 'lucide-react/icons/key-round'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import Plus from 'lucide-react/icons/plus'
import X from 'lucide-react/icons/x'
import {
  useEffect,
  useState,
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { toast } from '~/components/ui/toast'
import { useHydrated } from '~/components/ui/use-hydrated'
import { slugify } from '~/lib/slug'
import {
  addFeature,
  discountFromInputs,
  META_DESCRIPTION_ADVISED,
  META_TITLE_ADVISED,
  parsePriceInput,
  parseProductForm,
  PRODUCT_FIELD_ORDER,
  PRODUCT_MESSAGES,
  productFormValues,
  SHARED_SECRET_MAX_LENGTH,
  type ProductDeliveryMode,
  type ProductField,
  type ProductFieldErrors,
} from '~/lib/validation/product'
import { adminButton } from './buttons'
import { adminInputClass, FieldError, FormError } from './form-parts'
import { discardUpload, ImageUploader } from './image-uploader'
import { BackLink, PageHeader } from './page-header'

/**
 * The product form of Add Product and Edit Product (spec sections 2 and 5): the seven sections,
 * every rule of the shared schema checked before submitting (and again on the server), the slug
 * following the title, the discount recomputed read-only, features added by button or Enter,
 * edited in place and removed. A plain multipart POST form: it works without JavaScript.
 */
export interface ProductFormInitial {
  title: string
  slug: string
  description: string
  shortDescription: string
  category: string
  tags: string
  price: string
  originalPrice: string
  image: string
  imagePreview: string | null
  buyNowLink: string
  metaTitle: string
  metaDescription: string
  keywords: string
  inStock: boolean
  featured: boolean
  features: string[]
  validity: string
  deliveryTime: string
  rating: string
  reviews: string
  deliveryMode: ProductDeliveryMode
  /** A new shared secret as typed; the saved one is never sent to the browser. */
  sharedSecret: string
  clearSharedSecret: boolean
}

type TextField = Exclude<
  keyof ProductFormInitial,
  | 'inStock'
  | 'featured'
  | 'features'
  | 'image'
  | 'imagePreview'
  | 'deliveryMode'
  | 'clearSharedSecret'
>

/** What the edit page knows about the saved product's delivery. */
export interface SavedProductDelivery {
  hasSharedSecret: boolean
  stockAvailable: number
  stockUrl: string
}

const DELIVERY_CHOICES: ReadonlyArray<{
  mode: ProductDeliveryMode
  label: string
  hint: string
}> = [
  {
    mode: 'stock',
    label: 'From stock',
    hint: 'Each order gets one item (an account or a key) from this product’s stock, delivered the moment the payment arrives. With no item left, the product shows Out of Stock.',
  },
  {
    mode: 'shared',
    label: 'Shared secret',
    hint: 'Every buyer gets the same secret, such as the login of a family plan.',
  },
  {
    mode: 'manual',
    label: 'Manual',
    hint: 'Paid orders wait for an admin to deliver them by hand.',
  },
]

export interface ProductFormProps {
  mode: 'add' | 'edit'
  categories: readonly string[]
  initial: ProductFormInitial
  /** The product's saved image (edit), which the form never deletes itself. */
  savedImage: string
  /** Edit only: whether a shared secret is saved, and the product's stock. */
  saved?: SavedProductDelivery | undefined
  /** From the action: field errors, or a message for the whole form. */
  result?: { errors?: ProductFieldErrors; formError?: string; at?: number } | undefined
}

const fieldId = (name: ProductField | 'newFeature') => `product-${name}`
const deliveryChoiceId = (mode: ProductDeliveryMode) => `${fieldId('deliveryMode')}-${mode}`

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string
  title: string
  description?: string
  children: ReactNode
}) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={id} className="text-lg font-semibold text-slate-950 dark:text-white">
        {title}
      </h2>
      {description ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>
      ) : null}
      <div className="mt-5 grid gap-5 md:grid-cols-2">{children}</div>
    </section>
  )
}

function Field({
  name,
  label,
  required,
  error,
  hint,
  extra,
  wide,
  children,
}: {
  name: ProductField
  label: string
  required?: boolean
  error?: string | undefined
  hint?: ReactNode
  /** Right of the label (counters). */
  extra?: ReactNode
  wide?: boolean
  children: ReactNode
}) {
  const id = fieldId(name)
  return (
    <div className={`space-y-1.5 ${wide ? 'md:col-span-2' : ''}`}>
      <div className="flex items-baseline justify-between gap-2">
        <p className="text-sm font-medium text-slate-800 dark:text-slate-200">
          <label htmlFor={id}>{label}</label>
          {/* Outside the label: the field's name stays "Title"; aria-required says the rest. */}
          {required ? (
            <span aria-hidden="true" className="text-rose-600">
              {' '}
              *
            </span>
          ) : null}
        </p>
        {extra}
      </div>
      {children}
      {error ? (
        <FieldError id={`${id}-error`}>{error}</FieldError>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

function Counter({ id, length, advised }: { id: string; length: number; advised: number }) {
  const over = length > advised
  return (
    <span
      id={id}
      className={`text-xs tabular-nums ${over ? 'font-semibold text-amber-700 dark:text-amber-400' : 'text-slate-500 dark:text-slate-400'}`}
    >
      {length}/{advised}
      {over ? (
        <span className="sr-only"> characters, more than advised</span>
      ) : (
        <span className="sr-only"> characters</span>
      )}
    </span>
  )
}

export function ProductForm({
  mode,
  categories,
  initial,
  savedImage,
  saved,
  result,
}: ProductFormProps) {
  const navigation = useNavigation()
  const hydrated = useHydrated()
  const [values, setValues] = useState(() => {
    const {
      inStock: _s,
      featured: _f,
      features: _fs,
      image: _i,
      imagePreview: _p,
      deliveryMode: _d,
      clearSharedSecret: _c,
      ...text
    } = initial
    return text as Record<TextField, string>
  })
  const [checks, setChecks] = useState({ inStock: initial.inStock, featured: initial.featured })
  const [deliveryMode, setDeliveryMode] = useState(initial.deliveryMode)
  const [clearSecret, setClearSecret] = useState(initial.clearSharedSecret)
  const [features, setFeatures] = useState<string[]>(initial.features)
  const [newFeature, setNewFeature] = useState('')
  const [image, setImage] = useState({ value: initial.image, preview: initial.imagePreview })
  const [uploading, setUploading] = useState(false)
  const [errors, setErrors] = useState<ProductFieldErrors>(result?.errors ?? {})
  const submitting =
    navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST'

  // A new answer from the server: its field errors replace ours (set while rendering, as
  // React advises for state derived from props); focus and a failure toast follow it.
  const [answered, setAnswered] = useState(result)
  if (result !== answered) {
    setAnswered(result)
    if (result?.errors) setErrors(result.errors)
  }
  useEffect(() => {
    if (!result) return
    if (result.errors) focusFirstInvalid(result.errors)
    if (result.formError) toast.error(result.formError)
  }, [result])

  function focusFirstInvalid(found: ProductFieldErrors) {
    const first = PRODUCT_FIELD_ORDER.find((name) => found[name])
    if (!first) return
    const target =
      first === 'deliveryMode'
        ? (document.querySelector<HTMLInputElement>('input[name="deliveryMode"]:checked') ??
          document.getElementById(deliveryChoiceId('stock')))
        : document.getElementById(first === 'features' ? fieldId('newFeature') : fieldId(first))
    target?.focus()
  }

  function clearError(...names: ProductField[]) {
    setErrors((current) => {
      if (!names.some((name) => current[name])) return current
      const next = { ...current }
      for (const name of names) delete next[name]
      return next
    })
  }

  function setText(name: TextField) {
    return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      const value = event.currentTarget.value
      setValues((current) => {
        // Changing the title regenerates the slug (spec section 5).
        if (name === 'title') return { ...current, title: value, slug: slugify(value) }
        return { ...current, [name]: value }
      })
      clearError(name, ...(name === 'title' ? (['slug'] as const) : []))
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (uploading) {
      event.preventDefault()
      return
    }
    const parsed = parseProductForm(
      productFormValues(new FormData(event.currentTarget)),
      categories,
      { hasSavedSharedSecret: saved?.hasSharedSecret ?? false },
    )
    if (parsed.errors) {
      event.preventDefault()
      setErrors(parsed.errors)
      focusFirstInvalid(parsed.errors)
      return
    }
    setErrors({})
  }

  function addTypedFeature() {
    const next = addFeature(features, newFeature)
    if (next.length === features.length) return
    setFeatures(next)
    setNewFeature('')
    clearError('features')
  }

  const described = (name: ProductField, ...more: string[]) =>
    [errors[name] ? `${fieldId(name)}-error` : `${fieldId(name)}-hint`, ...more].join(' ')
  const textProps = (name: TextField) => ({
    id: fieldId(name),
    name,
    value: values[name],
    onChange: setText(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': described(name),
  })

  const discount = discountFromInputs(values.price, values.originalPrice)
  const price = parsePriceInput(values.price)
  const original = parsePriceInput(values.originalPrice)
  const priceAboveOriginal = 'paise' in price && 'paise' in original && price.paise > original.paise
  const slugPreview = values.slug ? slugify(values.slug) : slugify(values.title)
  const isAdd = mode === 'add'
  // Without JavaScript every delivery control is on the page; with it, only the chosen mode's.
  const showSecretField = !hydrated || deliveryMode === 'shared'
  const hasBuyNowLink = values.buyNowLink.trim() !== ''
  const stockCount = new Intl.NumberFormat('en-IN').format(saved?.stockAvailable ?? 0)

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="product-form-title"
      className="mx-auto max-w-6xl space-y-6"
    >
      <div className="space-y-3">
        <BackLink to="/admin/products">{PRODUCT_MESSAGES.backToProducts}</BackLink>
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
            <Link to={saved.stockUrl} className={adminButton.small}>
              <Boxes aria-hidden="true" className="size-4" />
              Manage stock
            </Link>
          ) : null}
        </PageHeader>
      </div>

      {result?.formError ? <FormError>{result.formError}</FormError> : null}

      <Section
        id="section-basic"
        title="Basic Information"
        description="What the product is, as buyers see it."
      >
        <Field name="title" label="Title" required error={errors.title} wide>
          <input
            {...textProps('title')}
            type="text"
            aria-required="true"
            maxLength={200}
            placeholder="e.g. StreamMax Premium 12 Months"
            className={`${adminInputClass} h-11`}
          />
        </Field>
        <Field
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
          <input
            {...textProps('slug')}
            type="text"
            maxLength={200}
            spellCheck={false}
            autoCapitalize="none"
            className={`${adminInputClass} h-11 font-mono text-sm`}
          />
        </Field>
        <Field name="category" label="Category" required error={errors.category}>
          <select
            {...textProps('category')}
            aria-required="true"
            className={`${adminInputClass} h-11`}
          >
            {categories.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          name="tags"
          label="Tags"
          error={errors.tags}
          hint="Separate tags with commas, e.g. 4K, family, no ads"
        >
          <input {...textProps('tags')} type="text" className={`${adminInputClass} h-11`} />
        </Field>
        <Field
          name="shortDescription"
          label="Short description"
          required
          error={errors.shortDescription}
          wide
          hint="One or two sentences for cards and previews."
        >
          <textarea
            {...textProps('shortDescription')}
            aria-required="true"
            rows={2}
            maxLength={500}
            className={`${adminInputClass} py-2.5`}
          />
        </Field>
        <Field
          name="description"
          label="Description"
          required
          error={errors.description}
          wide
          hint="The full description on the product page."
        >
          <textarea
            {...textProps('description')}
            aria-required="true"
            rows={6}
            className={`${adminInputClass} py-2.5`}
          />
        </Field>
      </Section>

      <Section
        id="section-pricing"
        title="Pricing"
        description="In rupees; paise are allowed (499.50)."
      >
        <Field
          name="price"
          label="Price (₹)"
          required
          error={errors.price}
          hint="What the buyer pays."
        >
          <input
            {...textProps('price')}
            type="number"
            inputMode="decimal"
            min="0"
            step="0.01"
            aria-required="true"
            className={`${adminInputClass} h-11`}
          />
        </Field>
        <Field
          name="originalPrice"
          label="Original price (₹)"
          required
          error={errors.originalPrice}
          hint="Shown struck through."
        >
          <input
            {...textProps('originalPrice')}
            type="number"
            inputMode="decimal"
            min="0"
            step="0.01"
            aria-required="true"
            className={`${adminInputClass} h-11`}
          />
        </Field>
        <div className="space-y-1.5">
          <label
            htmlFor="product-discount"
            className="block text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            Discount (%)
          </label>
          <input
            id="product-discount"
            type="text"
            readOnly
            value={`${discount}%`}
            aria-describedby="product-discount-hint"
            className={`${adminInputClass} h-11 bg-slate-100 font-semibold dark:bg-slate-800`}
          />
          <p
            id="product-discount-hint"
            className={`text-xs ${priceAboveOriginal ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-slate-600 dark:text-slate-400'}`}
          >
            {priceAboveOriginal
              ? 'The price is above the original price, so no discount is shown.'
              : 'Calculated from the two prices.'}
          </p>
        </div>
      </Section>

      <Section id="section-media" title="Media & Links">
        <Field
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
            onChange={(value, preview) => {
              setImage({ value, preview })
              clearError('image')
            }}
            onError={(message) =>
              setErrors((current) => {
                const next = { ...current }
                if (message) next.image = message
                else delete next.image
                return next
              })
            }
            onBusyChange={setUploading}
          />
        </Field>
        <Field
          name="buyNowLink"
          label="Buy now link"
          error={errors.buyNowLink}
          wide
          hint="Optional. Leave it empty to sell through this shop's own checkout; a link sends buyers to that address instead, bypassing this shop's payment and delivery."
        >
          <input
            {...textProps('buyNowLink')}
            type="url"
            inputMode="url"
            placeholder="https://"
            className={`${adminInputClass} h-11`}
          />
        </Field>
      </Section>

      <Section
        id="section-seo"
        title="SEO Settings"
        description="How the product appears in search results and link previews. Empty fields fall back to the title and short description."
      >
        <Field
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
          <input
            {...textProps('metaTitle')}
            aria-describedby={described('metaTitle', 'product-metaTitle-count')}
            type="text"
            className={`${adminInputClass} h-11`}
          />
        </Field>
        <Field
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
          <textarea
            {...textProps('metaDescription')}
            aria-describedby={described('metaDescription', 'product-metaDescription-count')}
            rows={3}
            className={`${adminInputClass} py-2.5`}
          />
        </Field>
        <Field
          name="keywords"
          label="Keywords"
          error={errors.keywords}
          wide
          hint="Separate keywords with commas."
        >
          <input {...textProps('keywords')} type="text" className={`${adminInputClass} h-11`} />
        </Field>
      </Section>

      <Section id="section-availability" title="Availability & Visibility">
        {(
          [
            [
              'inStock',
              'In stock',
              'Shown as Active; buyers can order it. Off: Out of Stock and the buy button is disabled. A product delivered from stock is also out of stock while no item is left.',
            ],
            ['featured', 'Featured', 'Shown under Featured Premium Services on the home page.'],
          ] as const
        ).map(([name, label, hint]) => (
          <div
            key={name}
            className="flex items-start gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700"
          >
            <input
              id={fieldId(name)}
              type="checkbox"
              name={name}
              checked={checks[name]}
              onChange={(event) => {
                const checked = event.currentTarget.checked
                setChecks((current) => ({ ...current, [name]: checked }))
              }}
              aria-describedby={`${fieldId(name)}-hint`}
              className="mt-0.5 size-5 shrink-0 accent-brand-600"
            />
            <div>
              <label
                htmlFor={fieldId(name)}
                className="text-sm font-medium text-slate-900 dark:text-white"
              >
                {label}
              </label>
              <p
                id={`${fieldId(name)}-hint`}
                className="text-xs text-slate-600 dark:text-slate-400"
              >
                {hint}
              </p>
            </div>
          </div>
        ))}
      </Section>

      <section
        aria-labelledby="section-delivery"
        className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="section-delivery" className="text-lg font-semibold text-slate-950 dark:text-white">
          Delivery
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          What a buyer gets once the payment arrives, on their order page and by e-mail. A product
          with a buy now link sends buyers to that link instead and nothing is delivered here.
        </p>
        {hasBuyNowLink ? (
          <p
            role="note"
            className="mt-3 rounded-xl border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200"
          >
            This product has a buy now link: buyers go to that address, so the delivery chosen here
            applies only to orders placed through this shop.
          </p>
        ) : null}
        <fieldset
          className="mt-5"
          aria-invalid={errors.deliveryMode ? true : undefined}
          aria-describedby={errors.deliveryMode ? `${fieldId('deliveryMode')}-error` : undefined}
        >
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">
            Delivery mode
          </legend>
          <div className="mt-2 grid gap-3 md:grid-cols-3">
            {DELIVERY_CHOICES.map((choice) => (
              <div
                key={choice.mode}
                className={`flex items-start gap-3 rounded-xl border p-3 ${
                  deliveryMode === choice.mode
                    ? 'border-brand-500 bg-brand-50 dark:border-brand-400 dark:bg-brand-950/40'
                    : 'border-slate-200 dark:border-slate-700'
                }`}
              >
                <input
                  id={deliveryChoiceId(choice.mode)}
                  type="radio"
                  name="deliveryMode"
                  value={choice.mode}
                  checked={deliveryMode === choice.mode}
                  onChange={() => {
                    setDeliveryMode(choice.mode)
                    clearError('deliveryMode', 'sharedSecret')
                  }}
                  aria-describedby={`${deliveryChoiceId(choice.mode)}-hint`}
                  className="mt-0.5 size-5 shrink-0 accent-brand-600"
                />
                <div>
                  <label
                    htmlFor={deliveryChoiceId(choice.mode)}
                    className="text-sm font-medium text-slate-900 dark:text-white"
                  >
                    {choice.label}
                  </label>
                  <p
                    id={`${deliveryChoiceId(choice.mode)}-hint`}
                    className="text-xs text-slate-600 dark:text-slate-400"
                  >
                    {choice.hint}
                  </p>
                  {choice.mode === 'stock' && saved ? (
                    <p className="mt-1.5 text-xs">
                      <span className="font-semibold text-slate-800 dark:text-slate-200">
                        {stockCount} available.
                      </span>{' '}
                      <Link
                        to={saved.stockUrl}
                        className="font-medium text-brand-700 underline dark:text-brand-300"
                      >
                        Manage stock
                      </Link>
                    </p>
                  ) : null}
                </div>
              </div>
            ))}
          </div>
          {errors.deliveryMode ? (
            <FieldError id={`${fieldId('deliveryMode')}-error`} className="mt-1.5">
              {errors.deliveryMode}
            </FieldError>
          ) : null}
        </fieldset>

        {saved?.hasSharedSecret || showSecretField ? (
          <div className="mt-5 space-y-4 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
            {saved?.hasSharedSecret ? (
              <p className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
                <KeyRound
                  aria-hidden="true"
                  className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
                />
                <span>
                  <span className="font-semibold text-slate-900 dark:text-white">
                    A shared secret is saved.
                  </span>{' '}
                  It is stored encrypted and not shown here. Type a new one below to replace it.
                </span>
              </p>
            ) : null}
            {showSecretField ? (
              <Field
                name="sharedSecret"
                label={
                  saved?.hasSharedSecret ? 'New secret for every buyer' : 'Secret for every buyer'
                }
                required={deliveryMode === 'shared' && !saved?.hasSharedSecret}
                error={errors.sharedSecret}
                hint={
                  <>
                    Every buyer of this product sees this text on their order page, for example an
                    e-mail and a password on two lines. Changing it changes what every buyer sees,
                    past orders included.
                    {saved?.hasSharedSecret ? ' Leave it empty to keep the saved secret.' : ''}
                    {hydrated ? '' : ' Used only when Shared secret is chosen.'}
                  </>
                }
                wide
              >
                <textarea
                  {...textProps('sharedSecret')}
                  rows={3}
                  maxLength={SHARED_SECRET_MAX_LENGTH}
                  autoComplete="off"
                  spellCheck={false}
                  autoCapitalize="none"
                  aria-required={
                    deliveryMode === 'shared' && !saved?.hasSharedSecret ? 'true' : undefined
                  }
                  className={`${adminInputClass} py-2.5 font-mono text-sm`}
                />
              </Field>
            ) : null}
            {saved?.hasSharedSecret ? (
              <div className="flex items-start gap-3">
                <input
                  id={fieldId('clearSharedSecret')}
                  type="checkbox"
                  name="clearSharedSecret"
                  checked={clearSecret}
                  onChange={(event) => {
                    setClearSecret(event.currentTarget.checked)
                    clearError('sharedSecret')
                  }}
                  aria-describedby={`${fieldId('clearSharedSecret')}-hint`}
                  className="mt-0.5 size-5 shrink-0 accent-rose-600"
                />
                <div>
                  <label
                    htmlFor={fieldId('clearSharedSecret')}
                    className="text-sm font-medium text-slate-900 dark:text-white"
                  >
                    Clear the saved secret
                  </label>
                  <p
                    id={`${fieldId('clearSharedSecret')}-hint`}
                    className="text-xs text-slate-600 dark:text-slate-400"
                  >
                    Deletes it on save. A shared product needs a secret, so choose another mode or
                    type a new secret too.
                  </p>
                </div>
              </div>
            ) : null}
          </div>
        ) : null}
      </section>

      <section
        aria-labelledby="section-features"
        className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="section-features" className="text-lg font-semibold text-slate-950 dark:text-white">
          What You Get Features
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          The list under “What you get” on the product page. Edit a feature in place; empty ones are
          dropped.
        </p>
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
                <input
                  type="text"
                  name="features"
                  value={feature}
                  aria-label={`Feature ${index + 1}`}
                  maxLength={200}
                  onChange={(event) => {
                    const value = event.currentTarget.value
                    setFeatures((current) => current.map((item, i) => (i === index ? value : item)))
                    clearError('features')
                  }}
                  onKeyDown={(event) => {
                    // Enter here would submit the whole form.
                    if (event.key === 'Enter') event.preventDefault()
                  }}
                  className={`${adminInputClass} h-11`}
                />
                <button
                  type="button"
                  onClick={() => setFeatures((current) => current.filter((_, i) => i !== index))}
                  aria-label={`Remove feature ${index + 1}: ${feature}`}
                  className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl text-slate-500 hover:bg-rose-50 dark:text-slate-400 hover:text-rose-700 dark:hover:bg-rose-950 dark:hover:text-rose-400"
                >
                  <X aria-hidden="true" className="size-5" />
                </button>
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-5 text-sm text-slate-500 dark:text-slate-400">No features yet.</p>
        )}
        <div className="mt-4 space-y-1.5">
          <label
            htmlFor={fieldId('newFeature')}
            className="block text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            New feature
          </label>
          <div className="flex gap-2">
            <input
              id={fieldId('newFeature')}
              type="text"
              // Without JavaScript each save adds the one typed here.
              name={hydrated ? undefined : 'features'}
              value={newFeature}
              maxLength={200}
              placeholder="e.g. 4K Ultra HD streaming"
              aria-invalid={errors.features ? true : undefined}
              aria-describedby={
                errors.features ? 'product-features-error' : 'product-newFeature-hint'
              }
              onChange={(event) => setNewFeature(event.currentTarget.value)}
              onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
                if (event.key !== 'Enter') return
                event.preventDefault()
                addTypedFeature()
              }}
              className={`${adminInputClass} h-11`}
            />
            {hydrated ? (
              <button
                type="button"
                onClick={addTypedFeature}
                className="inline-flex h-11 shrink-0 items-center gap-1.5 rounded-xl bg-slate-900 px-4 font-semibold text-white hover:bg-slate-800 dark:bg-slate-100 dark:text-slate-900 dark:hover:bg-white"
              >
                <Plus aria-hidden="true" className="size-4" />
                Add
              </button>
            ) : null}
          </div>
          {errors.features ? (
            <FieldError id="product-features-error">{errors.features}</FieldError>
          ) : (
            <p id="product-newFeature-hint" className="text-xs text-slate-600 dark:text-slate-400">
              Press Enter or Add.
            </p>
          )}
        </div>
      </section>

      <Section id="section-details" title="Product Details">
        <Field
          name="validity"
          label="Validity"
          error={errors.validity}
          hint="e.g. 12 months, Lifetime"
        >
          <input
            {...textProps('validity')}
            type="text"
            maxLength={100}
            className={`${adminInputClass} h-11`}
          />
        </Field>
        <Field
          name="deliveryTime"
          label="Delivery time"
          error={errors.deliveryTime}
          hint="e.g. Instant delivery, 24 hours"
        >
          <input
            {...textProps('deliveryTime')}
            type="text"
            maxLength={100}
            className={`${adminInputClass} h-11`}
          />
        </Field>
        <Field
          name="rating"
          label="Rating"
          error={errors.rating}
          hint="0 to 5, shown with the stars."
        >
          <input
            {...textProps('rating')}
            type="number"
            inputMode="decimal"
            min="0"
            max="5"
            step="0.1"
            className={`${adminInputClass} h-11`}
          />
        </Field>
        <Field
          name="reviews"
          label="Reviews"
          error={errors.reviews}
          hint="The number of reviews shown."
        >
          <input
            {...textProps('reviews')}
            type="number"
            inputMode="numeric"
            min="0"
            step="1"
            className={`${adminInputClass} h-11`}
          />
        </Field>
      </Section>

      <div className="sticky bottom-0 z-20 -mx-4 border-t border-slate-200 bg-white/95 backdrop-blur sm:-mx-6 sm:rounded-t-2xl sm:border-x lg:mx-0 dark:border-slate-800 dark:bg-slate-900/95">
        <div className="flex items-center justify-end gap-3 px-4 py-3 sm:px-6">
          {uploading ? (
            <p className="mr-auto text-sm text-slate-600 dark:text-slate-300">
              Wait for the image upload to finish.
            </p>
          ) : null}
          <Link
            to="/admin/products"
            onClick={() => {
              // An image uploaded for this form but never saved goes with the cancelled form.
              if (image.value && image.value !== savedImage) discardUpload(image.value)
            }}
            className="inline-flex h-11 items-center rounded-xl border border-slate-300 px-5 font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            Cancel
          </Link>
          <button
            type="submit"
            disabled={uploading || submitting}
            className="inline-flex h-11 items-center gap-2 rounded-xl bg-brand-600 px-5 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
          >
            {submitting ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : null}
            {isAdd ? 'Create Product' : 'Update Product'}
          </button>
        </div>
      </div>
    </Form>
  )
}
