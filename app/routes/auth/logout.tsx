import { href, redirect } from 'react-router'
import { signOut } from '~/services/auth.server'
import type { Route } from './+types/logout'

/** Logging out is a POST (a link or image elsewhere cannot sign anyone out); it returns to /. */
export async function action({ request }: Route.ActionArgs) {
  throw redirect(href('/'), { headers: await signOut(request) })
}

export async function loader() {
  throw redirect(href('/'))
}
