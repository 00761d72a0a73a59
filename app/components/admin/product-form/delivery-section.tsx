import KeyRound from 'lucide-react/icons/key-round'
import { Link } from 'react-router'
import { Checkbox, Textarea } from '~/components/ui/input'
import { FieldError } from '~/components/ui/field'
import { SHARED_SECRET_MAX_LENGTH, type ProductDeliveryMode } from '~/lib/validation/product'
import { itemsText } from '~/lib/stock-status'
import { ChoiceRow, deliveryChoiceId, fieldId, ProductFieldRow, Section } from './parts'
import type { ProductFormState } from './use-product-form'

const DELIVERY_CHOICES: ReadonlyArray<{
  mode: ProductDeliveryMode
  label: string
  hint: string
}> = [
  {
    mode: 'stock',
    label: 'From stock',
    hint: 'Each order gets one item (an account or a key) from this product’s stock, delivered the moment the payment arrives. With no item left, the product shows Out of Stock.',
  },
  {
    mode: 'shared',
    label: 'Shared secret',
    hint: 'Every buyer gets the same secret, such as the login of a family plan.',
  },
  {
    mode: 'manual',
    label: 'Manual',
    hint: 'Paid orders wait for an admin to deliver them by hand.',
  },
]

/** How a paid order is delivered: from stock, one shared secret (stored encrypted), or by hand. */
export function DeliverySection({ form }: { form: ProductFormState }) {
  const { values, errors, deliveryMode, saved, hydrated, textProps } = form
  // Without JavaScript every delivery control is on the page; with it, only the chosen mode's.
  const showSecretField = !hydrated || deliveryMode === 'shared'
  const hasBuyNowLink = values.buyNowLink.trim() !== ''
  // "20 test items" in test mode: the items that sell now, as the Products list says.
  const stockCount = saved ? itemsText(saved.stockAvailable, saved.stockKinds) : ''
  const secretRequired = deliveryMode === 'shared' && !saved?.hasSharedSecret
  return (
    <Section
      id="section-delivery"
      title="Delivery"
      grid={false}
      description="What a buyer gets once the payment arrives, on their order page and by e-mail. A product with a buy now link sends buyers to that link instead and nothing is delivered here."
    >
      {hasBuyNowLink ? (
        <p
          role="note"
          className="mt-3 rounded-xl border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200"
        >
          This product has a buy now link: buyers go to that address, so the delivery chosen here
          applies only to orders placed through this shop.
        </p>
      ) : null}
      {/* A radio group (not a plain group) may be marked invalid, so its error is announced. */}
      <fieldset
        role="radiogroup"
        className="mt-5"
        aria-invalid={errors.deliveryMode ? true : undefined}
        aria-describedby={errors.deliveryMode ? `${fieldId('deliveryMode')}-error` : undefined}
      >
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">
          Delivery mode
        </legend>
        <div className="mt-2 grid gap-3 md:grid-cols-3">
          {DELIVERY_CHOICES.map((choice) => (
            <ChoiceRow
              key={choice.mode}
              id={deliveryChoiceId(choice.mode)}
              label={choice.label}
              hint={choice.hint}
              selected={deliveryMode === choice.mode}
              after={
                choice.mode === 'stock' && saved ? (
                  <p className="mt-1.5 text-xs">
                    <span className="font-semibold text-slate-800 dark:text-slate-200">
                      {stockCount} available.
                    </span>{' '}
                    <Link
                      to={saved.stockUrl}
                      className="font-medium text-brand-700 underline dark:text-brand-300"
                    >
                      Manage stock
                    </Link>
                  </p>
                ) : null
              }
            >
              <input
                id={deliveryChoiceId(choice.mode)}
                type="radio"
                name="deliveryMode"
                value={choice.mode}
                checked={deliveryMode === choice.mode}
                onChange={() => form.chooseDelivery(choice.mode)}
                aria-describedby={`${deliveryChoiceId(choice.mode)}-hint`}
                className="mt-0.5 size-5 shrink-0 accent-brand-600"
              />
            </ChoiceRow>
          ))}
        </div>
        {errors.deliveryMode ? (
          <FieldError id={`${fieldId('deliveryMode')}-error`} icon className="mt-1.5">
            {errors.deliveryMode}
          </FieldError>
        ) : null}
      </fieldset>

      {saved?.hasSharedSecret || showSecretField ? (
        <div className="mt-5 space-y-4 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
          {saved?.hasSharedSecret ? (
            <p className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
              <KeyRound
                aria-hidden="true"
                className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
              />
              <span>
                <span className="font-semibold text-slate-900 dark:text-white">
                  A shared secret is saved.
                </span>{' '}
                It is stored encrypted and not shown here. Type a new one below to replace it.
              </span>
            </p>
          ) : null}
          {showSecretField ? (
            <ProductFieldRow
              name="sharedSecret"
              label={
                saved?.hasSharedSecret ? 'New secret for every buyer' : 'Secret for every buyer'
              }
              required={secretRequired}
              error={errors.sharedSecret}
              hint={
                <>
                  Every buyer of this product sees this text on their order page, for example an
                  e-mail and a password on two lines. Changing it changes what later buyers get;
                  past buyers keep the secret they were delivered.
                  {saved?.hasSharedSecret ? ' Leave it empty to keep the saved secret.' : ''}
                  {hydrated ? '' : ' Used only when Shared secret is chosen.'}
                </>
              }
              wide
            >
              <Textarea
                {...textProps('sharedSecret')}
                surface="admin"
                rows={3}
                maxLength={SHARED_SECRET_MAX_LENGTH}
                autoComplete="off"
                spellCheck={false}
                autoCapitalize="none"
                aria-required={secretRequired ? 'true' : undefined}
                className="py-2.5 font-mono text-sm"
              />
            </ProductFieldRow>
          ) : null}
          {saved?.hasSharedSecret ? (
            <div className="flex items-start gap-3">
              <Checkbox
                id={fieldId('clearSharedSecret')}
                name="clearSharedSecret"
                checked={form.clearSecret}
                onChange={(event) => form.toggleClearSecret(event.currentTarget.checked)}
                aria-describedby={`${fieldId('clearSharedSecret')}-hint`}
                className="mt-0.5 size-5 shrink-0 accent-rose-600"
              />
              <div>
                <label
                  htmlFor={fieldId('clearSharedSecret')}
                  className="text-sm font-medium text-slate-900 dark:text-white"
                >
                  Clear the saved secret
                </label>
                <p
                  id={`${fieldId('clearSharedSecret')}-hint`}
                  className="text-xs text-slate-600 dark:text-slate-400"
                >
                  Deletes it on save; past buyers keep the secret they were delivered. A shared
                  product needs a secret, so choose another mode or type a new secret too.
                </p>
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
    </Section>
  )
}
