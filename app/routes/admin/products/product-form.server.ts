import { data, redirect } from 'react-router'
import type { ProductFormInitial } from '~/components/admin/product-form'
import {
  createProductChecked,
  getProductById,
  listCategories,
  SlugTakenError,
  updateProduct,
  type Product,
} from '~/data/product.server'
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
  DEFAULT_DELIVERY_TIME,
  DEFAULT_VALIDITY,
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
  }
}

export async function productInitial(product: Product): Promise<ProductFormInitial> {
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
  const { db, storage } = services()
  const categories = await listCategories(db)
  const base =
    target.mode === 'edit' ? await productInitial(target.product) : emptyProductInitial(categories)
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

  const parsed = parseProductForm(values, categories)
  if (parsed.errors) return answer(400, values, { errors: parsed.errors })
  const input = parsed.data
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
    if (target.mode === 'add') {
      await createProductChecked(db, input)
      throw redirect('/admin/products', {
        headers: await flashHeaders('success', PRODUCT_MESSAGES.created),
      })
    }
    const updated = await updateProduct(db, target.product.id, input)
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
    if (error instanceof SlugTakenError)
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
