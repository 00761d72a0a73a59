import type { DeleteUploadResponse, UploadResponse } from '~/components/admin/image-uploader'
import { services } from '~/lib/app-context.server'
import { imageService } from '~/lib/images.server'
import {
  ACCESS_DENIED_TITLE,
  requirePermission,
  type AccessDenied,
} from '~/services/permissions.server'
import {
  imageCacheDir,
  keyFromImageUrl,
  readLimitedFormData,
  storeProductImage,
  UploadError,
} from '~/lib/uploads.server'
import { removeProductImage } from '~/services/product-images.server'
import { IMAGE_MESSAGES } from '~/lib/validation/product'
import type { Route } from './+types/uploads'

/**
 * POST /admin/api/uploads: the product form's image uploader (multipart, field "file"), answered
 * in JSON: { ok: true, key, previewUrl } or { ok: false, error } with the spec's message.
 * With intent=delete and url=<an image URL we gave out>, removes an upload that no product
 * uses (the form's "remove" before saving); 'Invalid image URL' for anything else.
 * Products need the Can Create Products permission, as every product route.
 */
const json = (body: UploadResponse | DeleteUploadResponse, status = 200) =>
  Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })

/**
 * The product guard for a resource route: signed out, the usual redirect to log in; without
 * the permission, 403 Access Denied with the reason, as JSON (a page would show it as HTML).
 */
async function guard(request: Request): Promise<void> {
  try {
    await requirePermission(request, 'canCreateProducts')
  } catch (error) {
    const denied = error as {
      init?: { status?: number } | null
      data?: Partial<AccessDenied>
    } | null
    if (denied?.init?.status === 403) {
      return Promise.reject(
        json(
          {
            ok: false,
            error:
              `${denied.data?.title ?? ACCESS_DENIED_TITLE}: ${denied.data?.message ?? ''}`.trim(),
          },
          403,
        ),
      )
    }
    throw error
  }
}

/** GET is not a thing here; the guard still answers first (the authorization table asks). */
export async function loader({ request }: Route.LoaderArgs) {
  await guard(request)
  return json({ ok: false, error: 'Method Not Allowed: POST an image as multipart/form-data' }, 405)
}

export async function action({ request }: Route.ActionArgs) {
  await guard(request)
  if (request.method !== 'POST') return json({ ok: false, error: 'Method Not Allowed' }, 405)
  const { storage, env, db } = services()

  let form: FormData
  try {
    form = await readLimitedFormData(request)
  } catch (error) {
    if (error instanceof UploadError) return json({ ok: false, error: error.message }, error.status)
    throw error
  }

  if (form.get('intent') === 'delete') {
    const key = keyFromImageUrl(String(form.get('url') ?? ''), {
      storage,
      publicUrl: env.PUBLIC_URL,
    })
    if (!key) return json({ ok: false, error: IMAGE_MESSAGES.invalidUrl }, 400)
    const deleted = await removeProductImage(db, storage, key, { cacheDir: imageCacheDir() })
    return json({ ok: true, deleted })
  }

  const file = form.get('file')
  if (!(file instanceof File) || file.size === 0)
    return json({ ok: false, error: IMAGE_MESSAGES.invalidType }, 400)
  try {
    const stored = await storeProductImage(
      { bytes: Buffer.from(await file.arrayBuffer()) },
      { storage, images: imageService() },
    )
    return json({ ok: true, ...stored })
  } catch (error) {
    if (error instanceof UploadError) return json({ ok: false, error: error.message }, error.status)
    console.error('[uploads] storing an image failed:', error)
    return json({ ok: false, error: IMAGE_MESSAGES.uploadFailed }, 500)
  }
}
