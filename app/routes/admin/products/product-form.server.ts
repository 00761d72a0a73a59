import type { SubmissionResult } from '@conform-to/react'
import { data, href, redirect } from 'react-router'
import type { ProductFormInitial } from '~/components/admin/product-form'
import type { ProductFormResult } from '~/components/admin/product-form/use-product-form'
import {
  getProductById,
  getProductDelivery,
  isSlugTaken,
  listCategories,
  SlugTakenError,
  type Product,
} from '~/data/product.server'
import { services } from '~/lib/app-context.server'
import { imageVariantUrl } from '~/lib/images'
import { imageService } from '~/lib/images.server'
import {
  imageCacheDir,
  readLimitedFormData,
  storeProductImage,
  UploadError,
} from '~/lib/uploads.server'
import {
  createProductAudited,
  productEditVersion,
  updateProductAudited,
  type AdminWho,
} from '~/services/product-admin.server'
import { productImageValue, removeProductImage } from '~/services/product-images.server'
import type { AuthUser } from '~/services/auth.server'
import { requirePermission } from '~/services/permissions.server'
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
  PRODUCT_MESSAGES,
  productFormSchema,
} from '~/lib/validation/product'
import { parseSubmission } from '~/lib/validation/submission'
import { flashHeaders } from '~/lib/flash.server'
import { sendBackInStockMails } from '~/services/notifications/wishlist-mail.server'

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
    deliveryMode: delivery.mode,
    sharedSecret: '',
    clearSharedSecret: false,
  }
}

/**
 * What the form gets back when the save did not happen: Conform's reply, and for a page
 * rendered without JavaScript the values to show again (the form keeps what was typed).
 */
export interface ProductActionResult extends ProductFormResult {
  initial: ProductFormInitial
  /**
   * Edit: the version of the product the form's values came from (the one it posted). The form
   * keeps posting it after a refused save, so only reloading the page makes a stale form current.
   */
  version?: string
}

/** The submitted values (Conform's payload) as the form's initial values. */
function payloadToInitial(
  payload: Record<string, unknown>,
  base: ProductFormInitial,
  imagePreview: string | null,
): ProductFormInitial {
  const text = (name: keyof ProductFormInitial) =>
    typeof payload[name] === 'string' ? payload[name] : ''
  const features = payload.features
  const deliveryMode = text('deliveryMode')
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
    inStock: payload.inStock === 'on',
    featured: payload.featured === 'on',
    features: (Array.isArray(features) ? features : [features]).filter(
      (feature): feature is string => typeof feature === 'string' && feature.trim() !== '',
    ),
    validity: text('validity'),
    deliveryTime: text('deliveryTime'),
    deliveryMode: (DELIVERY_MODES as readonly string[]).includes(deliveryMode)
      ? (deliveryMode as ProductFormInitial['deliveryMode'])
      : base.deliveryMode,
    // What the admin typed comes back to them, so a refused save loses nothing.
    sharedSecret: text('sharedSecret'),
    clearSharedSecret: payload.clearSharedSecret === 'on',
  }
}

/**
 * Saves the submitted form (add, or edit of `id`): the shared schema again, the slug's
 * uniqueness, the image's existence; then a 303 to the list with the spec's toast. Without
 * JavaScript the image file comes with the form (imageFile) and is stored here.
 *
 * An edit posts the version of the product its page showed (productEditVersion, the hidden
 * `version` field). A save from a page showing other values than the stored ones (another admin
 * saved meanwhile), or from a page without a version, changes nothing: the admin gets the form
 * back as typed with a message to reload, and an image uploaded for that save is removed.
 * The check is made again inside the save's transaction, which also reads the audit entry's
 * "before" and the image to remove (docs/admin.md, "The form").
 */
export async function saveProductForm(
  request: Request,
  target: { mode: 'add' } | { mode: 'edit'; product: Product },
  who: AdminWho,
) {
  const { db, storage, env } = services()
  /**
   * The product was deleted (by another admin) since the request came in: nothing can be saved,
   * now or by trying again. The edit page's Product Not Found answer, with its way back to the
   * list, as when the delete came before the request (requireEditableProduct); an image uploaded
   * for this save is nobody's (removeProductImage keeps one a product shows).
   */
  const gone = data({ message: PRODUCT_MESSAGES.notFound }, { status: 404 })
  const productGone = async (payload: Record<string, unknown>) => {
    if (typeof payload.image === 'string')
      await removeProductImage(db, storage, payload.image, { cacheDir: imageCacheDir() })
    return gone
  }
  const categories = await listCategories(db)
  const delivery = target.mode === 'edit' ? await getProductDelivery(db, target.product.id) : null
  if (target.mode === 'edit' && !delivery) throw gone
  const base =
    target.mode === 'edit' && delivery
      ? await productInitial(target.product, delivery)
      : emptyProductInitial(categories)
  // Edit: the version of the values the form shows. Until the form is read, those of `base`
  // (the product as read when this request came in); then the one the form posted.
  let shownVersion =
    target.mode === 'edit' && delivery ? productEditVersion(target.product, delivery) : undefined
  const arrivalVersion = shownVersion

  const answer = async (
    status: number,
    reply: SubmissionResult<string[]>,
    payload: Record<string, unknown>,
  ) => {
    const image = typeof payload.image === 'string' ? payload.image : ''
    const preview = image ? await imagePreviewUrl(image).catch(() => null) : null
    return data<ProductActionResult>(
      {
        reply,
        initial: payloadToInitial(payload, base, preview),
        at: Date.now(),
        ...(shownVersion === undefined ? {} : { version: shownVersion }),
      },
      { status },
    )
  }

  let form: FormData
  try {
    // Room for the image (without JavaScript it comes with the form) and every text field.
    form = await readLimitedFormData(request, IMAGE_MAX_BYTES + 256 * 1024)
  } catch (error) {
    if (error instanceof UploadError)
      return answer(error.status, { status: 'error', error: { image: [error.message] } }, {})
    throw error
  }
  // One of our own image URLs is saved as its storage key, which the "image in use" check sees.
  const typedImage = form.get('image')
  if (typeof typedImage === 'string') {
    const origins = [new URL(env.PUBLIC_URL).origin, new URL(request.url).origin]
    form.set('image', productImageValue(typedImage, { storage, origins }))
  }
  const schema = productFormSchema(categories, {
    hasSavedSharedSecret: delivery?.hasSharedSecret ?? false,
  })

  /**
   * A stale edit (see above): the form back as typed, with the message. The image it posted is
   * nobody's once refused (an upload for this save; reloading the page forgets it), so it is
   * removed, unless a product shows it (removeProductImage checks), and the form falls back to
   * the product's image.
   */
  const refuseStale = async (message: string, payload: Record<string, unknown>) => {
    const posted = typeof payload.image === 'string' ? payload.image : ''
    const removed = await removeProductImage(db, storage, posted, { cacheDir: imageCacheDir() })
    const shown =
      removed && target.mode === 'edit' ? { ...payload, image: target.product.image } : payload
    const refused = parseSubmission(form, schema)
    return answer(409, refused.reply({ formErrors: [message] }), shown)
  }

  // Without JavaScript the image file comes with the form: stored below, it is the image.
  const file = form.get('imageFile')
  form.delete('imageFile')
  if (target.mode === 'edit') {
    // Refused before anything is stored when the page's version is already out of date.
    const posted = form.get('version')
    shownVersion = typeof posted === 'string' ? posted : ''
    if (shownVersion !== arrivalVersion) {
      return refuseStale(
        shownVersion ? PRODUCT_MESSAGES.staleEdit : PRODUCT_MESSAGES.editExpired,
        parseSubmission(form, schema).payload,
      )
    }
  }
  if (file instanceof File && file.size > 0) {
    try {
      const stored = await storeProductImage(
        { bytes: Buffer.from(await file.arrayBuffer()) },
        { storage, images: imageService() },
      )
      form.set('image', stored.key)
    } catch (error) {
      const message = error instanceof UploadError ? error.message : IMAGE_MESSAGES.uploadFailed
      const refused = parseSubmission(form, schema)
      return answer(400, refused.reply({ fieldErrors: { image: [message] } }), refused.payload)
    }
  }

  const submission = parseSubmission(form, schema)
  if (submission.status !== 'success') return answer(400, submission.reply(), submission.payload)
  const { payload } = submission
  const refuse = (status: number, fieldErrors: Record<string, string[]>, formErrors?: string[]) =>
    answer(
      status,
      submission.reply({ fieldErrors, ...(formErrors ? { formErrors } : {}) }),
      payload,
    )
  // The product's own fields, and separately how it is delivered (the secret is encrypted).
  const {
    deliveryMode: _mode,
    sharedSecret: _secret,
    clearSharedSecret: _clear,
    ...input
  } = submission.value
  const deliveryInput = deliveryFromForm(submission.value)
  // The image the page showed (the versions agree, so it is the one read with this request).
  const shownImage = target.mode === 'edit' ? target.product.image : ''
  // A new stored image must really be there (an old or forged key would show nothing).
  if (
    input.image !== shownImage &&
    isProductImageKey(input.image) &&
    !(await storage.exists(input.image))
  ) {
    return refuse(400, { image: [IMAGE_MESSAGES.invalidUrl] })
  }

  try {
    // The product, its delivery and the audit entry are saved together, or none is.
    if (target.mode === 'add') {
      await createProductAudited(
        db,
        { product: input, delivery: deliveryInput, appSecret: env.APP_SECRET },
        who,
      )
      throw redirect(href('/admin/products'), {
        headers: await flashHeaders('success', PRODUCT_MESSAGES.created),
      })
    }
    const result = await updateProductAudited(
      db,
      {
        id: target.product.id,
        version: shownVersion ?? '',
        product: input,
        delivery: deliveryInput,
        appSecret: env.APP_SECRET,
      },
      who,
    )
    if (result.status === 'missing') throw await productGone(payload)
    // Another admin saved between the check above and this save's transaction.
    if (result.status === 'stale') return refuseStale(PRODUCT_MESSAGES.staleEdit, payload)
    // Nothing saved, no error: the spec's "failure", which trying again may get past. The form
    // keeps what was typed, its image included.
    if (result.status === 'failed') return refuse(500, {}, [PRODUCT_MESSAGES.updateFailed])
    const updated = result.product
    // Switched back in stock: the customers who wished for it hear about it now.
    await sendBackInStockMails(db, { productIds: [updated.id] }).catch((error: unknown) =>
      console.error(
        '[wishlist] back-in-stock check failed:',
        error instanceof Error ? error.message : error,
      ),
    )
    // The replaced image is nobody's now (unless another product shows the same file): the
    // one stored just before this save, read in its transaction.
    const previousImage = result.before.image
    if (previousImage !== updated.image) {
      await removeProductImage(db, storage, previousImage, { cacheDir: imageCacheDir() })
    }
    throw redirect(href('/admin/products'), {
      headers: await flashHeaders('success', PRODUCT_MESSAGES.updated),
    })
  } catch (error) {
    if (error instanceof Response || error === gone) throw error
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
      return refuse(409, { slug: [PRODUCT_MESSAGES.slugTaken] })
    console.error(`[admin] saving a product (${target.mode}) failed:`, error)
    // A save that threw: for an edit, the spec's message for an exception.
    return refuse(500, {}, [
      target.mode === 'add' ? PRODUCT_MESSAGES.createFailed : PRODUCT_MESSAGES.updateError,
    ])
  }
}

/**
 * The guard of a product's own pages (edit, stock), loaders and actions alike: an admin who may
 * change products (else a redirect or 403, before anything is said about the product), and the
 * product in the URL, or the spec's 404 'Product not found'.
 */
export async function requireEditableProduct(
  request: Request,
  id: string | undefined,
): Promise<{ user: AuthUser; product: Product }> {
  const user = await requirePermission(request, 'canCreateProducts')
  if (!id) throw redirect(href('/admin/products/edit'))
  const product = await getProductById(services().db, id)
  if (!product) throw data({ message: PRODUCT_MESSAGES.notFound }, { status: 404 })
  return { user, product }
}
