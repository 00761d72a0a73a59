import History from 'lucide-react/icons/history'
import { href, Link } from 'react-router'
import { ListSection } from '~/components/admin/admin-list'
import { DateField, FilterForm, optionsOf, SelectField } from '~/components/admin/list-filters'
import { PageHeader } from '~/components/admin/page-header'
import { accountPageMeta } from '~/components/auth/messages'
import { FormAlert } from '~/components/forms'
import { listAuditActors, listAuditEntries } from '~/data/audit.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { adminOrderPath } from '~/lib/order-status'
import { pageParam, pageView } from '~/lib/paginate'
import { localDayRange, parseIsoDate } from '~/lib/shop-time'
import { requirePermission } from '~/services/permissions.server'
import type { Route } from './+types/audit'
import { listQuery } from './list-query'
import { adminProductEditPath, adminUserPath } from '~/lib/paths'

/**
 * /admin/audit (Can Manage Users): every change admins made in the back office (docs/audit.md),
 * newest first, with who, when (the shop's time zone), from which address, and each changed
 * field before and after (secrets were masked when the entry was written). Filters by actor,
 * kind of thing changed and a date range (days in the shop's time zone), all in the URL.
 */
const AUDIT_PATH = href('/admin/audit')

const KINDS: Record<string, string> = {
  product: 'Products',
  stock: 'Stock',
  order: 'Orders',
  user: 'Users',
  settings: 'Settings',
  gateway: 'Payment gateways',
  'payment-link': 'Payment links',
  review: 'Reviews',
  export: 'Exports',
}

/** The kind of an entry: its action's first part ("stock" for stock.import). */
const kindOf = (action: string) => action.split('.')[0] ?? action

const VALUE_MAX = 300

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX)}…` : text
}

function targetLink(type: string, id: string | null): string | null {
  if (!id) return null
  if (type === 'user') return adminUserPath(id)
  if (type === 'order') return adminOrderPath(id)
  if (type === 'product') return adminProductEditPath(id)
  return null
}

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageUsers')
  const { db } = services()
  const url = new URL(request.url)
  const settings = await getSiteSettings(db)
  const actor = url.searchParams.get('actor') ?? ''
  const kindParam = url.searchParams.get('kind') ?? ''
  const kind = Object.hasOwn(KINDS, kindParam) ? kindParam : ''
  const fromParam = (url.searchParams.get('from') ?? '').trim()
  const toParam = (url.searchParams.get('to') ?? '').trim()
  const errors: string[] = []
  // Real calendar days only: 2026-02-31 is refused, not read as 3 March.
  if (fromParam && !parseIsoDate(fromParam))
    errors.push('The "From" date must be a date like 2026-03-05.')
  if (toParam && !parseIsoDate(toParam))
    errors.push('The "To" date must be a date like 2026-03-05.')
  // Days in the shop's time zone; "To" includes its whole day.
  const { from, to } = localDayRange(fromParam, toParam, settings.timezone)
  if (from && to && from >= to) errors.push('The "From" date must be on or before the "To" date.')

  const [actors, result] = await Promise.all([
    listAuditActors(db),
    errors.length
      ? Promise.resolve(null)
      : listAuditEntries(db, {
          actorId: actor || undefined,
          kind: kind || undefined,
          from: from ?? undefined,
          to: to ?? undefined,
          page: pageParam(url),
        }),
  ])
  const date = shopDateTime(settings.timezone, { seconds: true })
  return {
    filter: { actor, kind, from: fromParam, to: toParam },
    errors,
    actors: actors.map((a) => ({
      id: a.actorId,
      label: a.actorName ? `${a.actorName} (${a.actorEmail})` : a.actorEmail,
    })),
    page: result ? pageView(result, result.total) : { number: 1, count: 1, size: 50, total: 0 },
    entries: (result?.entries ?? []).map((entry) => ({
      id: entry.id,
      at: entry.createdAt,
      when: date.format(new Date(entry.createdAt)),
      actor: entry.actorName || entry.actorEmail || 'The system',
      actorEmail: entry.actorName ? entry.actorEmail : '',
      ip: entry.ip,
      action: entry.action,
      kind: KINDS[kindOf(entry.action)] ?? entry.targetType,
      targetId: entry.targetId,
      targetLink: targetLink(entry.targetType, entry.targetId),
      summary: entry.summary,
      changes: Object.entries(entry.changes ?? {}).map(([field, change]) => ({
        field,
        before: shown(change.before),
        after: shown(change.after),
      })),
    })),
  }
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { filter, errors, actors, page, entries } = loaderData
  const filtered = Boolean(filter.actor || filter.kind || filter.from || filter.to)
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title="Audit Log"
        description="Every change made in the back office: who made it, when, from where, and what it changed."
      />
      <ListSection
        label="Audit entries"
        path={AUDIT_PATH}
        page={page}
        noun={{ one: 'entry', many: 'entries' }}
        notice={
          errors.length ? (
            <div className="p-4">
              <FormAlert>{errors.join(' ')}</FormAlert>
            </div>
          ) : null
        }
        pageHref={(n) => `${AUDIT_PATH}${listQuery(filter, n)}`}
        empty={{
          icon: History,
          title: 'No Entries Found',
          text: filtered
            ? 'No change matches these filters.'
            : 'Changes appear here as soon as an admin makes one.',
        }}
        filters={
          <FilterForm action={AUDIT_PATH} breakpoint="lg" filtered={filtered}>
            <SelectField
              id="audit-actor"
              label="Actor"
              name="actor"
              value={filter.actor}
              allLabel="Everyone"
              options={actors.map((a) => ({ value: a.id, label: a.label }))}
            />
            <SelectField
              id="audit-kind"
              label="Kind"
              name="kind"
              value={filter.kind}
              allLabel="All kinds"
              options={optionsOf(Object.keys(KINDS), KINDS)}
            />
            <DateField id="audit-from" label="From" name="from" value={filter.from} />
            <DateField id="audit-to" label="To" name="to" value={filter.to} />
          </FilterForm>
        }
      >
        <ol
          aria-label="Changes, newest first"
          className="divide-y divide-slate-100 dark:divide-slate-800"
        >
          {entries.map((entry) => (
            <li key={entry.id} className="p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold text-slate-950 dark:text-white">
                  {entry.summary || entry.action}
                </p>
                <time dateTime={entry.at} className="text-xs text-slate-500 dark:text-slate-400">
                  {entry.when}
                </time>
              </div>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                <span className="font-medium text-slate-800 dark:text-slate-200">
                  {entry.actor}
                </span>
                {entry.actorEmail ? ` (${entry.actorEmail})` : ''}
                {entry.ip ? ` from ${entry.ip}` : ''} · {entry.kind} ·{' '}
                <code className="font-mono text-xs">{entry.action}</code>
                {entry.targetId ? (
                  <>
                    {' · '}
                    {entry.targetLink ? (
                      <Link
                        to={entry.targetLink}
                        className="font-mono text-xs text-brand-700 hover:underline dark:text-brand-300"
                      >
                        {entry.targetId}
                      </Link>
                    ) : (
                      <code className="font-mono text-xs">{entry.targetId}</code>
                    )}
                  </>
                ) : null}
              </p>
              {entry.changes.length ? (
                <div className="mt-2 overflow-x-auto">
                  <table className="w-full min-w-[28rem] text-left text-sm">
                    <caption className="sr-only">What changed</caption>
                    <thead className="text-xs text-slate-500 dark:text-slate-400">
                      <tr>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Field
                        </th>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Before
                        </th>
                        <th scope="col" className="py-1 font-medium">
                          After
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {entry.changes.map((change) => (
                        <tr
                          key={change.field}
                          className="border-t border-slate-100 align-top dark:border-slate-800"
                        >
                          <th
                            scope="row"
                            className="py-1 pr-3 font-mono text-xs font-normal text-slate-700 dark:text-slate-300"
                          >
                            {change.field}
                          </th>
                          <td className="break-all py-1 pr-3 text-rose-800 dark:text-rose-300">
                            {change.before}
                          </td>
                          <td className="break-all py-1 text-emerald-800 dark:text-emerald-300">
                            {change.after}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      </ListSection>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Audit Log')
}
