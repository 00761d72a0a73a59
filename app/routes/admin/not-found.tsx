import { data, href, Link } from 'react-router'
import { PageHeader } from '~/components/admin/page-header'
import { buttonVariants } from '~/components/ui/button-variants'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { requireAdmin } from '~/services/permissions.server'
import type { Route } from './+types/not-found'

/**
 * Any /admin/* path no other admin route matches: a 404 inside the admin shell, so the admin
 * keeps the sidebar and can go on from there. Visitors who are not admins get the layout's
 * guard (login or Access Denied) and learn nothing about which admin paths exist.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  return data({ path: new URL(request.url).pathname }, { status: 404 })
}

export function meta() {
  return [{ title: 'Page not found | Admin' }, { name: 'robots', content: 'noindex' }]
}

export default function AdminNotFound({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title="Page not found"
        description="This admin page does not exist. It may have moved, or the address is mistyped."
      />
      <Card>
        <p className="break-all text-sm text-slate-700 dark:text-slate-200">
          Nothing is at <code className="font-mono">{loaderData.path}</code>.
        </p>
        <Link to={href('/admin/dashboard')} className={cn(buttonVariants(), 'mt-4')}>
          Back to the dashboard
        </Link>
      </Card>
    </div>
  )
}
