import { TextField } from '~/components/forms'
import { Group, ToggleField, type SettingsFields } from '~/components/admin/settings-fields'
import { CLAIM_DELIVERY_MAX_MINUTES, CLAIM_FIGURE_MAX, CLAIM_LABEL_MAX } from '~/lib/claims'

/**
 * The Settings page's Storefront claims tab (app/routes/admin/settings.tsx): the figures the
 * home page and the product pages state about the shop, each with the label the home hero shows
 * under it, the delivery time promised and the hero's example bundle (docs/settings.md).
 */
const FIGURES = [
  {
    name: 'claimCustomers',
    title: 'Customers',
    hint: 'E.g. 10,000+. Also as “… verified accounts” on product pages and in Why Choose Us, and in “Trusted by … customers across India”.',
  },
  {
    name: 'claimServices',
    title: 'Services',
    hint: 'E.g. 50+. Also in How It Works: “Browse … premium subscriptions and licences”.',
  },
  {
    name: 'claimRating',
    title: 'Rating',
    hint: 'Out of 5, at most one decimal, e.g. 4.7. Also on product pages and in “rated … out of 5”. Product ratings come from buyers’ reviews, not from here.',
    inputMode: 'decimal',
  },
  {
    name: 'claimSupport',
    title: 'Support hours',
    hint: 'E.g. 24/7 or 10am–8pm. Also on product pages (WhatsApp support), in Why Choose Us and in the WhatsApp section.',
  },
] as const

export function StorefrontClaimsFields({ f }: { f: SettingsFields }) {
  return (
    <>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        What the home page and the product pages claim about the shop. Publish only what is true for
        your shop: empty a figure to hide its claim everywhere it appears.{' '}
        {`A figure takes at most ${CLAIM_FIGURE_MAX} characters, a label at most ${CLAIM_LABEL_MAX}.`}
      </p>
      <Group title="Figures">
        {FIGURES.map((figure) => (
          <fieldset
            key={figure.name}
            className="grid gap-3 rounded-xl border border-slate-200 p-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] sm:p-4 dark:border-slate-800"
          >
            <legend className="px-1 text-sm font-semibold text-slate-900 dark:text-white">
              {figure.title}
            </legend>
            <TextField
              label="Figure"
              field={f[figure.name]!}
              autoComplete="off"
              inputMode={'inputMode' in figure ? figure.inputMode : undefined}
              hint={figure.hint}
            />
            <TextField
              label="Hero label"
              field={f[`${figure.name}Label`]!}
              autoComplete="off"
              hint="Under the figure in the home page’s hero."
            />
          </fieldset>
        ))}
        <fieldset className="rounded-xl border border-slate-200 p-3 sm:p-4 dark:border-slate-800">
          <legend className="px-1 text-sm font-semibold text-slate-900 dark:text-white">
            Delivery time
          </legend>
          <TextField
            label="Minutes"
            field={f.claimDeliveryMinutes!}
            inputMode="numeric"
            autoComplete="off"
            className="sm:max-w-xs"
            hint={`1 to ${CLAIM_DELIVERY_MAX_MINUTES}, e.g. 5: “Under 5 min” on product pages, “within 5 minutes” in the hero, Why Choose Us, How It Works and under the Buy button. Empty: no delivery time is promised.`}
          />
        </fieldset>
      </Group>
      <Group title="Example bundle">
        <ToggleField
          field={f.exampleBundle!}
          label="Show the example bundle"
          hint="A sample offer beside the home page’s headline, with its saving in per cent."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Bundle price (₹)"
            field={f.exampleBundlePrice!}
            inputMode="decimal"
            autoComplete="off"
            hint="In rupees, e.g. 2999."
          />
          <TextField
            label="Original price (₹)"
            field={f.exampleBundleOriginalPrice!}
            inputMode="decimal"
            autoComplete="off"
            hint="What the same plans cost separately: above the bundle price."
          />
        </div>
      </Group>
    </>
  )
}
