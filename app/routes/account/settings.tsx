import { getFormProps, getInputProps } from '@conform-to/react'
import type { FormMetadata, SubmissionResult } from '@conform-to/react'
import Lock from 'lucide-react/icons/lock'
import UserRound from 'lucide-react/icons/user-round'
import { useState } from 'react'
import { data, Form, href, Link, redirect, useNavigation } from 'react-router'
import { GoogleButton, NewPasswordFields, type AuthFormResult } from '~/components/auth/auth-forms'
import { AccountPageHeader } from '~/components/account/account-page'
import { accountPageMeta } from '~/components/auth/messages'
import {
  FormAlert,
  FormErrors,
  SelectField,
  TextareaField,
  TextField,
  useAppForm,
} from '~/components/forms'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field } from '~/components/ui/field'
import { Checkbox, Input } from '~/components/ui/input'
import { findStoredPreferences, isMailOptedOut, savePreferences } from '~/data/preferences.server'
import { getSiteSettings, isShopGstin } from '~/data/settings.server'
import { getUserProfile } from '~/data/user.server'
import { services } from '~/lib/app-context.server'
import { readFormData } from '~/lib/form-data.server'
import { clientIp } from '~/lib/rate-limit.server'
import { accountPageHeaders } from '~/lib/page-headers'
import {
  LANGUAGE_LABELS,
  LANGUAGES,
  languageCookie,
  preferencesInUse,
  THEME_LABELS,
  THEMES,
} from '~/lib/preferences'
import { themeCookie } from '~/lib/theme'
import {
  BUSINESS_ADDRESS_MAX,
  businessSchema,
  deleteAccountSchema,
  photoSchema,
  preferencesSchema,
  profileSchema,
  removeBusinessSchema,
  removePhotoSchema,
  SETTINGS_MESSAGES,
  settingsSchema,
} from '~/lib/validation/account-settings'
import { getCustomerBusiness, saveCustomerBusiness } from '~/data/customer-gst.server'
import { changePasswordSchema, setPasswordSchema } from '~/lib/validation/auth'
import { parseSubmission } from '~/lib/validation/submission'
import {
  changeOwnPassword,
  deleteOwnAccount,
  removeProfilePhoto,
  renameSelf,
  replaceProfilePhoto,
  setOwnFirstPassword,
} from '~/services/account-settings.server'
import { hasPassword, requireUser } from '~/services/auth.server'
import { noticeCookieHeader, readNotice } from './notice.server'
import type { Route } from './+types/settings'

/**
 * /dashboard/settings: the customer's profile (name, photo; the e-mail is shown, not
 * changed), preferences (theme, language, reminder and offer mails), the business named on GST
 * invoices (docs/delivery.md, "Business invoices"), password, and deleting the account. Every
 * form posts here with an `intent`; the password form keeps its own schemas, the others are one
 * discriminated union (app/lib/validation/account-settings.ts).
 */
export const PASSWORD_CHANGED_MESSAGE =
  'Your password has been changed. Other devices have been signed out.'
export const PASSWORD_SET_MESSAGE =
  'Your password has been set. You can now also log in with your e-mail and password.'
export const SETTINGS_SAVED = {
  profile: 'Your name has been saved.',
  photo: 'Your photo has been updated.',
  removePhoto: 'Your photo has been removed.',
  preferences: 'Your preferences have been saved.',
  business: 'Your business details have been saved. The invoices of your next orders name it.',
  removeBusiness:
    'Your business details have been removed. The invoices of your next orders are made out to you.',
} as const

type Intent =
  | 'profile'
  | 'photo'
  | 'removePhoto'
  | 'preferences'
  | 'business'
  | 'removeBusiness'
  | 'deleteAccount'
  | 'password'
type SettingsResult = {
  intent: Intent
  result: SubmissionResult<string[]>
  message?: string
  /** After a preferences save: what the form shows now, for the next save to compare with. */
  shown?: PreferencesShown
}

/** What the preferences form showed, posted back so a save changes only what was changed. */
type PreferencesShown = { theme: string; language: string; notifications: boolean }

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const { db } = services()
  const [profile, password, stored, settings, business, optedOut, { notice, headers }] =
    await Promise.all([
      getUserProfile(db, user.id),
      hasPassword(db, user.id),
      findStoredPreferences(db, user.id),
      getSiteSettings(db),
      getCustomerBusiness(db, user.id),
      isMailOptedOut(db, user.email),
      readNotice(request),
    ])
  const inUse = preferencesInUse(stored, request.headers.get('Cookie'), settings)
  return data(
    {
      email: user.email,
      name: profile?.name ?? user.name,
      photo: profile?.photo ?? null,
      hasPassword: password,
      // The theme and language the pages are shown in, also when never saved here (a cookie or
      // the shop's default), so saving the form for another field keeps them. The mail switch
      // shows off when the address unsubscribed by a mail's link (say, as a guest before this
      // account was made); saving it on undoes that (savePreferences).
      preferences: { ...inUse, notifications: inUse.notifications && !optedOut },
      business,
      notice,
    },
    { headers },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request)
  const { db, storage, env } = services()
  const form = await readFormData(request)
  if (form.get('intent') === 'password')
    return passwordAction(request, clientIp(context), form, user.id)

  const submission = parseSubmission(form, settingsSchema)
  const intent = String(form.get('intent') ?? '') as Intent
  if (submission.status !== 'success') {
    return data<SettingsResult>(
      { intent, result: submission.reply({ hideFields: ['password', 'photo'] }) },
      { status: 400 },
    )
  }
  const value = submission.value
  switch (value.intent) {
    case 'profile': {
      const renamed = await renameSelf(db, user.id, value.name)
      if (!renamed.ok) {
        return data<SettingsResult>(
          {
            intent: value.intent,
            result: submission.reply({ fieldErrors: { name: [renamed.message] } }),
          },
          { status: renamed.status, headers: { 'Retry-After': String(renamed.retryAfterSeconds) } },
        )
      }
      return data<SettingsResult>({
        intent: value.intent,
        result: submission.reply(),
        message: SETTINGS_SAVED.profile,
      })
    }
    case 'photo': {
      // Refused (too many uploads, not an image) or not stored: the message under the field.
      const outcome = await replaceProfilePhoto(
        { db, storage },
        user.id,
        Buffer.from(await value.photo.arrayBuffer()),
      )
      if (!outcome.ok) {
        return data<SettingsResult>(
          {
            intent: value.intent,
            result: submission.reply({ fieldErrors: { photo: [outcome.message] } }),
          },
          {
            status: outcome.status,
            headers: outcome.retryAfterSeconds
              ? { 'Retry-After': String(outcome.retryAfterSeconds) }
              : undefined,
          },
        )
      }
      return data<SettingsResult>({
        intent: value.intent,
        result: submission.reply({ resetForm: true }),
        message: SETTINGS_SAVED.photo,
      })
    }
    case 'removePhoto':
      await removeProfilePhoto({ db, storage }, user.id)
      return data<SettingsResult>({
        intent: value.intent,
        result: submission.reply(),
        message: SETTINGS_SAVED.removePhoto,
      })
    case 'preferences': {
      // Only the fields the reader changed from what the page showed are saved, so a page left
      // open does not put back a theme, language or switch changed since in another tab (the
      // header's theme switch) or by an unsubscribe link. A field posted without what was shown
      // (a script) is saved as posted.
      const { themeShown, languageShown, notificationsShown } = value
      const switched =
        notificationsShown === undefined || (notificationsShown === 'on') !== value.notifications
      const changes = {
        ...(themeShown !== value.theme ? { theme: value.theme } : {}),
        ...(languageShown !== value.language ? { language: value.language } : {}),
        ...(switched ? { notifications: value.notifications } : {}),
      }
      // A first save stores the rest as the form showed them (a cookie's or the shop's default).
      const saved = await savePreferences(db, user.id, changes, {
        inUse: { theme: value.theme, language: value.language, notifications: value.notifications },
      })
      // Kept in cookies too, so this browser keeps the choice after signing out.
      const headers = new Headers()
      const secure = { secure: env.PUBLIC_URL.startsWith('https://') }
      headers.append('Set-Cookie', themeCookie(saved.theme, secure))
      headers.append('Set-Cookie', languageCookie(saved.language, secure))
      const shown = {
        theme: value.theme,
        language: value.language,
        notifications: value.notifications,
      }
      return data<SettingsResult>(
        {
          intent: value.intent,
          result: submission.reply(),
          message: SETTINGS_SAVED.preferences,
          shown,
        },
        { headers },
      )
    }
    case 'business':
      if (await isShopGstin(db, value.gstin))
        return data<SettingsResult>(
          {
            intent: value.intent,
            result: submission.reply({ fieldErrors: { gstin: [SETTINGS_MESSAGES.shopGstin] } }),
          },
          { status: 400 },
        )
      await saveCustomerBusiness(db, user.id, {
        businessName: value.businessName,
        gstin: value.gstin,
        address: value.businessAddress,
      })
      return data<SettingsResult>({
        intent: value.intent,
        result: submission.reply(),
        message: SETTINGS_SAVED.business,
      })
    case 'removeBusiness':
      await saveCustomerBusiness(db, user.id, null)
      return data<SettingsResult>({
        intent: value.intent,
        // The business form starts empty again.
        result: submission.reply({ resetForm: true }),
        message: SETTINGS_SAVED.removeBusiness,
      })
    case 'deleteAccount': {
      const outcome = await deleteOwnAccount(
        request,
        { db, storage, adminEmails: env.ADMIN_EMAILS },
        user,
        value,
      )
      if (!outcome.ok) {
        const errors = { formErrors: [outcome.message] }
        return data<SettingsResult>(
          {
            intent: value.intent,
            result: submission.reply({
              hideFields: ['password'],
              ...(outcome.field ? { fieldErrors: { [outcome.field]: [outcome.message] } } : errors),
            }),
          },
          {
            status: outcome.status,
            headers: outcome.retryAfterSeconds
              ? { 'Retry-After': String(outcome.retryAfterSeconds) }
              : undefined,
          },
        )
      }
      throw redirect(`${href('/')}?account=deleted`, { status: 303, headers: outcome.headers })
    }
  }
}

/** The password form's answer; `signInAgain` when a first password needs a newer sign-in. */
type PasswordResult = AuthFormResult & { signInAgain?: { google: boolean } }

async function passwordAction(request: Request, ip: string, form: FormData, userId: string) {
  // Passwords are never sent back into the page.
  const hideFields = ['currentPassword', 'password', 'confirmPassword']
  const reply = (body: PasswordResult, status = 200, headers?: HeadersInit) =>
    data<PasswordResult & { intent: Intent }>({ intent: 'password', ...body }, { status, headers })
  if (!(await hasPassword(services().db, userId))) {
    // Signed up with Google: set a first password (no current one to check), only in a
    // session opened minutes ago; an older one is told how to sign in again.
    const submission = parseSubmission(form, setPasswordSchema)
    if (submission.status !== 'success')
      return reply({ result: submission.reply({ hideFields }) }, 400)
    const result = await setOwnFirstPassword(request, userId, submission.value.password)
    if (!result.ok) {
      return reply(
        {
          result: submission.reply({ hideFields, formErrors: [result.message] }),
          ...('signInAgain' in result ? { signInAgain: result.signInAgain } : {}),
        },
        result.status,
      )
    }
    return reply({ result: submission.reply({ resetForm: true }), message: PASSWORD_SET_MESSAGE })
  }
  const submission = parseSubmission(form, changePasswordSchema)
  if (submission.status !== 'success')
    return reply({ result: submission.reply({ hideFields }) }, 400)
  const result = await changeOwnPassword(request, ip, services().db, userId, {
    currentPassword: submission.value.currentPassword,
    newPassword: submission.value.password,
  })
  if (!result.ok) {
    return reply(
      { result: submission.reply({ hideFields, formErrors: [result.message] }) },
      result.status,
      'retryAfterSeconds' in result
        ? { 'Retry-After': String(result.retryAfterSeconds) }
        : undefined,
    )
  }
  // The change replaced this session's cookie (other sessions end): a page rendered in answer
  // to this post would still carry the old one and be signed out, so redirect and load it anew.
  const headers = new Headers(result.headers)
  headers.append('Set-Cookie', await noticeCookieHeader(PASSWORD_CHANGED_MESSAGE))
  throw redirect(href('/dashboard/settings'), { status: 303, headers })
}

type ActionData = Route.ComponentProps['actionData']

/** The action's answer when it is about the form with this intent. */
function answerFor(actionData: ActionData, intent: Intent) {
  return actionData && actionData.intent === intent ? actionData : undefined
}

function SectionCard({
  id,
  title,
  description,
  children,
  tone,
}: {
  id: string
  title: string
  description?: string
  children: React.ReactNode
  tone?: 'danger'
}) {
  return (
    <Card
      as="section"
      aria-labelledby={id}
      className={tone === 'danger' ? 'border-rose-200 sm:p-6 dark:border-rose-900' : 'sm:p-6'}
    >
      <h2 id={id} className="text-lg font-semibold text-slate-900 dark:text-white">
        {title}
      </h2>
      {description ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>
      ) : null}
      <div className="mt-4 space-y-4">{children}</div>
    </Card>
  )
}

function useBusy(intent: Intent) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

/**
 * The form with this intent: the action's answer to it, its Conform form over that answer, and
 * whether it is being sent.
 */
function useSectionForm<Schema extends Parameters<typeof useAppForm>[0]['schema']>(
  intent: Intent,
  actionData: ActionData,
  /** The form's id is its intent unless given. */
  options: { id?: string; schema: Schema; defaultValue?: Record<string, unknown> },
) {
  const answer = answerFor(actionData, intent)
  const [form, fields] = useAppForm({ id: intent, ...options, lastResult: answer?.result })
  return { answer, form, fields, busy: useBusy(intent) }
}

/**
 * A section's form, posted with its intent (the one action tells the forms apart by it), under
 * the action's success message and the form's error.
 */
function SectionForm<Schema extends Record<string, unknown>>({
  intent,
  form,
  notice,
  className = 'space-y-4',
  children,
  ...props
}: {
  intent: Intent
  form: FormMetadata<Schema, string[]>
  notice?: string | null
  children: React.ReactNode
} & Omit<React.ComponentProps<typeof Form>, 'method'>) {
  return (
    <>
      {notice ? <FormAlert tone="success">{notice}</FormAlert> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Form method="post" {...props} {...getFormProps(form)} className={className}>
        <input type="hidden" name="intent" value={intent} />
        {children}
      </Form>
    </>
  )
}

/** The submit button of a section that saves what it shows. */
function SaveButton({ busy, children }: { busy: boolean; children: React.ReactNode }) {
  return (
    <Button type="submit" pending={busy} pendingLabel="Saving…">
      {children}
    </Button>
  )
}

/** A one-button form that removes what a section saved (a photo, the business details). */
function RemoveForm<Schema extends Record<string, unknown>>({
  intent,
  form,
  busy,
  children,
}: {
  intent: Intent
  form: FormMetadata<Schema, string[]>
  busy: boolean
  children: React.ReactNode
}) {
  return (
    <Form method="post" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      <Button
        type="submit"
        variant="dangerOutline"
        size="sm"
        pending={busy}
        pendingLabel="Removing…"
      >
        {children}
      </Button>
    </Form>
  )
}

function ProfileSection({ loaderData, actionData }: Route.ComponentProps) {
  const { answer, form, fields, busy } = useSectionForm('profile', actionData, {
    schema: profileSchema,
    defaultValue: { name: loaderData.name },
  })
  return (
    <SectionForm intent="profile" form={form} notice={answer?.message}>
      <TextField label="Display name" field={fields.name} autoComplete="name" />
      {/* Shown, not sent: no name, read-only, and drawn like text on grey with a lock rather
          than like a box to type in. It stays focusable, so screen readers read it with its note. */}
      <Field label="E-mail" hint="Your e-mail address is your login and cannot be changed.">
        {(control) => (
          <div className="relative">
            <Input
              {...control}
              type="email"
              value={loaderData.email}
              readOnly
              className="cursor-default border-slate-200 bg-slate-100 pr-10 text-slate-700 focus:border-slate-300 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300"
            />
            <Lock
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400"
            />
          </div>
        )}
      </Field>
      <SaveButton busy={busy}>Save name</SaveButton>
    </SectionForm>
  )
}

function PhotoSection({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields, busy } = useSectionForm('photo', actionData, { schema: photoSchema })
  // Either form's success message shows above the upload form.
  const answer = answerFor(actionData, 'photo') ?? answerFor(actionData, 'removePhoto')
  const [removeForm] = useAppForm({ id: 'remove-photo', schema: removePhotoSchema })
  const removing = useBusy('removePhoto')
  const { key, ...fileProps } = getInputProps(fields.photo, { type: 'file', ariaAttributes: false })
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      {loaderData.photo ? (
        <img
          src={loaderData.photo}
          alt="Your profile photo"
          width={96}
          height={96}
          className="size-24 shrink-0 rounded-full border border-slate-200 object-cover dark:border-slate-700"
        />
      ) : (
        <span
          role="img"
          aria-label="No profile photo"
          className="inline-flex size-24 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-400 dark:bg-slate-800"
        >
          <UserRound aria-hidden="true" className="size-10" />
        </span>
      )}
      <div className="flex-1 space-y-3">
        <SectionForm
          intent="photo"
          form={form}
          notice={answer?.message}
          encType="multipart/form-data"
          className="space-y-3"
        >
          <Field
            label="Profile photo"
            id={fields.photo.id}
            errors={fields.photo.errors}
            hint="JPEG, PNG or WebP, up to 5 MB. It is cropped to a square."
          >
            {(control) => (
              <Input
                key={key}
                {...fileProps}
                {...control}
                accept="image/jpeg,image/png,image/webp"
                className="py-2 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:text-sm dark:file:bg-slate-800 dark:file:text-slate-100"
              />
            )}
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" pending={busy} pendingLabel="Uploading…">
              Upload photo
            </Button>
          </div>
        </SectionForm>
        {loaderData.photo ? (
          <RemoveForm intent="removePhoto" form={removeForm} busy={removing}>
            Remove photo
          </RemoveForm>
        ) : null}
      </div>
    </div>
  )
}

function PreferencesSection({ loaderData, actionData }: Route.ComponentProps) {
  const { preferences } = loaderData
  const { answer, form, fields, busy } = useSectionForm('preferences', actionData, {
    schema: preferencesSchema,
    defaultValue: {
      theme: preferences.theme,
      language: preferences.language,
      notifications: preferences.notifications ? 'on' : '',
    },
  })
  const notifications = getInputProps(fields.notifications, { type: 'checkbox' })
  // What the fields show: the stored values they opened with, then what this form last saved.
  // Not the page's data as it reloads (the header's theme switch reloads it): the fields keep
  // their values, and a save must be compared with what they show.
  const [shown, setShown] = useState<PreferencesShown>(() => ({ ...preferences }))
  const saved = (answer as SettingsResult | undefined)?.shown
  const [seen, setSeen] = useState(saved)
  if (saved && saved !== seen) {
    // A new save's answer: adjusted while rendering, as React advises for state that follows
    // a prop, rather than in an effect.
    setSeen(saved)
    setShown(saved)
  }
  return (
    <SectionForm intent="preferences" form={form} notice={answer?.message}>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Theme" field={fields.theme}>
          {THEMES.map((theme) => (
            <option key={theme} value={theme}>
              {THEME_LABELS[theme]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Language"
          field={fields.language}
          hint="Pages are shown in English until translations are available."
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {LANGUAGE_LABELS[language]}
            </option>
          ))}
        </SelectField>
      </div>
      <input type="hidden" name="themeShown" value={shown.theme} />
      <input type="hidden" name="languageShown" value={shown.language} />
      <input type="hidden" name="notificationsShown" value={shown.notifications ? 'on' : 'off'} />
      <label className="flex items-start gap-3 text-sm text-slate-800 dark:text-slate-200">
        <Checkbox
          key={notifications.key}
          id={notifications.id}
          name={notifications.name}
          form={notifications.form}
          defaultChecked={notifications.defaultChecked}
          className="mt-0.5"
        />
        <span>
          <span className="font-medium">E-mail me reminders and offers</span>
          <span className="block text-slate-600 dark:text-slate-400">
            Renewal reminders before a subscription expires, and news about products. Mails about
            your orders are always sent.
          </span>
        </span>
      </label>
      <SaveButton busy={busy}>Save preferences</SaveButton>
    </SectionForm>
  )
}

function BusinessSection({ loaderData, actionData }: Route.ComponentProps) {
  const { business } = loaderData
  const { form, fields, busy } = useSectionForm('business', actionData, {
    schema: businessSchema,
    defaultValue: business
      ? {
          businessName: business.businessName,
          gstin: business.gstin,
          businessAddress: business.address,
        }
      : undefined,
  })
  // Either form's success message shows above the details.
  const answer = answerFor(actionData, 'business') ?? answerFor(actionData, 'removeBusiness')
  const [removeForm] = useAppForm({ id: 'remove-business', schema: removeBusinessSchema })
  const removing = useBusy('removeBusiness')
  return (
    <>
      <SectionForm intent="business" form={form} notice={answer?.message}>
        <TextField
          label="Legal name of the business"
          field={fields.businessName}
          autoComplete="organization"
        />
        <TextField
          label="GSTIN"
          field={fields.gstin}
          autoComplete="off"
          placeholder="27AAPFU0939F1ZV"
          hint="15 characters. Its first two digits, the business's state, are the place of supply on your invoices."
        />
        <TextareaField
          label="Address of the business"
          field={fields.businessAddress}
          rows={3}
          hint={`As on its GST registration, up to ${BUSINESS_ADDRESS_MAX} characters.`}
        />
        <SaveButton busy={busy}>Save business details</SaveButton>
      </SectionForm>
      {business ? (
        <RemoveForm intent="removeBusiness" form={removeForm} busy={removing}>
          Remove business details
        </RemoveForm>
      ) : null}
    </>
  )
}

function PasswordSection({ loaderData, actionData }: Route.ComponentProps) {
  const { answer, form, fields, busy } = useSectionForm('password', actionData, {
    schema: loaderData.hasPassword ? changePasswordSchema : setPasswordSchema,
  })
  const notice = (answer as PasswordResult | undefined)?.message ?? loaderData.notice
  const signInAgain = (answer as PasswordResult | undefined)?.signInAgain
  return (
    <>
      {/* A new key after each success clears the fields (also without JavaScript). */}
      <SectionForm key={notice ?? 'form'} intent="password" form={form} notice={notice}>
        {loaderData.hasPassword && fields.currentPassword ? (
          <TextField
            label="Current password"
            field={fields.currentPassword}
            type="password"
            autoComplete="current-password"
          />
        ) : null}
        <NewPasswordFields
          replacing
          password={fields.password}
          confirmPassword={fields.confirmPassword}
        />
        <SaveButton busy={busy}>
          {loaderData.hasPassword ? 'Change password' : 'Set password'}
        </SaveButton>
      </SectionForm>
      {signInAgain ? (
        // A first password needs a sign-in made minutes ago: Google brings the user back here.
        <div className="space-y-3">
          {signInAgain.google ? (
            <GoogleButton intent="login" redirectTo={href('/dashboard/settings')} />
          ) : null}
          <p className="text-sm text-slate-600 dark:text-slate-300">
            <Link
              to={href('/forgot-password')}
              className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
            >
              E-mail me a link
            </Link>{' '}
            to set my password instead.
          </p>
        </div>
      ) : null}
    </>
  )
}

function DeleteSection({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields, busy } = useSectionForm('deleteAccount', actionData, {
    id: 'delete-account',
    schema: deleteAccountSchema,
  })
  const confirmed = getInputProps(fields.confirmed, { type: 'checkbox', value: 'yes' })
  return (
    <SectionForm intent="deleteAccount" form={form}>
      {loaderData.hasPassword ? (
        <TextField
          label="Your password"
          field={fields.password}
          type="password"
          autoComplete="current-password"
        />
      ) : (
        <TextField
          label={`Type your e-mail (${loaderData.email}) to confirm`}
          field={fields.email}
          type="email"
          autoComplete="off"
        />
      )}
      <div className="space-y-1">
        <label className="flex items-start gap-3 text-sm text-slate-800 dark:text-slate-200">
          <Checkbox
            key={confirmed.key}
            id={confirmed.id}
            name={confirmed.name}
            form={confirmed.form}
            value="yes"
            aria-invalid={fields.confirmed.errors ? true : undefined}
            aria-describedby={fields.confirmed.errors ? `${confirmed.id}-error` : undefined}
            className="mt-0.5"
          />
          <span>I understand that my account will be deleted and this cannot be undone.</span>
        </label>
        {fields.confirmed.errors?.[0] ? (
          <p id={`${confirmed.id}-error`} className="text-sm text-rose-700 dark:text-rose-400">
            {fields.confirmed.errors[0]}
          </p>
        ) : null}
      </div>
      <Button type="submit" variant="danger" pending={busy} pendingLabel="Deleting…">
        Delete my account
      </Button>
    </SectionForm>
  )
}

export default function AccountSettings(props: Route.ComponentProps) {
  const { loaderData } = props
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <AccountPageHeader title="Settings" compact>
        Signed in as {loaderData.email}
      </AccountPageHeader>
      <SectionCard id="profile-heading" title="Profile">
        <PhotoSection {...props} />
        <ProfileSection {...props} />
      </SectionCard>
      <SectionCard
        id="preferences-heading"
        title="Preferences"
        description="Applied on every page you open while signed in, on any device."
      >
        <PreferencesSection {...props} />
      </SectionCard>
      <SectionCard
        id="business-heading"
        title="Business invoices"
        description="Buying for a business registered for GST? Its name, GSTIN and address go on the invoices of the orders you place from now on, so it can claim the input tax credit. Invoices already issued do not change."
      >
        {/* Keyed by what is saved: after a removal its fields start empty again. */}
        <BusinessSection key={loaderData.business?.gstin ?? 'none'} {...props} />
      </SectionCard>
      <SectionCard
        id="password-heading"
        title={loaderData.hasPassword ? 'Change password' : 'Set a password'}
      >
        <PasswordSection {...props} />
      </SectionCard>
      <SectionCard
        id="delete-heading"
        title="Delete my account"
        tone="danger"
        description="Your profile, photo, preferences, business details and sign-ins are removed and you are signed out everywhere. Orders stay in the shop's records (for invoices and accounts) without your name, e-mail or phone number."
      >
        <DeleteSection {...props} />
      </SectionCard>
    </div>
  )
}

// Personal data: not to be stored by the browser or any cache on the way.
export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Settings')
}
