import { data, redirect } from 'react-router'
import type { ProductFormInitial } from '~/components/admin/product-form'
import {
  createProductChecked,
  getProductById,
  getProductDelivery,
  isSlugTaken,
  listCategories,
  SlugTakenError,
  updateProduct,
  type Product,
} from '~/data/product.server'
import { setProductDelivery } from '~/data/stock.server'
import { services } from '~/lib/app-context.server'
import { imageVariantUrl } from '~/lib/images'
import { imageService } from '~/lib/images.server'
import {
  imageCacheDir,
  readLimitedFormData,
  removeProductImage,
  storeProductImage,
  UploadError,
} from '~/lib/uploads.server'
import {
  DEFAULT_CATEGORY,
  DEFAULT_DELIVERY_MODE,
  DEFAULT_DELIVERY_TIME,
  DEFAULT_VALIDITY,
  DELIVERY_MODES,
  deliveryFromForm,
  IMAGE_MAX_BYTES,
  IMAGE_MESSAGES,
  isProductImageKey,
  paiseToInput,
  parseProductForm,
  PRODUCT_MESSAGES,
  productFormValues,
  type ProductFieldErrors,
  type ProductFormValues,
} from '~/lib/validation/product'
import { flashHeaders } from './flash.server'

/** The add and edit pages' shared server side: initial values, and the save action. */

/** A preview URL for the form (the 640 px variant of a stored image; other URLs as they are). */
export async function imagePreviewUrl(image: string): Promise<string | null> {
  const ref = await imageService().ref(image)
  return ref ? imageVariantUrl(ref, 640) : null
}

export function emptyProductInitial(categories: readonly string[]): ProductFormInitial {
  return {
    title: '',
    slug: '',
    description: '',
    shortDescription: '',
    category: categories.includes(DEFAULT_CATEGORY) ? DEFAULT_CATEGORY : (categories[0] ?? ''),
    tags: '',
    price: '',
    originalPrice: '',
    image: '',
    imagePreview: null,
    buyNowLink: '',
    metaTitle: '',
    metaDescription: '',
    keywords: '',
    inStock: true,
    featured: false,
    features: [],
    validity: DEFAULT_VALIDITY,
    deliveryTime: DEFAULT_DELIVERY_TIME,
    rating: '0',
    reviews: '0',
    deliveryMode: DEFAULT_DELIVERY_MODE,
    sharedSecret: '',
    clearSharedSecret: false,
  }
}

/** How the product is delivered now; a product deleted meanwhile reads as manual. */
export interface SavedDelivery {
  mode: (typeof DELIVERY_MODES)[number]
  hasSharedSecret: boolean
}

export async function savedDelivery(product: Pick<Product, 'id'>): Promise<SavedDelivery> {
  return (
    (await getProductDelivery(services().db, product.id)) ?? {
      mode: 'manual',
      hasSharedSecret: false,
    }
  )
}

/** The edit form's values; the saved shared secret is never among them (only whether one is set). */
export async function productInitial(
  product: Product,
  delivery: SavedDelivery,
): Promise<ProductFormInitial> {
  return {
    title: product.title,
    slug: product.slug,
    description: product.description,
    shortDescription: product.shortDescription,
    category: product.category,
    tags: product.tags.join(', '),
    price: paiseToInput(product.price),
    originalPrice: paiseToInput(product.originalPrice),
    image: product.image,
    imagePreview: await imagePreviewUrl(product.image),
    buyNowLink: product.buyNowLink ?? '',
    metaTitle: product.metaTitle,
    metaDescription: product.metaDescription,
    keywords: product.keywords.join(', '),
    inStock: product.inStock,
    featured: product.featured,
    features: product.features,
    validity: product.validity,
    deliveryTime: product.deliveryTime,
    rating: String(product.rating),
    reviews: String(product.reviews),
    deliveryMode: delivery.mode,
    sharedSecret: '',
    clearSharedSecret: false,
  }
}

/** What the form gets back when the save did not happen (the form keeps what was typed). */
export interface ProductActionResult {
  errors?: ProductFieldErrors
  formError?: string
  /** For a page rendered without JavaScript: the values to show again. */
  initial: ProductFormInitial
  /** Tells two identical answers apart. */
  at: number
}

function valuesToInitial(
  values: ProductFormValues,
  base: ProductFormInitial,
  imagePreview: string | null,
): ProductFormInitial {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : '')
  return {
    ...base,
    title: text('title'),
    slug: text('slug'),
    description: text('description'),
    shortDescription: text('shortDescription'),
    category: text('category') || base.category,
    tags: text('tags'),
    price: text('price'),
    originalPrice: text('originalPrice'),
    image: text('image'),
    imagePreview,
    buyNowLink: text('buyNowLink'),
    metaTitle: text('metaTitle'),
    metaDescription: text('metaDescription'),
    keywords: text('keywords'),
    inStock: values.inStock === 'on',
    featured: values.featured === 'on',
    features: Array.isArray(values.features)
      ? values.features.filter((feature) => feature.trim())
      : [],
    validity: text('validity'),
    deliveryTime: text('deliveryTime'),
    rating: text('rating'),
    reviews: text('reviews'),
    deliveryMode: (DELIVERY_MODES as readonly string[]).includes(text('deliveryMode'))
      ? (text('deliveryMode') as ProductFormInitial['deliveryMode'])
      : base.deliveryMode,
    // What the admin typed comes back to them, so a refused save loses nothing.
    sharedSecret: text('sharedSecret'),
    clearSharedSecret: values.clearSharedSecret === 'on',
  }
}

/**
 * Saves the submitted form (add, or edit of `id`): the shared schema again, the slug's
 * uniqueness, the image's existence; then a 303 to the list with the spec's toast. Without
 * JavaScript the image file comes with the form (imageFile) and is stored here.
 */
export async function saveProductForm(
  request: Request,
  target: { mode: 'add' } | { mode: 'edit'; product: Product },
) {
  const { db, storage, env } = services()
  const categories = await listCategories(db)
  const delivery = target.mode === 'edit' ? await savedDelivery(target.product) : null
  const base =
    target.mode === 'edit' && delivery
      ? await productInitial(target.product, delivery)
      : emptyProductInitial(categories)
  const failed =
    target.mode === 'add' ? PRODUCT_MESSAGES.createFailed : PRODUCT_MESSAGES.updateFailed

  const answer = async (
    status: number,
    values: ProductFormValues,
    result: { errors?: ProductFieldErrors; formError?: string },
  ) => {
    const image = typeof values.image === 'string' ? values.image : ''
    const preview = image ? await imagePreviewUrl(image).catch(() => null) : null
    return data<ProductActionResult>(
      { ...result, initial: valuesToInitial(values, base, preview), at: Date.now() },
      { status },
    )
  }

  let form: FormData
  try {
    // Room for the image (without JavaScript it comes with the form) and every text field.
    form = await readLimitedFormData(request, IMAGE_MAX_BYTES + 256 * 1024)
  } catch (error) {
    if (error instanceof UploadError)
      return answer(error.status, {}, { errors: { image: error.message } })
    throw error
  }
  const values = productFormValues(form)

  const file = form.get('imageFile')
  if (file instanceof File && file.size > 0) {
    try {
      const stored = await storeProductImage(
        { bytes: Buffer.from(await file.arrayBuffer()) },
        { storage, images: imageService() },
      )
      values.image = stored.key
    } catch (error) {
      const message = error instanceof UploadError ? error.message : IMAGE_MESSAGES.uploadFailed
      return answer(400, values, { errors: { image: message } })
    }
  }

  const parsed = parseProductForm(values, categories, {
    hasSavedSharedSecret: delivery?.hasSharedSecret ?? false,
  })
  if (parsed.errors) return answer(400, values, { errors: parsed.errors })
  // The product's own fields, and separately how it is delivered (the secret is encrypted).
  const {
    deliveryMode: _mode,
    sharedSecret: _secret,
    clearSharedSecret: _clear,
    ...input
  } = parsed.data
  const deliveryInput = deliveryFromForm(parsed.data)
  const previousImage = target.mode === 'edit' ? target.product.image : ''
  // A new stored image must really be there (an old or forged key would show nothing).
  if (
    input.image !== previousImage &&
    isProductImageKey(input.image) &&
    !(await storage.exists(input.image))
  ) {
    return answer(400, values, { errors: { image: IMAGE_MESSAGES.invalidUrl } })
  }

  try {
    // The product and its delivery are saved together, or neither is.
    if (target.mode === 'add') {
      await db.transaction().execute(async (trx) => {
        const created = await createProductChecked(trx, input)
        await setProductDelivery(trx, env.APP_SECRET, created.id, deliveryInput)
      })
      throw redirect('/admin/products', {
        headers: await flashHeaders('success', PRODUCT_MESSAGES.created),
      })
    }
    const updated = await db.transaction().execute(async (trx) => {
      const saved = await updateProduct(trx, target.product.id, input)
      if (saved) await setProductDelivery(trx, env.APP_SECRET, saved.id, deliveryInput)
      return saved
    })
    if (!updated) return answer(409, values, { formError: failed })
    // The replaced image is nobody's now (unless another product shows the same file).
    if (previousImage !== updated.image) {
      await removeProductImage(db, storage, previousImage, { cacheDir: imageCacheDir() })
    }
    throw redirect('/admin/products', {
      headers: await flashHeaders('success', PRODUCT_MESSAGES.updated),
    })
  } catch (error) {
    if (error instanceof Response) throw error
    // A save racing another to the same slug fails on the unique index inside the transaction
    // (on PostgreSQL that aborts it before SlugTakenError can be told apart): check again.
    if (
      error instanceof SlugTakenError ||
      (await isSlugTaken(
        db,
        input.slug,
        target.mode === 'edit' ? target.product.id : undefined,
      ).catch(() => false))
    )
      return answer(409, values, { errors: { slug: PRODUCT_MESSAGES.slugTaken } })
    console.error(`[admin] saving a product (${target.mode}) failed:`, error)
    return answer(500, values, {
      formError:
        target.mode === 'add' ? PRODUCT_MESSAGES.createFailed : PRODUCT_MESSAGES.updateError,
    })
  }
}

/** The product being edited, or the spec's 404 'Product not found'. */
export async function requireProduct(id: string | undefined): Promise<Product> {
  if (!id) throw redirect('/admin/products/edit')
  const product = await getProductById(services().db, id)
  if (!product) throw data({ message: PRODUCT_MESSAGES.notFound }, { status: 404 })
  return product
}
