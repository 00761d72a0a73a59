import { data, Form, useNavigation } from 'react-router'
import {
  NewPasswordFields,
  primaryButtonClass,
  useFormErrors,
  type AuthFormResult,
} from '~/components/auth/auth-forms'
import { Field, FormAlert } from '~/components/forms'
import { accountPageMeta } from '~/components/auth/messages'
import { services } from '~/lib/app-context.server'
import {
  assertSameOrigin,
  changePassword,
  hasPassword,
  requireUser,
  setFirstPassword,
} from '~/lib/auth.server'
import { changePasswordSchema, parseForm, setPasswordSchema } from '~/lib/validation/auth'
import type { Route } from './+types/settings'

export const PASSWORD_CHANGED_MESSAGE =
  'Your password has been changed. Other devices have been signed out.'
export const PASSWORD_SET_MESSAGE =
  'Your password has been set. You can now also log in with your e-mail and password.'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return { email: user.email, hasPassword: await hasPassword(services().db, user.id) }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  assertSameOrigin(request)
  const form = await request.formData()
  if (!(await hasPassword(services().db, user.id))) {
    // Signed up with Google: set a first password (no current one to check).
    const parsed = parseForm(setPasswordSchema, form)
    if (parsed.errors) return data<AuthFormResult>({ errors: parsed.errors }, { status: 400 })
    const result = await setFirstPassword(request, parsed.data.password)
    if (!result.ok)
      return data<AuthFormResult>({ formError: result.message }, { status: result.status })
    return data<AuthFormResult>({ message: PASSWORD_SET_MESSAGE })
  }
  const parsed = parseForm(changePasswordSchema, form)
  if (parsed.errors) return data<AuthFormResult>({ errors: parsed.errors }, { status: 400 })
  const result = await changePassword(request, {
    currentPassword: parsed.data.currentPassword,
    newPassword: parsed.data.password,
  })
  if (!result.ok)
    return data<AuthFormResult>({ formError: result.message }, { status: result.status })
  return data<AuthFormResult>({ message: PASSWORD_CHANGED_MESSAGE }, { headers: result.headers })
}

export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const form = useFormErrors(
    loaderData.hasPassword ? changePasswordSchema : setPasswordSchema,
    actionData,
  )
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  return (
    <div className="mx-auto max-w-xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
          Settings
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Signed in as {loaderData.email}
        </p>
      </div>
      <section
        aria-labelledby="password-heading"
        className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="password-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
          {loaderData.hasPassword ? 'Change password' : 'Set a password'}
        </h2>
        <div className="mt-4 space-y-4">
          {actionData?.message ? <FormAlert tone="success">{actionData.message}</FormAlert> : null}
          {form.formError ? <FormAlert>{form.formError}</FormAlert> : null}
          {/* A new key after each success clears the fields. */}
          <Form
            key={actionData?.message ?? 'form'}
            method="post"
            noValidate
            onSubmit={form.onSubmit}
            className="space-y-4"
          >
            {loaderData.hasPassword ? (
              <Field
                label="Current password"
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                error={form.errors.currentPassword}
                onEdit={form.clear}
              />
            ) : null}
            <NewPasswordFields replacing errors={form.errors} onEdit={form.clear} />
            <button type="submit" className={`${primaryButtonClass} sm:w-auto`} disabled={busy}>
              {busy ? 'Saving…' : loaderData.hasPassword ? 'Change password' : 'Set password'}
            </button>
          </Form>
        </div>
      </section>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Settings')
}
