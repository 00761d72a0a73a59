import { imageResponse } from '~/lib/images.server'
import type { Route } from './+types/image'

/** GET /images/<storage key>?w=<width>&v=<version>: a product image as WebP (see images.server.ts). */
export function loader({ request, params }: Route.LoaderArgs) {
  return imageResponse(request, params['*'] ?? '')
}
