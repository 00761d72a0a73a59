import Package from 'lucide-react/icons/package'
import UserPlus from 'lucide-react/icons/user-plus'
import Users from 'lucide-react/icons/users'
import UserCheck from 'lucide-react/icons/user-check'
import { countProducts } from '~/data/product.server'
import { countUsers } from '~/data/user.server'
import { displayName } from '~/components/auth/logout-button'
import { accountPageMeta } from '~/components/auth/messages'
import { services } from '~/lib/app-context.server'
import { requireAdmin } from '~/lib/permissions.server'
import type { Route } from './+types/dashboard'

/** The admin dashboard: figures from the database (revenue and orders come with the orders issue). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request)
  const { db } = services()
  const [products, users] = await Promise.all([countProducts(db), countUsers(db)])
  return { name: displayName(user), products, users }
}

const number = new Intl.NumberFormat('en-IN')

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { name, products, users } = loaderData
  const stats = [
    { label: 'Products', value: products, icon: Package },
    { label: 'Users', value: users.total, icon: Users },
    { label: 'Active users', value: users.active, icon: UserCheck },
    { label: 'New this month', value: users.newThisMonth, icon: UserPlus },
  ]
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
          Dashboard
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">Welcome back, {name}.</p>
      </div>
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {stats.map(({ label, value, icon: Icon }) => (
          <li
            key={label}
            className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
          >
            <div className="flex items-center justify-between text-sm font-medium text-slate-600 dark:text-slate-300">
              <span>{label}</span>
              <Icon aria-hidden="true" className="size-4 text-brand-600" />
            </div>
            <p className="mt-2 text-2xl font-bold text-slate-950 dark:text-white">
              {number.format(value)}
            </p>
          </li>
        ))}
      </ul>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Admin dashboard')
}
