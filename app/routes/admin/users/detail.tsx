import { getFormProps } from '@conform-to/react'
import KeyRound from 'lucide-react/icons/key-round'
import Lock from 'lucide-react/icons/lock'
import Pencil from 'lucide-react/icons/pencil'
import ShieldCheck from 'lucide-react/icons/shield-check'
import UserCheck from 'lucide-react/icons/user-check'
import UserX from 'lucide-react/icons/user-x'
import { useState, type ReactNode } from 'react'
import { data, Form, isRouteErrorResponse, Link, useLoaderData, useNavigation } from 'react-router'
import { Badge, type BadgeTone } from '~/components/admin/badge'
import { DetailCard } from '~/components/admin/detail-card'
import { AdminErrorPage } from '~/components/admin/error-page'
import { FlashNotice } from '~/components/admin/flash-notice'
import { AdminStatusBadge, OrderLink } from '~/components/admin/order-badges'
import { BackLink } from '~/components/admin/page-header'
import { ListPagination } from '~/components/admin/pagination'
import { accountPageMeta } from '~/components/auth/messages'
import { FormErrors, SelectField, TextField, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { ConfirmPanel } from '~/components/ui/confirm-panel'
import { useConfirmedSubmit, type ConfirmOptions } from '~/components/ui/confirm'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '~/components/ui/dialog'
import { Field } from '~/components/ui/field'
import { Checkbox, Input } from '~/components/ui/input'
import { services } from '~/lib/app-context.server'
import { readFlash } from '~/lib/flash.server'
import {
  editUserSchema,
  resetPasswordSchema,
  USER_ADMIN_MESSAGES,
  type UserActionIntent,
} from '~/lib/validation/user-admin'
import { requirePermission } from '~/services/permissions.server'
import { userAction, userPageData, type UserActionData } from './detail.server'
import {
  STATUS_LABELS,
  USER_FORM_QUERY,
  ordersPageOf,
  USER_NOT_FOUND_TITLE,
  userFormFromUrl,
  userFormPath,
  USERS_PATH,
  userPath,
  type UserFormIntent,
  type UserStatus,
} from './filters'
import type { Route } from './+types/detail'

/**
 * /admin/users/{userId} (Can Manage Users): one account (role, status, permissions, when it
 * joined and was last active, how it signs in), its orders, and the changes an admin makes:
 * Edit, Reset Password, Make Admin, Suspend and Reactivate. Each works without JavaScript
 * (docs/decisions/0001): Edit and Reset Password open in a dialog, or in the page at `?edit=1`,
 * `?reset=1`; the others are confirmed in a dialog, or in a panel on the page.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requirePermission(request, 'canManageUsers')
  const { db, env } = services()
  const url = new URL(request.url)
  const page = ordersPageOf(url)
  const [pageData, { flash, headers }] = await Promise.all([
    userPageData(db, env, params.userId, admin.id, page),
    readFlash(request),
  ])
  if (!pageData) throw data({ title: USER_NOT_FOUND_TITLE }, { status: 404, headers })
  return data({ ...pageData, flash, form: userFormFromUrl(url) }, { headers })
}

export const action = userAction

type PageData = Route.ComponentProps['loaderData']

/**
 * The page of the user's orders list shown: the page's forms and links keep it, so a change
 * made while reading page 3 comes back to page 3.
 */
function useOrdersPage() {
  return useLoaderData<typeof loader>().orders.page
}
type PageUser = PageData['user']

const STATUS_TONES: Record<UserStatus, BadgeTone> = {
  active: 'success',
  suspended: 'danger',
  inactive: 'muted',
}

const PERMISSION_LABELS = {
  canCreateProducts: 'Can Create Products',
  canManageOrders: 'Can Manage Orders',
  canManageUsers: 'Can Manage Users',
} as const

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {label}
      </dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  )
}

function errorOf(actionData: UserActionData | undefined, intent: UserActionIntent) {
  return actionData?.intent === intent && actionData.step === 'error' ? actionData.result : null
}

/**
 * A dialog's open state: it opens again when its form comes back with errors (a new answer)
 * and closes once a change is done (a new one-time message after the redirect).
 */
function useDialogState(failure: object | null, flashId: string | undefined) {
  const [open, setOpen] = useState(false)
  const [seen, setSeen] = useState({ failure, flashId })
  if (seen.failure !== failure || seen.flashId !== flashId) {
    setSeen({ failure, flashId })
    if (failure && failure !== seen.failure) setOpen(true)
    else if (flashId && flashId !== seen.flashId) setOpen(false)
  }
  return [open, setOpen] as const
}

interface FormProps {
  user: PageUser
  actionData: UserActionData | undefined
  /** Shown in the page (?edit=1, ?reset=1) rather than in its dialog. */
  inPage: boolean
}

/**
 * One of the page's forms, posted with its `intent` (its errors first), and Cancel beside the
 * submit button: in its dialog, Cancel closes it; in the page, Cancel goes back to the user's
 * page and the form posts to the URL that shows it, so a refused change comes back in it.
 */
function IntentForm<Schema extends Parameters<typeof useAppForm>[0]['schema']>({
  intent,
  schema,
  formId,
  defaultValue,
  user,
  actionData,
  inPage,
  submitLabel,
  children,
}: FormProps & {
  intent: UserFormIntent
  schema: Schema
  /** A new id per version of the user, so the form starts over from the saved values. */
  formId: string
  defaultValue?: Record<string, unknown>
  submitLabel: string
  children: (fields: ReturnType<typeof useAppForm<Schema>>[1]) => ReactNode
}) {
  const lastResult = errorOf(actionData, intent)
  const navigation = useNavigation()
  const ordersPage = useOrdersPage()
  const [form, fields] = useAppForm({
    schema,
    id: formId,
    lastResult,
    defaultValue: { intent, ...defaultValue },
  })
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
  return (
    <Form
      method="post"
      action={inPage ? userFormPath(user.id, intent, ordersPage) : undefined}
      {...getFormProps(form)}
      className="mt-4 space-y-4"
    >
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} />
      {children(fields)}
      <div className="flex justify-end gap-2">
        {inPage ? (
          <Link
            to={userPath(user.id, ordersPage)}
            className={buttonVariants({ variant: 'secondary' })}
          >
            Cancel
          </Link>
        ) : (
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
        )}
        <Button type="submit" pending={busy} pendingLabel="Saving...">
          {submitLabel}
        </Button>
      </div>
    </Form>
  )
}

function EditUserForm(props: FormProps) {
  const { user } = props
  return (
    <IntentForm
      {...props}
      intent="update"
      schema={editUserSchema}
      formId={`edit-user-${user.version}`}
      defaultValue={{ name: user.name, role: user.role, status: user.status }}
      submitLabel="Save Changes"
    >
      {(fields) => (
        <>
          <input type="hidden" name="version" value={user.version} />
          <Field label="Email" id="edit-user-email" hint={USER_ADMIN_MESSAGES.emailReadOnly}>
            {(control) => <Input {...control} value={user.email} readOnly disabled />}
          </Field>
          <TextField label="Display name" field={fields.name} autoComplete="off" />
          <SelectField label="Role" field={fields.role}>
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </SelectField>
          <SelectField
            label="Status"
            field={fields.status}
            hint="An inactive account can still sign in and buy, without back-office access."
          >
            <option value="active">Active</option>
            <option value="suspended">Suspended</option>
            <option value="inactive">Inactive</option>
          </SelectField>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">
              Permissions (admins only)
            </legend>
            <div className="mt-2 space-y-2">
              {(Object.keys(PERMISSION_LABELS) as (keyof typeof PERMISSION_LABELS)[]).map(
                (name) => (
                  <label
                    key={name}
                    className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200"
                  >
                    <Checkbox name={name} defaultChecked={user.permissions[name]} />
                    {PERMISSION_LABELS[name]}
                  </label>
                ),
              )}
            </div>
          </fieldset>
          {user.locked ? (
            <p className="text-sm text-violet-800 dark:text-violet-300">
              {USER_ADMIN_MESSAGES.listedAdmin}.
            </p>
          ) : null}
        </>
      )}
    </IntentForm>
  )
}

function ResetPasswordForm(props: FormProps) {
  return (
    <IntentForm
      {...props}
      intent="reset-password"
      schema={resetPasswordSchema}
      formId={`reset-password-${props.user.id}`}
      submitLabel="Reset Password"
    >
      {(fields) => (
        <>
          <TextField
            label="New password"
            field={fields.password}
            type="password"
            autoComplete="new-password"
          />
          <TextField
            label="Confirm password"
            field={fields.confirmPassword}
            type="password"
            autoComplete="new-password"
          />
        </>
      )}
    </IntentForm>
  )
}

/** The page's forms: the button that opens each (and its title), what it does, its fields. */
const USER_FORMS: Record<
  UserFormIntent,
  {
    label: string
    icon: typeof Pencil
    description: (user: PageUser) => ReactNode
    Fields: (props: FormProps) => ReactNode
    contentClassName?: string
  }
> = {
  update: {
    label: 'Edit User',
    icon: Pencil,
    description: () => 'Change the name, role, status and permissions of this account.',
    Fields: EditUserForm,
    contentClassName: 'max-h-[calc(100dvh-2rem)] overflow-y-auto',
  },
  'reset-password': {
    label: 'Reset Password',
    icon: KeyRound,
    description: (user) => (
      <>
        Set a new password for {user.name || user.email}. They are signed out everywhere and told by
        e-mail that it changed.
      </>
    ),
    Fields: ResetPasswordForm,
  },
}

/** Reset Password is not offered on the page of a locked admin (ADMIN_EMAILS) but their own. */
const offersForm = (user: PageUser, intent: UserFormIntent) =>
  intent !== 'reset-password' || !user.locked || user.self

/**
 * The button of one of the page's forms. It sends `?edit=1` or `?reset=1` (the page then shows
 * the form in the page, `UserFormPanel`): what happens without JavaScript. With it, the button
 * opens the form's dialog instead, unless the page already shows that form.
 */
function UserFormButton({
  intent,
  user,
  actionData,
  flashId,
  inPage,
}: FormProps & { intent: UserFormIntent; flashId: string | undefined }) {
  const { label, icon: Icon, description, Fields, contentClassName } = USER_FORMS[intent]
  // A refusal of the form in the page is shown there: it must not open the dialog later.
  const [open, setOpen] = useDialogState(inPage ? null : errorOf(actionData, intent), flashId)
  const button = (
    <Button type="submit" variant="secondary" size="sm">
      <Icon aria-hidden="true" className="size-4" />
      {label}
    </Button>
  )
  const ordersPage = useOrdersPage()
  const query = (
    <>
      <input type="hidden" name={USER_FORM_QUERY[intent]} value="1" />
      {ordersPage > 1 ? <input type="hidden" name="page" value={ordersPage} /> : null}
    </>
  )
  if (inPage)
    return (
      <Form method="get" action={userPath(user.id)}>
        {query}
        {button}
      </Form>
    )
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {/* Sent only without the page's scripts (or before they run); with them it opens the dialog. */}
      <Form method="get" action={userPath(user.id)} onSubmit={(event) => event.preventDefault()}>
        {query}
        <DialogTrigger asChild>{button}</DialogTrigger>
      </Form>
      <DialogContent className={contentClassName}>
        <DialogTitle>{label}</DialogTitle>
        <DialogDescription>{description(user)}</DialogDescription>
        <Fields user={user} actionData={actionData} inPage={false} />
      </DialogContent>
    </Dialog>
  )
}

/** A form shown in the page (`?edit=1`, `?reset=1`), for a browser without JavaScript. */
function UserFormPanel({
  intent,
  user,
  actionData,
}: Omit<FormProps, 'inPage'> & { intent: UserFormIntent }) {
  const { label, description, Fields } = USER_FORMS[intent]
  return (
    <DetailCard headingId="user-form-heading" title={label}>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description(user)}</p>
      <Fields user={user} actionData={actionData} inPage />
    </DetailCard>
  )
}

const CONFIRMS: Record<
  'make-admin' | 'suspend' | 'reactivate',
  (user: PageUser) => ConfirmOptions & { label: string }
> = {
  'make-admin': (user) => ({
    label: 'Make Admin',
    title: 'Make this user an admin?',
    description: `${user.name || user.email} gets the admin role with every permission: products, orders and users.`,
    confirmLabel: 'Make Admin',
  }),
  suspend: (user) => ({
    label: 'Suspend',
    title: 'Suspend this user?',
    description: `${user.name || user.email} is signed out everywhere and cannot sign in until reactivated.`,
    confirmLabel: 'Suspend',
    destructive: true,
  }),
  reactivate: (user) => ({
    label: 'Reactivate',
    title: 'Reactivate this user?',
    description: `${user.name || user.email} can sign in again.`,
    confirmLabel: 'Reactivate',
  }),
}

const ICONS = { 'make-admin': ShieldCheck, suspend: UserX, reactivate: UserCheck }

function ConfirmedAction({
  user,
  intent,
}: {
  user: PageUser
  intent: 'make-admin' | 'suspend' | 'reactivate'
}) {
  const { label, ...options } = CONFIRMS[intent](user)
  const onSubmit = useConfirmedSubmit(options)
  const ordersPage = useOrdersPage()
  const Icon = ICONS[intent]
  return (
    <Form method="post" action={userPath(user.id, ordersPage)} onSubmit={onSubmit}>
      <input type="hidden" name="intent" value={intent} />
      <Button
        type="submit"
        variant={intent === 'suspend' ? 'dangerOutline' : 'secondary'}
        size="sm"
      >
        <Icon aria-hidden="true" className="size-4" />
        {label}
      </Button>
    </Form>
  )
}

function Actions({
  user,
  actionData,
  flashId,
  inPageForm,
}: {
  user: PageUser
  actionData: UserActionData | undefined
  flashId: string | undefined
  inPageForm: UserFormIntent | null
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {(Object.keys(USER_FORMS) as UserFormIntent[])
        .filter((intent) => offersForm(user, intent))
        .map((intent) => (
          <UserFormButton
            key={intent}
            intent={intent}
            user={user}
            actionData={actionData}
            flashId={flashId}
            inPage={inPageForm === intent}
          />
        ))}
      {user.isAdmin ? null : <ConfirmedAction user={user} intent="make-admin" />}
      {user.self || user.locked || user.status === 'suspended' ? null : (
        <ConfirmedAction user={user} intent="suspend" />
      )}
      {user.status === 'suspended' ? <ConfirmedAction user={user} intent="reactivate" /> : null}
    </div>
  )
}

function Orders({ page }: { page: PageData }) {
  const { orders, user } = page
  return (
    <DetailCard headingId="orders-heading" title="Orders">
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Orders placed with this account, or paid as a guest with its confirmed e-mail address,
        newest first.
      </p>
      {orders.rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">No orders yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
          {orders.rows.map((order) => (
            <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <OrderLink orderId={order.id} wrap />
                <p className="text-sm text-slate-700 dark:text-slate-300">{order.productName}</p>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  <time dateTime={order.createdAt}>{order.date}</time>
                </p>
              </div>
              <div className="flex items-center gap-2">
                <AdminStatusBadge status={order.status} />
                <span className="font-semibold tabular-nums text-slate-950 dark:text-white">
                  {order.amount}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ListPagination
        page={orders.page}
        pageCount={orders.pageCount}
        href={(n) => `${userPath(user.id)}${n > 1 ? `?page=${n}` : ''}`}
      />
    </DetailCard>
  )
}

export default function AdminUser({ loaderData, actionData }: Route.ComponentProps) {
  const { user, flash } = loaderData
  const inPageForm = loaderData.form && offersForm(user, loaderData.form) ? loaderData.form : null
  const confirming =
    actionData?.step === 'confirm' && actionData.intent in CONFIRMS ? actionData.intent : null
  const question = confirming ? CONFIRMS[confirming as keyof typeof CONFIRMS](user) : null
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <BackLink to={USERS_PATH}>All users</BackLink>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="break-words text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
            {user.name || user.email}
          </h1>
          <p className="mt-1 break-all text-sm text-slate-600 dark:text-slate-300">{user.email}</p>
          <div className="mt-2 flex flex-wrap gap-1">
            {user.locked ? (
              <Badge tone="violet" icon={Lock} title="Listed in ADMIN_EMAILS: always an admin">
                Admin (locked)
              </Badge>
            ) : user.isAdmin ? (
              <Badge tone="info">Admin</Badge>
            ) : (
              <Badge tone="neutral">User</Badge>
            )}
            <Badge tone={STATUS_TONES[user.status]}>{STATUS_LABELS[user.status]}</Badge>
            {user.self ? <Badge tone="neutral">You</Badge> : null}
          </div>
        </div>
        <Actions user={user} actionData={actionData} flashId={flash?.id} inPageForm={inPageForm} />
      </div>

      <FlashNotice flash={flash} />
      {question && confirming ? (
        <ConfirmPanel
          id="confirm-heading"
          title={question.title}
          action={userPath(user.id, loaderData.orders.page)}
          fields={{ intent: confirming }}
          confirmLabel={question.confirmLabel ?? question.label}
          cancelTo={userPath(user.id, loaderData.orders.page)}
          destructive={confirming === 'suspend'}
        >
          {question.description}
        </ConfirmPanel>
      ) : null}
      {inPageForm ? (
        <UserFormPanel intent={inPageForm} user={user} actionData={actionData} />
      ) : null}

      <DetailCard headingId="account-heading" title="Account">
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-4 sm:grid-cols-3">
          <Fact label="Joined">{user.joined}</Fact>
          <Fact label="Last active">{user.lastActive ?? 'Never'}</Fact>
          <Fact label="Signed-in devices">{user.sessions}</Fact>
          <Fact label="Orders">{user.orders}</Fact>
          <Fact label="Total spent">{user.spent}</Fact>
          <Fact label="E-mail">{user.emailVerified ? 'Confirmed' : 'Not confirmed yet'}</Fact>
          <Fact label="Signs in with">
            {user.signIn.length ? user.signIn.join(', ') : 'No sign-in method yet'}
          </Fact>
          <Fact label="Permissions">
            {user.isAdmin
              ? (Object.keys(PERMISSION_LABELS) as (keyof typeof PERMISSION_LABELS)[])
                  .filter((name) => user.permissions[name] || user.locked)
                  .map((name) => PERMISSION_LABELS[name])
                  .join(', ') || 'None'
              : 'None (not an admin)'}
          </Fact>
        </dl>
      </DetailCard>

      <Orders page={loaderData} />
    </div>
  )
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return accountPageMeta(
    matches,
    loaderData ? `User ${loaderData.user.name || loaderData.user.email}` : 'User',
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // A 403 belongs to the admin layout's Access Denied page.
  if (isRouteErrorResponse(error) && error.status === 403) throw error
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <AdminErrorPage
      title={notFound ? USER_NOT_FOUND_TITLE : 'Something went wrong'}
      backTo={USERS_PATH}
      backLabel="Back to Users"
    >
      {notFound
        ? 'There is no such user. Search for them in the users list.'
        : 'The user could not be loaded. Please try again in a moment.'}
    </AdminErrorPage>
  )
}
