import CircleCheck from 'lucide-react/icons/circle-check'
import FlaskConical from 'lucide-react/icons/flask-conical'
import Pencil from 'lucide-react/icons/pencil'
import Plus from 'lucide-react/icons/plus'
import Server from 'lucide-react/icons/server'
import { useId } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { accountPageMeta } from '~/components/auth/messages'
import { PageHeader } from '~/components/admin/page-header'
import {
  ensureDefaultGateway,
  listGateways,
  saveGateway,
  type GatewayView,
} from '~/data/gateway.server'
import { services } from '~/lib/app-context.server'
import { formatRupees } from '~/lib/money'
import { PAYTM_HOSTS, resolvePaytmSetup } from '~/lib/payments/config.server'
import { requireAdmin } from '~/lib/permissions.server'
import {
  GATEWAY_FIELDS,
  GATEWAY_SAVE_FAILED,
  GATEWAY_STATUS_LABELS,
  GATEWAY_STATUSES,
  GATEWAY_TYPE_LABELS,
  GATEWAY_TYPES,
  parseGatewayForm,
  type GatewayFieldErrors,
  type GatewayType,
} from '~/lib/validation/gateway'
import type { Route } from './+types/gateways'

/**
 * /admin/gateways (spec sections 2 and 3): the gateway records with their transactions and
 * revenue from real orders, and the add/edit form. Secrets are write-only: the page shows
 * whether one is set, and a blank secret on edit keeps the stored one. PAYTM_* environment
 * variables win over the stored Paytm settings and are shown read-only.
 */
function formMode(
  url: URL,
  gateways: GatewayView[],
): { mode: 'add'; type: GatewayType } | { mode: 'edit'; gateway: GatewayView } | null {
  const edit = url.searchParams.get('edit')
  if (edit) {
    const gateway = gateways.find((g) => g.id === edit)
    return gateway ? { mode: 'edit', gateway } : null
  }
  const add = url.searchParams.get('add')
  if (add !== null) {
    const free = GATEWAY_TYPES.filter((type) => !gateways.some((g) => g.type === type))
    const type = free.find((t) => t === add) ?? free[0]
    return type ? { mode: 'add', type } : null
  }
  return null
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const { db, env } = services()
  // Spec: with no gateway at all, a default Paytm gateway (testing, staging) is created.
  await ensureDefaultGateway(db)
  const [gateways, setup] = await Promise.all([listGateways(db), resolvePaytmSetup(db, env)])
  const url = new URL(request.url)
  return {
    gateways,
    form: formMode(url, gateways),
    freeTypes: GATEWAY_TYPES.filter((type) => !gateways.some((g) => g.type === type)),
    saved: url.searchParams.get('saved'),
    paytmEnvironment: env.PAYTM_MID
      ? {
          PAYTM_MID: env.PAYTM_MID,
          PAYTM_MERCHANT_KEY: 'set (hidden)',
          PAYTM_WEBSITE: env.PAYTM_WEBSITE ?? 'WEBSTAGING (default)',
          PAYTM_HOST: env.PAYTM_HOST ?? `${PAYTM_HOSTS.staging} (default)`,
        }
      : null,
    paytmSource: setup?.source ?? 'off',
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request)
  const { db, env } = services()
  const form = await request.formData()
  const values = Object.fromEntries(
    [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
  const mode = values.mode === 'edit' ? 'edit' : 'add'
  const fail = (errors: GatewayFieldErrors) =>
    data({ formError: GATEWAY_SAVE_FAILED, errors }, { status: 400 })
  const parsed = parseGatewayForm(values)
  if (parsed.errors) return fail(parsed.errors)
  try {
    const result = await saveGateway(db, env.APP_SECRET, {
      ...parsed.data,
      mode,
      id: values.id,
      // The environment's Paytm settings win: the stored ones are left as they are.
      keepFields: Boolean(env.PAYTM_MID) && parsed.data.type === 'paytm',
    })
    if (!result.ok) return fail(result.errors)
    return redirect(`/admin/gateways?saved=${encodeURIComponent(result.id)}`, 303)
  } catch (error) {
    console.error('[admin] saving a gateway failed:', error)
    return fail({})
  }
}

const statusBadge: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  testing: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  inactive: 'bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
}
const inputClass =
  'block h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 aria-[invalid=true]:border-rose-500 disabled:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-white dark:disabled:bg-slate-800'
const buttonClass =
  'inline-flex h-11 items-center justify-center gap-2 rounded-xl px-4 font-semibold'
const count = new Intl.NumberFormat('en-IN')

function FieldShell({
  id,
  label,
  required,
  error,
  hint,
  children,
}: {
  id: string
  label: string
  required?: boolean
  error?: string
  hint?: string
  children: React.ReactNode
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-rose-700 dark:text-rose-400">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

function GatewayForm({
  form,
  errors,
  formError,
  readOnlyPaytm,
  freeTypes,
}: {
  form: NonNullable<Route.ComponentProps['loaderData']['form']>
  errors: GatewayFieldErrors
  formError?: string
  readOnlyPaytm: boolean
  freeTypes: readonly GatewayType[]
}) {
  const baseId = useId()
  const navigation = useNavigation()
  const type = form.mode === 'edit' ? form.gateway.type : form.type
  const gateway = form.mode === 'edit' ? form.gateway : null
  const fieldsReadOnly = readOnlyPaytm && type === 'paytm'
  const describe = (name: string) => (errors[name] ? `${baseId}-${name}-error` : undefined)
  return (
    <section
      aria-labelledby={`${baseId}-heading`}
      className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={`${baseId}-heading`} className="text-lg font-bold text-slate-950 dark:text-white">
        {gateway ? `Edit ${gateway.name}` : 'Add Gateway'}
      </h2>
      {formError ? (
        <div
          role="alert"
          className="mt-3 rounded-xl border border-rose-200 bg-rose-50 px-3 py-2.5 text-sm font-medium text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200"
        >
          {formError}
          {errors.form ? <span className="block font-normal">{errors.form}</span> : null}
        </div>
      ) : null}
      {!gateway ? (
        <nav aria-label="Gateway type" className="mt-4">
          <p className="text-sm font-medium text-slate-800 dark:text-slate-200">
            Type<span aria-hidden="true"> *</span>
          </p>
          <ul className="mt-1.5 flex flex-wrap gap-2">
            {freeTypes.map((option) => (
              <li key={option}>
                <Link
                  to={`?add=${option}`}
                  replace
                  aria-current={option === type ? 'true' : undefined}
                  className="inline-flex h-9 items-center rounded-lg border border-slate-300 px-3 text-sm font-semibold text-slate-700 aria-[current=true]:border-brand-600 aria-[current=true]:bg-brand-50 aria-[current=true]:text-brand-800 dark:border-slate-600 dark:text-slate-200 dark:aria-[current=true]:bg-brand-950 dark:aria-[current=true]:text-brand-200"
                >
                  {GATEWAY_TYPE_LABELS[option]}
                </Link>
              </li>
            ))}
          </ul>
          {errors.type ? (
            <p className="mt-1 text-sm font-medium text-rose-700 dark:text-rose-400">
              {errors.type}
            </p>
          ) : null}
        </nav>
      ) : null}
      <Form method="post" noValidate className="mt-4 space-y-4">
        <input type="hidden" name="mode" value={gateway ? 'edit' : 'add'} />
        {gateway ? <input type="hidden" name="id" value={gateway.id} /> : null}
        <input type="hidden" name="type" value={type} />
        {gateway ? (
          <p className="text-sm text-slate-700 dark:text-slate-200">
            Type: <strong>{GATEWAY_TYPE_LABELS[type]}</strong>{' '}
            <span className="text-slate-500 dark:text-slate-400">(cannot be changed)</span>
          </p>
        ) : null}
        <FieldShell id={`${baseId}-name`} label="Name" required error={errors.name}>
          <input
            id={`${baseId}-name`}
            name="name"
            defaultValue={gateway?.name ?? GATEWAY_TYPE_LABELS[type]}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describe('name')}
            className={inputClass}
          />
        </FieldShell>
        <FieldShell id={`${baseId}-status`} label="Status" error={errors.status}>
          <select
            id={`${baseId}-status`}
            name="status"
            defaultValue={gateway?.status ?? 'testing'}
            className={inputClass}
          >
            {GATEWAY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {GATEWAY_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </FieldShell>
        {fieldsReadOnly ? (
          <p className="rounded-xl bg-slate-100 px-3 py-2.5 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            The Paytm settings come from the PAYTM_* environment variables and cannot be changed
            here.
          </p>
        ) : GATEWAY_FIELDS[type].length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            This gateway type has no settings yet.
          </p>
        ) : (
          GATEWAY_FIELDS[type].map((field) => {
            const id = `${baseId}-${field.name}`
            const stored = gateway?.secretsSet[field.name] ?? false
            const hint = field.secret
              ? stored
                ? 'A key is stored (hidden). Leave blank to keep it.'
                : (field.hint ?? 'Stored encrypted; never shown again.')
              : field.hint
            return (
              <FieldShell
                key={field.name}
                id={id}
                label={field.label}
                required={field.credential}
                error={errors[field.name]}
                hint={hint}
              >
                {field.options ? (
                  <select
                    id={id}
                    name={field.name}
                    defaultValue={gateway?.config[field.name] || field.options[0]}
                    className={inputClass}
                  >
                    {field.options.map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={id}
                    name={field.name}
                    type={field.secret ? 'password' : field.type === 'url' ? 'url' : 'text'}
                    autoComplete={field.secret ? 'new-password' : 'off'}
                    defaultValue={field.secret ? '' : (gateway?.config[field.name] ?? '')}
                    placeholder={field.secret && stored ? '••••••••••••••••' : field.placeholder}
                    aria-invalid={errors[field.name] ? true : undefined}
                    aria-describedby={errors[field.name] ? `${id}-error` : `${id}-hint`}
                    className={inputClass}
                  />
                )}
              </FieldShell>
            )
          })
        )}
        <div className="flex gap-3">
          <button
            type="submit"
            disabled={navigation.state === 'submitting'}
            className={`${buttonClass} bg-brand-600 text-white hover:bg-brand-700 disabled:opacity-70`}
          >
            {navigation.state === 'submitting' ? 'Saving...' : 'Save Gateway'}
          </button>
          <Link
            to="/admin/gateways"
            className={`${buttonClass} border border-slate-300 text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800`}
          >
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  )
}

function GatewayCard({
  gateway,
  environment,
}: {
  gateway: GatewayView
  environment: Record<string, string> | null
}) {
  const fields = GATEWAY_FIELDS[gateway.type]
  const fromEnvironment = gateway.type === 'paytm' && environment
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-bold text-slate-950 dark:text-white">{gateway.name}</h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {GATEWAY_TYPE_LABELS[gateway.type]}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <span
            className={`rounded-full px-2.5 py-1 text-xs font-bold ${statusBadge[gateway.status] ?? ''}`}
          >
            {GATEWAY_STATUS_LABELS[gateway.status]}
          </span>
          <Link
            to={`?edit=${gateway.id}`}
            className="inline-flex h-9 items-center gap-1.5 rounded-lg border border-slate-300 px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            <Pencil aria-hidden="true" className="size-3.5" />
            Edit<span className="sr-only"> {gateway.name}</span>
          </Link>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <div className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
          <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">Transactions</dt>
          <dd className="text-xl font-bold text-slate-950 dark:text-white">
            {count.format(gateway.transactions)}
          </dd>
        </div>
        <div className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
          <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">Revenue</dt>
          <dd className="text-xl font-bold text-slate-950 dark:text-white">
            {formatRupees(gateway.revenue)}
          </dd>
        </div>
      </dl>
      {gateway.testTransactions > 0 ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Including {count.format(gateway.testTransactions)} test-mode payment
          {gateway.testTransactions === 1 ? '' : 's'} ({formatRupees(gateway.testRevenue)}), no real
          money.
        </p>
      ) : null}
      <dl className="mt-4 space-y-1 text-sm">
        {fromEnvironment
          ? Object.entries(environment).map(([name, value]) => (
              <div key={name} className="flex justify-between gap-3">
                <dt className="font-mono text-slate-600 dark:text-slate-300">{name}</dt>
                <dd className="text-right break-all text-slate-900 dark:text-slate-100">{value}</dd>
              </div>
            ))
          : fields.map((field) => (
              <div key={field.name} className="flex justify-between gap-3">
                <dt className="text-slate-600 dark:text-slate-300">{field.label}</dt>
                <dd className="text-right break-all text-slate-900 dark:text-slate-100">
                  {field.secret
                    ? gateway.secretsSet[field.name]
                      ? '•••••••• (set)'
                      : 'Not set'
                    : gateway.config[field.name] || '—'}
                </dd>
              </div>
            ))}
      </dl>
      {fromEnvironment ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          From the environment (read-only); these win over stored settings.
        </p>
      ) : null}
    </li>
  )
}

export default function AdminGateways({ loaderData, actionData }: Route.ComponentProps) {
  const { gateways, form, freeTypes, saved, paytmEnvironment, paytmSource } = loaderData
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Payment Gateways"
        description="Configure how customers pay. Figures are successful payments from real orders."
      >
        {freeTypes.length > 0 && !form ? (
          <Link
            to={`?add=${freeTypes[0]}`}
            className={`${buttonClass} bg-brand-600 text-white hover:bg-brand-700`}
          >
            <Plus aria-hidden="true" className="size-4" />
            Add Gateway
          </Link>
        ) : null}
      </PageHeader>

      {saved ? (
        <p
          role="status"
          className="flex items-center gap-2 rounded-xl border border-emerald-200 bg-emerald-50 px-3 py-2.5 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200"
        >
          <CircleCheck aria-hidden="true" className="size-4" />
          Gateway configuration saved.
        </p>
      ) : null}
      {paytmSource === 'simulator' ? (
        <p
          role="note"
          className="flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100"
        >
          <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            <strong>Test mode</strong>: no Paytm merchant is configured, so checkout uses the
            built-in Paytm simulator and no real money moves. Enter your merchant ID and key below
            (or set PAYTM_MID and PAYTM_MERCHANT_KEY) to take real payments.
          </span>
        </p>
      ) : paytmSource === 'environment' ? (
        <p
          role="note"
          className="flex items-start gap-2 rounded-xl bg-slate-100 px-3 py-2.5 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200"
        >
          <Server aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          Paytm is configured by environment variables, which win over the settings stored here.
        </p>
      ) : paytmSource === 'off' ? (
        <p
          role="note"
          className="rounded-xl border border-rose-200 bg-rose-50 px-3 py-2.5 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200"
        >
          The Paytm gateway is inactive (or its stored key cannot be read): customers cannot pay
          until it is active or testing again.
        </p>
      ) : null}

      {form ? (
        <GatewayForm
          key={form.mode === 'edit' ? form.gateway.id : `add-${form.type}`}
          form={form}
          errors={actionData?.errors ?? {}}
          formError={actionData?.formError}
          readOnlyPaytm={paytmEnvironment !== null}
          freeTypes={freeTypes}
        />
      ) : null}

      <ul className="grid gap-4 md:grid-cols-2" aria-label="Gateways">
        {gateways.map((gateway) => (
          <GatewayCard key={gateway.id} gateway={gateway} environment={paytmEnvironment} />
        ))}
      </ul>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Payment Gateways')
}
