import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { data, Form, href, Link, redirect, useNavigation } from 'react-router'
import { FlashNotice } from '~/components/admin/flash-notice'
import { PageHeader } from '~/components/admin/page-header'
import { Group, ToggleField, type SettingsFields } from '~/components/admin/settings-fields'
import { StorefrontClaimsFields } from '~/components/admin/storefront-claims-fields'
import { FormErrors, SelectField, TextareaField, TextField, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { getSiteSettings, type SiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { flashHeaders, readFlash } from '~/lib/flash.server'
import { readFormData } from '~/lib/form-data.server'
import { clientIp } from '~/lib/rate-limit.server'
import {
  CURRENCIES,
  isSettingsTab,
  LANGUAGE_LABELS,
  LANGUAGES,
  SETTINGS_SAVE_FAILED,
  SETTINGS_SAVED,
  SETTINGS_SCHEMAS,
  SETTINGS_TAB_LABELS,
  SETTINGS_FORM_EXPIRED,
  SETTINGS_STALE,
  SETTINGS_TABS,
  SETTINGS_VERSION_FIELD,
  settingsFormSchema,
  THEME_LABELS,
  THEMES,
  TIMEZONES,
  type SettingsTab,
} from '~/lib/validation/settings'
import { paiseToInput } from '~/lib/validation/product'
import { parseSubmission } from '~/lib/validation/submission'
import { requireShopConfiguration } from '~/services/permissions.server'
import { saveSiteSettings, settingsVersion } from '~/services/settings.server'
import type { Route } from './+types/settings'

/**
 * /admin/settings: the shop's settings in six tabs (General, Storefront claims, Notifications,
 * Security, System, Appearance), each its own form. A save writes only that tab's fields,
 * records the change in the audit log and takes effect on every page within two seconds
 * (docs/settings.md). Admins with Can Manage Users may change them (docs/decisions/0019).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireShopConfiguration(request)
  const { db } = services()
  const url = new URL(request.url)
  const requested = url.searchParams.get('tab')
  const tab: SettingsTab = isSettingsTab(requested) ? requested : 'general'
  const [settings, { flash, headers }] = await Promise.all([
    getSiteSettings(db),
    readFlash(request),
  ])
  return data(
    { tab, settings: formValues(settings), version: settingsVersion(settings, tab), flash },
    { headers },
  )
}

/** What the forms show: the stored settings as text fields hold them. */
function formValues(settings: SiteSettings) {
  return {
    ...settings,
    alertRecipients: settings.alertRecipients.join(', '),
    lowStockThreshold: String(settings.lowStockThreshold),
    currencyRate: String(settings.currencyRate),
    gstRate: String(settings.gstRate),
    // An empty delivery time is no promise (saved as 0); bundle prices in rupees, as typed.
    claimDeliveryMinutes: settings.claimDeliveryMinutes
      ? String(settings.claimDeliveryMinutes)
      : '',
    exampleBundlePrice: paiseToInput(settings.exampleBundlePrice),
    exampleBundleOriginalPrice: paiseToInput(settings.exampleBundleOriginalPrice),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireShopConfiguration(request)
  const form = await readFormData(request)
  const submission = parseSubmission(form, settingsFormSchema)
  if (submission.status !== 'success') {
    return data(
      { result: submission.reply({ formErrors: [SETTINGS_SAVE_FAILED] }) },
      { status: 400 },
    )
  }
  const { tab, ...changes } = submission.value
  // What the form showed of its tab: a save over another admin's newer one is refused.
  const version = form.get(SETTINGS_VERSION_FIELD)
  if (typeof version !== 'string' || version === '') {
    return data(
      { result: submission.reply({ formErrors: [SETTINGS_FORM_EXPIRED] }) },
      { status: 400 },
    )
  }
  const { db } = services()
  try {
    const saved = await saveSiteSettings(db, {
      actor: { id: user.id, name: user.name, email: user.email },
      ip: clientIp(context),
      tab,
      changes,
      version,
    })
    if (!saved.ok) {
      return data({ result: submission.reply({ formErrors: [SETTINGS_STALE] }) }, { status: 409 })
    }
  } catch (error) {
    console.error('[admin] saving settings failed:', error)
    return data(
      {
        result: submission.reply({
          formErrors: ['Settings could not be saved. Please try again.'],
        }),
      },
      { status: 500 },
    )
  }
  throw redirect(`${href('/admin/settings')}?tab=${tab}`, {
    status: 303,
    headers: await flashHeaders('success', SETTINGS_SAVED),
  })
}

export function meta() {
  return [{ title: 'Settings | Admin' }, { name: 'robots', content: 'noindex' }]
}

type FormValues = ReturnType<typeof formValues>
type LastResult = SubmissionResult<string[]> | undefined

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, settings, version, flash } = loaderData
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <PageHeader
        title="Settings"
        description="How the shop presents itself, who it tells about what, and how it runs. Changes apply to every page within two seconds."
      />
      <FlashNotice flash={flash} />
      <nav aria-label="Settings sections" className="overflow-x-auto">
        <ul className="flex min-w-max gap-1 rounded-xl border border-slate-200 bg-white p-1 dark:border-slate-800 dark:bg-slate-900">
          {SETTINGS_TABS.map((id) => (
            <li key={id}>
              <Link
                to={`?tab=${id}`}
                replace
                preventScrollReset
                aria-current={id === tab ? 'page' : undefined}
                className="inline-flex h-10 items-center rounded-lg px-4 text-sm font-semibold text-slate-700 hover:bg-slate-100 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white dark:text-slate-200 dark:hover:bg-slate-800"
              >
                {SETTINGS_TAB_LABELS[id]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* A save comes back with a new flash: the form starts again from the stored values. */}
      <SettingsForm
        key={`${tab}-${flash?.id ?? ''}`}
        tab={tab}
        values={settings}
        version={version}
        lastResult={actionData?.result as LastResult}
      />
    </div>
  )
}

function SettingsForm({
  tab,
  values,
  version,
  lastResult,
}: {
  tab: SettingsTab
  values: FormValues
  version: string
  lastResult: LastResult
}) {
  const navigation = useNavigation()
  // The version of the values the form opened with, even if the page's data reloads meanwhile:
  // the fields keep what was typed, so a save must still be checked against what they showed.
  const [shownVersion] = useState(version)
  const [form, fields] = useAppForm({
    schema: SETTINGS_SCHEMAS[tab],
    lastResult,
    id: `settings-${tab}`,
    defaultValue: values,
  })
  const f = fields as unknown as Fields
  const saving = navigation.state === 'submitting' && navigation.formData?.get('tab') === tab
  return (
    <Card as="section" aria-labelledby={`settings-${tab}-heading`}>
      <h2
        id={`settings-${tab}-heading`}
        className="text-lg font-bold text-slate-950 dark:text-white"
      >
        {SETTINGS_TAB_LABELS[tab]}
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="tab" value={tab} />
        <input type="hidden" name={SETTINGS_VERSION_FIELD} value={shownVersion} />
        {tab === 'general' ? <GeneralFields f={f} /> : null}
        {tab === 'storefront' ? <StorefrontClaimsFields f={f} /> : null}
        {tab === 'notifications' ? <NotificationFields f={f} /> : null}
        {tab === 'security' ? <SecurityFields f={f} /> : null}
        {tab === 'system' ? <SystemFields f={f} /> : null}
        {tab === 'appearance' ? <AppearanceFields f={f} /> : null}
        <Button type="submit" pending={saving}>
          {saving ? 'Saving...' : 'Save settings'}
        </Button>
      </Form>
    </Card>
  )
}

type Fields = SettingsFields

function GeneralFields({ f }: { f: Fields }) {
  return (
    <>
      <Group title="Shop">
        <TextField label="Site name" field={f.siteName!} />
        <TextareaField
          label="Site description"
          field={f.siteDescription!}
          rows={3}
          hint="Shown under the name in search results and link previews."
        />
      </Group>
      <Group title="Contact">
        <TextField label="Contact e-mail" field={f.contactEmail!} type="email" autoComplete="off" />
        <TextField label="Phone number" field={f.phoneNumber!} type="tel" autoComplete="off" />
        <TextField
          label="WhatsApp number"
          field={f.whatsappNumber!}
          type="tel"
          inputMode="numeric"
          hint="With the country code, e.g. 919876543210; used for the shop's WhatsApp links."
        />
        <TextField
          label="WhatsApp community link"
          field={f.whatsappCommunityUrl!}
          type="url"
          placeholder="https://chat.whatsapp.com/..."
        />
      </Group>
      <Group title="Invoices">
        <TextField
          label="Seller legal name"
          field={f.sellerName!}
          hint="Leave empty to use the site name."
        />
        <TextareaField label="Seller address" field={f.sellerAddress!} rows={3} />
        <TextField
          label="GSTIN"
          field={f.sellerGstin!}
          hint="15 characters, e.g. 29ABCDE1234F1Z5. Leave empty if the shop is not registered for GST."
        />
        <TextField
          label="GST rate (%)"
          field={f.gstRate!}
          inputMode="decimal"
          hint="Prices include GST. With a GSTIN set, each invoice shows the taxable value and the tax at this rate (18 for most digital services); invoices already issued keep theirs."
        />
        <TextField
          label="SAC code"
          field={f.sacCode!}
          inputMode="numeric"
          autoComplete="off"
          hint="Printed on tax invoices, e.g. 998434 (software downloads) or 997331 (software licences). Required (6 digits) above ₹5 crore of yearly turnover; optional below it for sales to consumers."
        />
        <TextField
          label="Invoice number prefix"
          field={f.invoicePrefix!}
          hint="1 to 4 letters or digits; applies to invoices issued from now on (INV/26-27/00042)."
        />
      </Group>
    </>
  )
}

function NotificationFields({ f }: { f: Fields }) {
  return (
    <>
      <ToggleField
        field={f.enableNotifications!}
        label="Send shop alerts"
        hint="E-mail the shop about low stock, sold-out products, orders waiting for stock and problem reports. Paid orders to deliver by hand, payments and refunds to check, and buyers' order e-mails are always sent."
      />
      <TextareaField
        label="Alert recipients"
        field={f.alertRecipients!}
        rows={2}
        hint="E-mail addresses separated by commas. Empty: the contact e-mail and the admins."
      />
      <TextField
        label="Low-stock threshold"
        field={f.lowStockThreshold!}
        type="number"
        inputMode="numeric"
        hint="Alert when a sale leaves a product with this many keys or fewer (0: never)."
      />
      <ToggleField
        field={f.deliveryMailIncludesSecret!}
        label="Put the key or account details in the delivery e-mail"
        hint="Off: the e-mail links to the order page, where each reveal is logged."
      />
      <ToggleField
        field={f.expiryReminders!}
        label="Send expiry reminders"
        hint="E-mail buyers 7 days and 1 day before a delivered item with a known validity runs out, with a Renew link. Buyers who turned notifications off in their account get none."
      />
    </>
  )
}

function SecurityFields({ f }: { f: Fields }) {
  return (
    <>
      <ToggleField
        field={f.enableRegistration!}
        label="Allow new accounts"
        hint="Off: sign-up is refused and Google sign-in only signs in existing accounts. Guest checkout still works."
      />
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Every account confirms its e-mail address before it exists (sign-up by mailed link, or
        Google), so there is no separate e-mail verification switch.
      </p>
    </>
  )
}

function SystemFields({ f }: { f: Fields }) {
  return (
    <>
      <ToggleField
        field={f.maintenanceMode!}
        label="Maintenance mode"
        hint="Visitors see a maintenance page (503). Admins browse normally; sign-in, payment callbacks and webhooks keep working."
      />
      <SelectField
        label="Display currency"
        field={f.currency!}
        hint="The storefront shows prices (cards, product pages, checkout) in this currency at the rate below. Every payment, order and invoice stays in rupees (INR), and the checkout says so."
      >
        {CURRENCIES.map((currency) => (
          <option key={currency} value={currency}>
            {currency}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Conversion rate (rupees per unit)"
        field={f.currencyRate!}
        inputMode="decimal"
        hint="E.g. 83.50 for USD. Ignored for INR."
      />
      <SelectField label="Time zone" field={f.timezone!} hint="Used for every date the shop shows.">
        {TIMEZONES.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Default language"
        field={f.language!}
        hint="The language of visitors who have not chosen one. The shop's pages are in English until their translations exist."
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {LANGUAGE_LABELS[language]}
          </option>
        ))}
      </SelectField>
    </>
  )
}

function AppearanceFields({ f }: { f: Fields }) {
  return (
    <SelectField
      label="Default theme"
      field={f.theme!}
      hint="For visitors who have not chosen one with the theme switch."
    >
      {THEMES.map((theme) => (
        <option key={theme} value={theme}>
          {THEME_LABELS[theme]}
        </option>
      ))}
    </SelectField>
  )
}
