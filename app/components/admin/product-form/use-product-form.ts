import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { useNavigation } from 'react-router'
import { useAppForm } from '~/components/forms'
import { toast } from '~/components/ui/toast'
import { useHydrated } from '~/components/ui/use-hydrated'
import { slugify } from '~/lib/slug'
import type { StockKinds } from '~/lib/stock-status'
import {
  addFeature,
  productFormSchema,
  type ProductDeliveryMode,
  type ProductField,
} from '~/lib/validation/product'
import { fieldId, PRODUCT_FIELDS } from './parts'

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
  deliveryMode: ProductDeliveryMode
  /** A new shared secret as typed; the saved one is never sent to the browser. */
  sharedSecret: string
  clearSharedSecret: boolean
}

export type ProductTextField = Exclude<
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
  /** Available items of the kinds that sell now (`stockKinds`, app/lib/stock-status.ts). */
  stockAvailable: number
  stockKinds: StockKinds
  stockUrl: string
}

/** The action's answer when it did not save: Conform's reply (field errors, or the form's own). */
export interface ProductFormResult {
  reply: SubmissionResult<string[]>
  /** Tells two identical answers apart. */
  at: number
}

/** The first message per field, as the sections show them. */
export type ProductFieldErrors = Partial<Record<ProductField, string>>

/**
 * The product form's state, shared by its sections. Conform checks the shared schema
 * (`productFormSchema`) before the form is sent and shows the action's answer, moving the focus
 * to the first invalid field; an edited field is checked again as it changes. What the
 * sections need live is kept here: the typed values (the slug follows the title, counters,
 * the discount), the features list, and the image upload with its own errors.
 */
export function useProductForm({
  initial,
  categories,
  saved,
  result,
}: {
  initial: ProductFormInitial
  categories: readonly string[]
  saved?: SavedProductDelivery | undefined
  result?: ProductFormResult | undefined
}) {
  const navigation = useNavigation()
  const hydrated = useHydrated()
  const hasSavedSharedSecret = saved?.hasSharedSecret ?? false
  const schema = useMemo(
    () => productFormSchema(categories, { hasSavedSharedSecret }),
    [categories, hasSavedSharedSecret],
  )
  const [conform, fields] = useAppForm({ schema, lastResult: result?.reply, id: 'product-form' })
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
    return text as Record<ProductTextField, string>
  })
  const [checks, setChecks] = useState({ inStock: initial.inStock, featured: initial.featured })
  const [deliveryMode, setDeliveryMode] = useState(initial.deliveryMode)
  const [clearSecret, setClearSecret] = useState(initial.clearSharedSecret)
  const [features, setFeatures] = useState<string[]>(initial.features)
  const [newFeature, setNewFeature] = useState('')
  const [image, setImage] = useState({ value: initial.image, preview: initial.imagePreview })
  const [uploading, setUploading] = useState(false)
  // A refused upload (type, size, network) is the uploader's own message, not the schema's.
  const [imageError, setImageError] = useState<string | null>(null)
  const submitting =
    navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST'

  const errors: ProductFieldErrors = {}
  // Conform's `fields` is a proxy that lists nothing; the schema names the fields.
  for (const name of PRODUCT_FIELDS) {
    const message = fields[name]?.errors?.[0]
    if (message) errors[name] = message
  }
  if (imageError) errors.image = imageError
  const formError = conform.errors?.[0]

  useEffect(() => {
    const message = result?.reply.error?.['']?.[0]
    if (message) toast.error(message)
  }, [result])

  // Lists and the image change without an input event: check them again once the page shows
  // the change, so a fixed field loses its message (Conform reads the form's current values).
  const { validate } = conform
  const shown = useRef({ features, image: image.value })
  useEffect(() => {
    const before = shown.current
    shown.current = { features, image: image.value }
    if (before.features !== features) validate({ name: 'features' })
    if (before.image !== image.value) validate({ name: 'image' })
  }, [features, image.value, validate])

  function setText(name: ProductTextField) {
    return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      const value = event.currentTarget.value
      setValues((current) => {
        // Changing the title regenerates the slug.
        if (name === 'title') return { ...current, title: value, slug: slugify(value) }
        return { ...current, [name]: value }
      })
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (uploading) {
      event.preventDefault()
      return
    }
    conform.onSubmit(event)
  }

  function addTypedFeature() {
    const next = addFeature(features, newFeature)
    if (next.length === features.length) return
    setFeatures(next)
    setNewFeature('')
  }

  function editFeature(index: number, value: string) {
    setFeatures((current) => current.map((item, i) => (i === index ? value : item)))
  }

  function removeFeature(index: number) {
    setFeatures((current) => current.filter((_, i) => i !== index))
  }

  function setCheck(name: 'inStock' | 'featured', checked: boolean) {
    setChecks((current) => ({ ...current, [name]: checked }))
  }

  function chooseImage(value: string, preview: string | null) {
    setImage({ value, preview })
    setImageError(null)
  }

  const described = (name: ProductField, ...more: string[]) =>
    [errors[name] ? `${fieldId(name)}-error` : `${fieldId(name)}-hint`, ...more].join(' ')
  /** id, name, value, change handler and the aria wiring of a text control. */
  const textProps = (name: ProductTextField) => ({
    id: fieldId(name),
    name,
    value: values[name],
    onChange: setText(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': described(name),
  })

  return {
    /** The form element's props: Conform's, with submitting held back while an image uploads. */
    formProps: { ...getFormProps(conform), onSubmit },
    hydrated,
    submitting,
    values,
    checks,
    deliveryMode,
    clearSecret,
    features,
    newFeature,
    image,
    uploading,
    errors,
    formError,
    saved,
    categories,
    textProps,
    described,
    setImageError,
    setNewFeature,
    setUploading,
    setCheck,
    addTypedFeature,
    editFeature,
    removeFeature,
    chooseDelivery: setDeliveryMode,
    toggleClearSecret: setClearSecret,
    chooseImage,
  }
}

export type ProductFormState = ReturnType<typeof useProductForm>
