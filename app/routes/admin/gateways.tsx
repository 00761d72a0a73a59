import CircleCheck from 'lucide-react/icons/circle-check'
import FlaskConical from 'lucide-react/icons/flask-conical'
import Pencil from 'lucide-react/icons/pencil'
import Plus from 'lucide-react/icons/plus'
import Server from 'lucide-react/icons/server'
import ArrowDown from 'lucide-react/icons/arrow-down'
import ArrowUp from 'lucide-react/icons/arrow-up'
import PlugZap from 'lucide-react/icons/plug-zap'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useId, useRef, useState, type ReactNode } from 'react'
import { data, Form, href, Link, redirect, useNavigation } from 'react-router'
import { accountPageMeta } from '~/components/auth/messages'
import { PageHeader } from '~/components/admin/page-header'
import { PageNote } from '~/components/admin/page-note'
import { FormAlert, SelectField, TextField, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { Card } from '~/components/ui/card'
import { Pill } from '~/components/ui/badge'
import { cn } from '~/components/ui/cn'
import { FieldError } from '~/components/ui/field'
import {
  ensureDefaultGateway,
  gatewayOverview,
  listGateways,
  moveGateway,
  saveGateway,
  type GatewayView,
} from '~/data/gateway.server'
import type { GatewayTotals } from '~/data/order.server'
import { testGatewayConnection, type ConnectionTest } from '~/services/payment/gateways.server'
import { checkoutGateways, type CheckoutGateway } from '~/services/payment/offered-gateways.server'
import { services } from '~/lib/app-context.server'
import type { Env } from '~/lib/env.server'
import { formatRupees } from '~/lib/money'
import { PAYTM_HOSTS, resolvePaytmSetup } from '~/services/payment/config.server'
import { RAZORPAY_WEBHOOK_PATH } from '~/services/payment/razorpay-config.server'
import { RAZORPAY_API_HOST } from '~/lib/payments/razorpay.server'
import { PHONEPE_WEBHOOK_PATH } from '~/services/payment/phonepe-config.server'
import { phonePeHosts } from '~/lib/payments/phonepe.server'
import { CopyButton } from '~/components/ui/copy-button'
import { requireShopConfiguration } from '~/services/permissions.server'
import {
  GATEWAY_FIELDS,
  GATEWAY_SAVE_FAILED,
  GATEWAY_STATUS_LABELS,
  GATEWAY_STATUSES,
  GATEWAY_TYPE_LABELS,
  GATEWAY_TYPES,
  gatewayFormData,
  gatewayLabel,
  gatewaySchema,
  type GatewayFieldErrors,
  type GatewayType,
} from '~/lib/validation/gateway'
import { parseSubmission } from '~/lib/validation/submission'
import type { AdminPageHandle } from '~/components/admin/admin-shell'
import type { Route } from './+types/gateways'
import { recordAdminChange } from '~/services/audit.server'
import { clientIp } from '~/lib/rate-limit.server'
import { readFormData } from '~/lib/form-data.server'

/**
 * /admin/gateways: the gateway records, and a card for each gateway that takes payments without
 * a record (a built-in simulator, one set by the environment), each with its transactions and
 * revenue, real and test mode apart; and the add/edit form. Secrets are write-only: the page shows
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

/**
 * A gateway that takes, or took, payments without a record of its own: a built-in simulator of
 * a fresh install, one set only by the environment, or one checkout no longer offers whose past
 * payments would otherwise be nowhere on the page.
 */
interface UnrecordedGateway {
  type: string
  name: string
  /** How checkout uses it now. */
  kind: 'simulator' | 'environment' | 'not-offered'
  totals: GatewayTotals
  /** Whether a record can be added for it (`?add=type`). */
  addable: boolean
}

const NO_PAYMENTS: GatewayTotals = {
  transactions: 0,
  revenue: 0,
  testTransactions: 0,
  testRevenue: 0,
}

/** The unrecorded gateways: those checkout offers, in its order, then those with past payments. */
function unrecordedGateways(
  records: GatewayView[],
  checkout: CheckoutGateway[],
  totals: Record<string, GatewayTotals>,
  env: Pick<Env, 'PAYTM_MID' | 'RAZORPAY_KEY_ID' | 'PHONEPE_CLIENT_ID'>,
): UnrecordedGateway[] {
  const recorded = new Set(records.map((record) => record.type as string))
  const offered = checkout.map((gateway) => gateway.id as string)
  const paid = Object.keys(totals)
    .filter((type) => !offered.includes(type))
    .sort()
  return [...offered, ...paid]
    .filter((type) => !recorded.has(type))
    .map((type) => ({
      type,
      name: gatewayLabel(type),
      kind: !offered.includes(type)
        ? 'not-offered'
        : fromEnvironment(env, type)
          ? 'environment'
          : 'simulator',
      totals: totals[type] ?? NO_PAYMENTS,
      addable: (GATEWAY_TYPES as readonly string[]).includes(type),
    }))
}

/** This page says what test mode means here; the admin shell leaves its own banner out. */
export const handle: AdminPageHandle = { ownTestModeNote: true }

export async function loader({ request }: Route.LoaderArgs) {
  await requireShopConfiguration(request)
  const { db, env } = services()
  // Spec: with no gateway at all, a default Paytm gateway (testing, staging) is created.
  await ensureDefaultGateway(db)
  const [{ records: gateways, totals }, setup, checkout] = await Promise.all([
    gatewayOverview(db, env.APP_SECRET),
    resolvePaytmSetup(db, env),
    checkoutGateways(db, env),
  ])
  const url = new URL(request.url)
  return {
    gateways,
    unrecorded: unrecordedGateways(gateways, checkout, totals, env),
    checkout,
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
    razorpayEnvironment: env.RAZORPAY_KEY_ID
      ? {
          RAZORPAY_KEY_ID: env.RAZORPAY_KEY_ID,
          RAZORPAY_KEY_SECRET: 'set (hidden)',
          RAZORPAY_WEBHOOK_SECRET: env.RAZORPAY_WEBHOOK_SECRET ? 'set (hidden)' : 'Not set',
          RAZORPAY_HOST: env.RAZORPAY_HOST ?? `${RAZORPAY_API_HOST} (default)`,
        }
      : null,
    razorpayWebhookUrl: `${env.PUBLIC_URL}${RAZORPAY_WEBHOOK_PATH}`,
    phonePeEnvironment: env.PHONEPE_CLIENT_ID
      ? {
          PHONEPE_CLIENT_ID: env.PHONEPE_CLIENT_ID,
          PHONEPE_CLIENT_SECRET: 'set (hidden)',
          PHONEPE_CLIENT_VERSION: env.PHONEPE_CLIENT_VERSION ?? '1 (default)',
          PHONEPE_ENV: env.PHONEPE_ENV ?? 'sandbox (default)',
          PHONEPE_WEBHOOK_USERNAME: env.PHONEPE_WEBHOOK_USERNAME ?? 'Not set',
          PHONEPE_WEBHOOK_PASSWORD: env.PHONEPE_WEBHOOK_PASSWORD ? 'set (hidden)' : 'Not set',
          PHONEPE_HOST:
            env.PHONEPE_HOST ?? `${phonePeHosts(env.PHONEPE_ENV ?? 'sandbox').pgHost} (default)`,
        }
      : null,
    phonePeWebhookUrl: `${env.PUBLIC_URL}${PHONEPE_WEBHOOK_PATH}`,
  }
}

/** The answer of a gateway card's own buttons (Test connection, move up or down). */
type CardAnswer = { card: { id: string } & ConnectionTest }

/**
 * A refused save: Conform's reply, and for an edit the version of the record the form's values
 * came from (the one it posted). The form keeps posting it, so only reloading the page makes a
 * stale form current, with or without JavaScript.
 */
type SaveAnswer = {
  result: SubmissionResult<string[]>
  edit: { id: string; version: string } | null
}

/** Every secret field name: a refused save never sends what was typed into one back. */
const SECRET_FIELDS = [
  ...new Set(
    Object.values(GATEWAY_FIELDS).flatMap((fields) =>
      fields.filter((field) => field.secret).map((field) => field.name),
    ),
  ),
]

/** Whether the environment's settings win over the stored ones for a gateway type. */
function fromEnvironment(
  env: Pick<Env, 'PAYTM_MID' | 'RAZORPAY_KEY_ID' | 'PHONEPE_CLIENT_ID'>,
  type: string,
): boolean {
  return (
    (Boolean(env.PAYTM_MID) && type === 'paytm') ||
    (Boolean(env.RAZORPAY_KEY_ID) && type === 'razorpay') ||
    (Boolean(env.PHONEPE_CLIENT_ID) && type === 'phonepe')
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireShopConfiguration(request)
  const { db, env } = services()
  const form = await readFormData(request)
  const intent = form.get('intent')
  const id = form.get('id')
  if (intent === 'test') {
    // A record's gateway, or one checkout offers without a record (its built-in simulator).
    const [records, checkout] = await Promise.all([
      listGateways(db, env.APP_SECRET),
      checkoutGateways(db, env),
    ])
    const type = [...records.map((g) => g.type as string), ...checkout.map((g) => g.id)].find(
      (known) => known === id,
    )
    if (!type) throw data('Unknown gateway', { status: 404 })
    const result = await testGatewayConnection(db, env, type)
    return data<CardAnswer>({ card: { id: type, ...result } })
  }
  if (intent === 'up' || intent === 'down') {
    const gateway = (await listGateways(db, env.APP_SECRET)).find((g) => g.id === id)
    if (!gateway) throw data('Unknown gateway', { status: 404 })
    // Recorded with the move: both land or neither (docs/audit.md).
    await moveGateway(db, gateway.id, intent, new Date(), (trx, moved) =>
      recordAdminChange(trx, {
        actor: { id: admin.id, name: admin.name, email: admin.email },
        ip: clientIp(context),
        action: 'gateway.move',
        target: { type: 'gateway', id: gateway.id },
        summary: `Moved the ${gateway.name} gateway ${intent} in the checkout order`,
        before: { order: moved.before.join(', ') },
        after: { order: moved.after.join(', ') },
      }).then(() => undefined),
    )
    // A redirect, so a reload never moves it again; the card keeps the focus by its anchor.
    return redirect(`${href('/admin/gateways')}#gateway-${gateway.id}`, 303)
  }
  const submission = parseSubmission(form, gatewaySchema)
  // An edit posts the version of the record its page showed (gatewayEditVersion).
  const postedVersion = form.get('version')
  const edit =
    form.get('mode') === 'edit' && typeof id === 'string'
      ? { id, version: typeof postedVersion === 'string' ? postedVersion : '' }
      : null
  // The form's message is always "could not save"; the data layer may add why ('form').
  const fail = (errors: GatewayFieldErrors = {}, status = 400) => {
    const { form: why, ...fields } = errors
    const fieldErrors = Object.fromEntries(
      Object.entries(fields).map(([name, message]) => [name, message ? [message] : []]),
    )
    const result: SubmissionResult<string[]> = submission.reply({
      formErrors: why ? [GATEWAY_SAVE_FAILED, why] : [GATEWAY_SAVE_FAILED],
      fieldErrors,
      // Secrets are write-only (docs/payments.md): what was typed is not sent back.
      hideFields: SECRET_FIELDS,
    })
    return data<SaveAnswer>({ result, edit }, { status })
  }
  if (submission.status !== 'success') return fail()
  const input = submission.value
  try {
    const result = await saveGateway(
      db,
      env.APP_SECRET,
      {
        ...gatewayFormData(input),
        mode: input.mode,
        id: input.id,
        // The environment's settings win: the stored ones are left as they are.
        keepFields: fromEnvironment(env, input.type),
        ...(edit ? { version: edit.version } : {}),
      },
      new Date(),
      // Recorded with the save, secrets masked (docs/audit.md).
      (trx, change) =>
        recordAdminChange(trx, {
          actor: { id: admin.id, name: admin.name, email: admin.email },
          ip: clientIp(context),
          action: change.created ? 'gateway.create' : 'gateway.update',
          target: { type: 'gateway', id: change.id },
          summary: `${change.created ? 'Added' : 'Saved'} the ${input.name} gateway (${change.type})`,
          before: change.before,
          after: change.after,
          secretFields: change.secretFields,
        }).then(() => undefined),
    )
    if (!result.ok) return fail(result.errors, result.stale ? 409 : 400)
    return redirect(`${href('/admin/gateways')}?saved=${encodeURIComponent(result.id)}`, 303)
  } catch (error) {
    console.error('[admin] saving a gateway failed:', error)
    return fail()
  }
}

const statusBadge: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  testing: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  inactive: 'bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
}
const count = new Intl.NumberFormat('en-IN')

/** A label with the asterisk of a field that must be filled in. */
function requiredLabel(label: string, required: boolean | undefined): ReactNode {
  return required ? (
    <>
      {label}
      <span aria-hidden="true"> *</span>
    </>
  ) : (
    label
  )
}

/** What a stored secret's field says under it: set, set under another APP_SECRET, or not. */
function secretHint(setting: { name: string; hint?: string }, gateway: GatewayView | null): string {
  if (gateway?.unreadableSecrets.includes(setting.name))
    return 'Stored under another APP_SECRET, so it cannot be used: enter it again.'
  if (gateway?.secretsSet[setting.name]) return 'A key is stored (hidden). Leave blank to keep it.'
  return setting.hint ?? 'Stored encrypted; never shown again.'
}

function GatewayForm({
  form: mode,
  lastResult,
  version,
  readOnlyPaytm,
  readOnlyRazorpay,
  readOnlyPhonePe,
  freeTypes,
}: {
  form: NonNullable<Route.ComponentProps['loaderData']['form']>
  lastResult: SubmissionResult<string[]> | undefined
  /** Edit: the version of the record the form's values came from (SaveAnswer). */
  version: string | undefined
  readOnlyPaytm: boolean
  readOnlyRazorpay: boolean
  readOnlyPhonePe: boolean
  freeTypes: readonly GatewayType[]
}) {
  const baseId = useId()
  const navigation = useNavigation()
  // Only this form's save: the cards' Test connection and move buttons post on the same page.
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save'
  const type = mode.mode === 'edit' ? mode.gateway.type : mode.type
  const gateway = mode.mode === 'edit' ? mode.gateway : null
  // The version of the record the fields were filled from, kept while the form stays open: the
  // page's data is read again after Test connection, and a newer version there would let the
  // fields (still holding the older values and what was typed) overwrite another admin's save.
  const [shownVersion] = useState(gateway?.version)
  const fieldsReadOnly =
    (readOnlyPaytm && type === 'paytm') ||
    (readOnlyRazorpay && type === 'razorpay') ||
    (readOnlyPhonePe && type === 'phonepe')
  const settings = GATEWAY_FIELDS[type]
  const [form, fields] = useAppForm({
    schema: gatewaySchema,
    lastResult,
    // Every refusal says "Failed to save gateway configuration" above the fields: the action's.
    checkInBrowser: false,
    defaultValue: {
      name: gateway?.name ?? GATEWAY_TYPE_LABELS[type],
      status: gateway?.status ?? 'testing',
      ...Object.fromEntries(
        settings
          .filter((field) => !field.secret)
          .map((field) => [
            field.name,
            gateway?.config[field.name] || (field.options ? field.options[0] : ''),
          ]),
      ),
    },
  })
  // Each type has its own settings: the fields are looked up by the names GATEWAY_FIELDS lists.
  const fieldOf = (name: string) =>
    (fields as unknown as Record<string, Parameters<typeof TextField>[0]['field']>)[name]!
  const [formError, why] = form.errors ?? []
  const typeError = fields.type.errors?.[0]
  return (
    <Card as="section" aria-labelledby={`${baseId}-heading`}>
      <h2 id={`${baseId}-heading`} className="text-lg font-bold text-slate-950 dark:text-white">
        {gateway ? `Edit ${gateway.name}` : 'Add Gateway'}
      </h2>
      {formError ? (
        <FormAlert id={form.errorId} className="mt-3">
          {formError}
          {why ? <span className="block font-normal">{why}</span> : null}
        </FormAlert>
      ) : null}
      {!gateway ? (
        <nav
          aria-label="Gateway type"
          aria-describedby={typeError ? fields.type.errorId : undefined}
          className="mt-4"
        >
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
                  aria-describedby={typeError ? fields.type.errorId : undefined}
                  className="inline-flex h-9 items-center rounded-lg border border-slate-300 px-3 text-sm font-semibold text-slate-700 aria-[current=true]:border-brand-600 aria-[current=true]:bg-brand-50 aria-[current=true]:text-brand-800 dark:border-slate-600 dark:text-slate-200 dark:aria-[current=true]:bg-brand-950 dark:aria-[current=true]:text-brand-200"
                >
                  {GATEWAY_TYPE_LABELS[option]}
                </Link>
              </li>
            ))}
          </ul>
          {typeError ? (
            <FieldError id={fields.type.errorId} className="mt-1">
              {typeError}
            </FieldError>
          ) : null}
        </nav>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="mode" value={gateway ? 'edit' : 'add'} />
        {gateway ? <input type="hidden" name="id" value={gateway.id} /> : null}
        {gateway ? (
          <input type="hidden" name="version" value={version ?? shownVersion ?? gateway.version} />
        ) : null}
        <input type="hidden" name="type" value={type} />
        {gateway ? (
          <p className="text-sm text-slate-700 dark:text-slate-200">
            Type: <strong>{GATEWAY_TYPE_LABELS[type]}</strong>{' '}
            <span className="text-slate-500 dark:text-slate-400">(cannot be changed)</span>
          </p>
        ) : null}
        <TextField label={requiredLabel('Name', true)} field={fields.name} />
        {fieldsReadOnly ? (
          // The environment decides whether checkout uses this gateway; the action keeps the
          // stored status whatever is posted.
          <input type="hidden" name="status" value={gateway?.status ?? 'testing'} />
        ) : (
          <SelectField label="Status" field={fields.status}>
            {GATEWAY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {GATEWAY_STATUS_LABELS[status]}
              </option>
            ))}
          </SelectField>
        )}
        {fieldsReadOnly ? (
          <p className="rounded-xl bg-slate-100 px-3 py-2.5 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            The {GATEWAY_TYPE_LABELS[type]} settings come from the{' '}
            {type === 'paytm' ? 'PAYTM_*' : type === 'phonepe' ? 'PHONEPE_*' : 'RAZORPAY_*'}{' '}
            environment variables and cannot be changed here. Checkout uses them whatever the status
            stored here says, so the status cannot be changed either (now{' '}
            {GATEWAY_STATUS_LABELS[gateway?.status ?? 'testing']}): only the name is saved.
          </p>
        ) : settings.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            This gateway type has no settings yet.
          </p>
        ) : (
          settings.map((setting) => {
            const stored = gateway?.secretsSet[setting.name] ?? false
            const hint = setting.secret ? secretHint(setting, gateway) : setting.hint
            const label = requiredLabel(setting.label, setting.credential)
            return setting.options ? (
              <SelectField
                key={setting.name}
                label={label}
                field={fieldOf(setting.name)}
                hint={hint}
              >
                {setting.options.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </SelectField>
            ) : (
              <TextField
                key={setting.name}
                label={label}
                field={fieldOf(setting.name)}
                type={setting.secret ? 'password' : setting.type === 'url' ? 'url' : 'text'}
                autoComplete={setting.secret ? 'new-password' : 'off'}
                placeholder={setting.secret && stored ? '••••••••••••••••' : setting.placeholder}
                hint={hint}
              />
            )
          })
        )}
        <div className="flex gap-3">
          <Button type="submit" pending={saving} pendingLabel="Saving..." className="shadow-none">
            Save Gateway
          </Button>
          <Link to={href('/admin/gateways')} className={buttonVariants({ variant: 'outline' })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  )
}

/** "1 transaction", "12 transactions". */
const transactions = (n: number) => `${count.format(n)} transaction${n === 1 ? '' : 's'}`

/**
 * A gateway's figures: real payments (money that reached the shop) and test-mode ones (a
 * built-in simulator or the gateway's test environment), each with its revenue, never added
 * together (docs/payments.md, "Gateways page").
 */
function Figures({ totals }: { totals: GatewayTotals }) {
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3">
      <div className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
        <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">Real payments</dt>
        <dd className="text-xl font-bold text-slate-950 tabular-nums dark:text-white">
          {formatRupees(totals.revenue)}
        </dd>
        <dd className="text-xs text-slate-600 dark:text-slate-300">
          {transactions(totals.transactions)}
        </dd>
      </div>
      <div className="rounded-xl border border-dashed border-amber-300 p-3 dark:border-amber-800">
        <dt className="flex items-center gap-1 text-xs font-medium text-amber-900 dark:text-amber-200">
          <FlaskConical aria-hidden="true" className="size-3.5" />
          Test payments
        </dt>
        <dd className="text-xl font-bold text-slate-950 tabular-nums dark:text-white">
          {formatRupees(totals.testRevenue)}
        </dd>
        <dd className="text-xs text-slate-600 dark:text-slate-300">
          {transactions(totals.testTransactions)}, no real money
        </dd>
      </div>
    </dl>
  )
}

const cardClass =
  'scroll-mt-24 rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900'
const cardLink = buttonVariants({ variant: 'outline', size: 'xs' })

/** The environment's settings of a gateway set by it, read-only. */
function EnvironmentSettings({ environment }: { environment: Record<string, string> }) {
  return (
    <>
      <dl className="mt-4 space-y-1 text-sm">
        {Object.entries(environment).map(([name, value]) => (
          <div key={name} className="flex justify-between gap-3">
            <dt className="font-mono text-slate-600 dark:text-slate-300">{name}</dt>
            <dd className="text-right break-all text-slate-900 dark:text-slate-100">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
        From the environment (read-only); these win over stored settings.
      </p>
    </>
  )
}

/** Test connection, where checkout stands with the gateway, and the last test's answer. */
function ConnectionTestForm({
  id,
  name,
  atCheckout,
  test,
  offerTest = true,
}: {
  id: string
  name: string
  atCheckout: { index: number; count: number } | null
  test: ConnectionTest | null
  /** False for a gateway with nothing to test (no record, not offered at checkout). */
  offerTest?: boolean
}) {
  const navigation = useNavigation()
  const testing =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'test' &&
    navigation.formData.get('id') === id
  const place = (
    <p className="text-xs text-slate-600 dark:text-slate-400">
      {atCheckout
        ? `Checkout position ${atCheckout.index} of ${atCheckout.count}`
        : 'Not offered at checkout'}
    </p>
  )
  return (
    <>
      {offerTest ? (
        <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
          <input type="hidden" name="id" value={id} />
          <Button
            type="submit"
            name="intent"
            value="test"
            variant="outline"
            pending={testing}
            pendingLabel="Testing…"
          >
            <PlugZap aria-hidden="true" className="size-4" />
            Test connection<span className="sr-only"> of {name}</span>
          </Button>
          {place}
        </Form>
      ) : (
        <div className="mt-4">{place}</div>
      )}
      {test ? (
        <p
          role="status"
          className={cn(
            'mt-3 rounded-xl border px-3 py-2.5 text-sm',
            test.ok
              ? 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200'
              : 'border-rose-200 bg-rose-50 text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200',
          )}
        >
          <strong>{test.ok ? 'Connected. ' : 'Connection failed. '}</strong>
          {test.message}
        </p>
      ) : null}
    </>
  )
}

/** Where the gateway's dashboard must send webhooks, with a copy button. */
function WebhookUrl({ url }: { url: string }) {
  const ref = useRef<HTMLElement>(null)
  return (
    <div className="mt-4 rounded-xl bg-slate-50 p-3 text-sm dark:bg-slate-800">
      <p className="font-medium text-slate-700 dark:text-slate-200">
        Webhook URL (paste it into the gateway’s dashboard)
      </p>
      <div className="mt-1 flex items-center justify-between gap-2">
        <code ref={ref} className="break-all text-slate-900 dark:text-slate-100">
          {url}
        </code>
        <CopyButton value={url} label="the webhook URL" target={() => ref.current} />
      </div>
    </div>
  )
}

function GatewayCard({
  gateway,
  environment,
  webhookUrl,
  place,
  atCheckout,
  test,
  testKind,
}: {
  gateway: GatewayView
  environment: Record<string, string> | null
  /** Where the gateway's dashboard must send webhooks, when it sends any. */
  webhookUrl?: string
  /** Its place among the cards (1-based), for moving it up or down, and how many there are. */
  place: { index: number; count: number }
  /** Its place among the ways checkout offers (1-based), or null when checkout does not offer it. */
  atCheckout: { index: number; count: number } | null
  /** The last Test connection answer for this gateway. */
  test: ConnectionTest | null
  /** How checkout uses it now when that is a test one: its built-in simulator, or its test environment. */
  testKind: string | null
}) {
  const fields = GATEWAY_FIELDS[gateway.type]
  const orderButton =
    'inline-flex size-9 items-center justify-center rounded-lg border border-slate-300 text-slate-800 hover:bg-slate-50 disabled:opacity-40 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800'
  return (
    <li id={`gateway-${gateway.id}`} className={cardClass}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-bold text-slate-950 dark:text-white">{gateway.name}</h2>
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
            {GATEWAY_TYPE_LABELS[gateway.type]}
            {testKind ? <Pill tone="warning">{testKind}</Pill> : null}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <span
            className={`rounded-full px-2.5 py-1 text-xs font-bold ${statusBadge[gateway.status] ?? ''}`}
          >
            {GATEWAY_STATUS_LABELS[gateway.status]}
          </span>
          <Form
            method="post"
            className="flex gap-1"
            aria-label={`Checkout order of ${gateway.name}`}
          >
            <input type="hidden" name="id" value={gateway.id} />
            <button
              type="submit"
              name="intent"
              value="up"
              className={orderButton}
              disabled={place.index === 1}
            >
              <ArrowUp aria-hidden="true" className="size-4" />
              <span className="sr-only">Move {gateway.name} up</span>
            </button>
            <button
              type="submit"
              name="intent"
              value="down"
              className={orderButton}
              disabled={place.index === place.count}
            >
              <ArrowDown aria-hidden="true" className="size-4" />
              <span className="sr-only">Move {gateway.name} down</span>
            </button>
          </Form>
          <Link to={`?edit=${gateway.id}`} className={cardLink}>
            <Pencil aria-hidden="true" className="size-3.5" />
            Edit<span className="sr-only"> {gateway.name}</span>
          </Link>
        </div>
      </div>
      <Figures totals={gateway} />
      {environment ? (
        <EnvironmentSettings environment={environment} />
      ) : (
        <dl className="mt-4 space-y-1 text-sm">
          {fields.map((field) => (
            <div key={field.name} className="flex justify-between gap-3">
              <dt className="text-slate-600 dark:text-slate-300">{field.label}</dt>
              <dd className="text-right break-all text-slate-900 dark:text-slate-100">
                {field.secret
                  ? gateway.secretsSet[field.name]
                    ? '•••••••• (set)'
                    : gateway.unreadableSecrets.includes(field.name)
                      ? 'Stored under another APP_SECRET: enter it again'
                      : 'Not set'
                  : gateway.config[field.name] || '—'}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <ConnectionTestForm id={gateway.id} name={gateway.name} atCheckout={atCheckout} test={test} />
      {webhookUrl ? <WebhookUrl url={webhookUrl} /> : null}
    </li>
  )
}

const UNRECORDED_KIND: Record<UnrecordedGateway['kind'], string> = {
  simulator: 'No settings stored',
  environment: 'Set by the environment',
  'not-offered': 'No settings stored',
}

/**
 * A gateway that takes, or took, payments with no record of its own (UnrecordedGateway): its
 * figures, how checkout uses it, and Set up, which adds its record.
 */
function UnrecordedGatewayCard({
  gateway,
  environment,
  webhookUrl,
  atCheckout,
  test,
  testKind,
}: {
  gateway: UnrecordedGateway
  environment: Record<string, string> | null
  webhookUrl?: string
  atCheckout: { index: number; count: number } | null
  test: ConnectionTest | null
  /** As on a record's card (testKindOf). */
  testKind: string | null
}) {
  const { name, kind } = gateway
  return (
    <li id={`gateway-${gateway.type}`} className={cardClass}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-bold text-slate-950 dark:text-white">{name}</h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">{UNRECORDED_KIND[kind]}</p>
        </div>
        <div className="flex items-center gap-2">
          {testKind ? (
            <Pill tone="warning">{testKind}</Pill>
          ) : kind === 'not-offered' ? (
            <Pill tone="neutral">Not offered</Pill>
          ) : null}
          {gateway.addable ? (
            <Link to={`?add=${gateway.type}`} className={cardLink}>
              <Plus aria-hidden="true" className="size-3.5" />
              Set up<span className="sr-only"> {name}</span>
            </Link>
          ) : null}
        </div>
      </div>
      <Figures totals={gateway.totals} />
      {kind === 'environment' && environment ? (
        <EnvironmentSettings environment={environment} />
      ) : (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
          {kind === 'simulator'
            ? `While no real gateway is configured, checkout offers ${name}'s built-in simulator: its payments move no real money. Set it up with your ${name} keys to take real payments.`
            : `Checkout does not offer ${name} now: these are the payments it took before.`}
        </p>
      )}
      <ConnectionTestForm
        id={gateway.type}
        name={name}
        atCheckout={atCheckout}
        test={test}
        offerTest={atCheckout !== null}
      />
      {kind === 'environment' && webhookUrl ? <WebhookUrl url={webhookUrl} /> : null}
    </li>
  )
}

/** "Built-in simulator" or "Test environment" while checkout takes test payments through `type`. */
function testKindOf(checkout: CheckoutGateway[], type: string): string | null {
  const offered = checkout.find((gateway) => gateway.id === type)
  if (!offered?.testMode) return null
  return offered.sandbox ? 'Test environment' : 'Built-in simulator'
}

function checkoutPlace(
  checkout: CheckoutGateway[],
  type: string,
): { index: number; count: number } | null {
  const index = checkout.findIndex((offered) => offered.id === type)
  return index === -1 ? null : { index: index + 1, count: checkout.length }
}

/**
 * What a buyer is offered at checkout right now, in order: the cards below in their order, then
 * gateways set only by the environment and the built-in simulators of gateways with no card
 * (docs/payments.md, "Choosing how to pay"). A fresh shop offers all three simulators.
 */
function CheckoutOffer({ checkout }: { checkout: CheckoutGateway[] }) {
  if (checkout.length === 0) {
    return (
      <p
        role="note"
        className="rounded-xl border border-rose-200 bg-rose-50 px-3 py-2.5 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200"
      >
        Checkout offers no way to pay: make a gateway active or testing.
      </p>
    )
  }
  return (
    <Card as="section" aria-labelledby="checkout-offer">
      <h2 id="checkout-offer" className="text-sm font-semibold text-slate-950 dark:text-white">
        At checkout now
      </h2>
      <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
        {checkout.length === 1
          ? 'Buyers pay this way, with no choice to make.'
          : 'Buyers pick one of these, in this order.'}
      </p>
      <ol className="mt-3 space-y-2">
        {checkout.map((offered, index) => (
          <li key={offered.id} className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium text-slate-500 tabular-nums dark:text-slate-400">
              {index + 1}.
            </span>
            <span className="text-slate-900 dark:text-slate-100">{offered.label}</span>
            {offered.testMode ? (
              <Pill tone="warning">
                {offered.sandbox ? 'Test environment' : 'Built-in simulator'}
              </Pill>
            ) : null}
          </li>
        ))}
      </ol>
    </Card>
  )
}

/**
 * Whether the whole shop is in test mode (testModeOnly in offered-gateways.server.ts): checkout
 * offers gateways and every one is a built-in simulator or a test environment.
 */
function onlyTestMode(checkout: CheckoutGateway[]): boolean {
  return checkout.length > 0 && checkout.every((offered) => offered.testMode)
}

/**
 * The page's one test-mode banner while every way to pay is a test one. The admin shell's own
 * banner, which says the same on other pages, is left out here (this route's `handle`, read by
 * pageExplainsTestMode in app/components/admin/admin-shell.tsx).
 */
function TestModeNote({ checkout }: { checkout: CheckoutGateway[] }) {
  if (!onlyTestMode(checkout)) return null
  return (
    <PageNote tone="amber" icon={FlaskConical} label="Test mode">
      <strong>Test mode</strong>: every way to pay at checkout is a built-in simulator or a
      gateway&apos;s test environment, so no real money moves and real stock is not sold (buyers get
      test items only). To take real payments, set up a gateway below with its live keys (or set
      them in the environment, such as PAYTM_MID and PAYTM_MERCHANT_KEY).
    </PageNote>
  )
}

/**
 * Where Paytm stands, about Paytm only: checkout may offer other gateways beside it (the
 * "At checkout now" list says which). While the whole shop is in test mode, TestModeNote says
 * so once, for Paytm too.
 */
function PaytmNote({
  source,
  checkout,
}: {
  /** Where Paytm's settings come from now (GatewaySource), or 'off'. */
  source: string
  checkout: CheckoutGateway[]
}) {
  if (source === 'simulator') {
    if (onlyTestMode(checkout)) return null
    return (
      <PageNote tone="amber" icon={FlaskConical} label="Paytm in test mode">
        <strong>Paytm in test mode</strong>: no Paytm merchant is configured, so Paytm at checkout
        is the built-in simulator and its payments move no real money. Enter your merchant ID and
        key below (or set PAYTM_MID and PAYTM_MERCHANT_KEY) to take real payments through Paytm.
      </PageNote>
    )
  }
  if (source === 'environment') {
    return (
      <p
        role="note"
        className="flex items-start gap-2 rounded-xl bg-slate-100 px-3 py-2.5 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200"
      >
        <Server aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        Paytm is configured by environment variables, which win over the settings stored here.
      </p>
    )
  }
  if (source === 'off') {
    // With no way to pay at all, "At checkout now" says so in red; otherwise this is a choice.
    return (
      <p
        role="note"
        className={cn(
          'rounded-xl px-3 py-2.5 text-sm',
          checkout.length === 0
            ? 'border border-rose-200 bg-rose-50 text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200'
            : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
        )}
      >
        The Paytm gateway is inactive (or its stored key cannot be read): checkout does not offer
        Paytm until it is active or testing again.
      </p>
    )
  }
  return null
}

export default function AdminGateways({ loaderData, actionData }: Route.ComponentProps) {
  const {
    gateways,
    unrecorded,
    checkout,
    form,
    freeTypes,
    saved,
    paytmEnvironment,
    paytmSource,
    razorpayEnvironment,
    razorpayWebhookUrl,
    phonePeEnvironment,
    phonePeWebhookUrl,
  } = loaderData
  const testOf = (id: string) =>
    actionData && 'card' in actionData && actionData.card.id === id ? actionData.card : null
  const environmentOf = (type: string) =>
    type === 'paytm'
      ? paytmEnvironment
      : type === 'razorpay'
        ? razorpayEnvironment
        : type === 'phonepe'
          ? phonePeEnvironment
          : null
  const webhookOf = (type: string) =>
    type === 'razorpay' ? razorpayWebhookUrl : type === 'phonepe' ? phonePeWebhookUrl : undefined
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Payment Gateways"
        description="Configure how customers pay. Each gateway's figures are its successful payments less refunds: real payments, and test payments (a built-in simulator or a test environment, no real money) counted apart."
      >
        {freeTypes.length > 0 && !form ? (
          <Link
            to={`?add=${freeTypes[0]}`}
            className={cn(buttonVariants({ variant: 'primary' }), 'shadow-none')}
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
      <TestModeNote checkout={checkout} />
      <PaytmNote source={paytmSource} checkout={checkout} />

      <CheckoutOffer checkout={checkout} />

      {form ? (
        <GatewayForm
          key={form.mode === 'edit' ? form.gateway.id : `add-${form.type}`}
          form={form}
          lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
          version={
            actionData &&
            'edit' in actionData &&
            form.mode === 'edit' &&
            actionData.edit?.id === form.gateway.id
              ? actionData.edit.version
              : undefined
          }
          readOnlyPaytm={paytmEnvironment !== null}
          readOnlyRazorpay={razorpayEnvironment !== null}
          readOnlyPhonePe={phonePeEnvironment !== null}
          freeTypes={freeTypes}
        />
      ) : null}

      <ul className="grid gap-4 md:grid-cols-2" aria-label="Gateways">
        {gateways.map((gateway, index) => (
          <GatewayCard
            key={gateway.id}
            gateway={gateway}
            place={{ index: index + 1, count: gateways.length }}
            atCheckout={checkoutPlace(checkout, gateway.type)}
            test={testOf(gateway.id)}
            testKind={testKindOf(checkout, gateway.type)}
            environment={environmentOf(gateway.type)}
            webhookUrl={webhookOf(gateway.type)}
          />
        ))}
        {unrecorded.map((gateway) => (
          <UnrecordedGatewayCard
            key={gateway.type}
            gateway={gateway}
            atCheckout={checkoutPlace(checkout, gateway.type)}
            test={testOf(gateway.type)}
            testKind={testKindOf(checkout, gateway.type)}
            environment={environmentOf(gateway.type)}
            webhookUrl={webhookOf(gateway.type)}
          />
        ))}
      </ul>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Payment Gateways')
}
