import KeyRound from 'lucide-react/icons/key-round'

/** The shop's logo beside its name: a key on the brand gradient (header, footer, customer area). */
export function BrandMark() {
  return (
    <span className="inline-flex size-8 items-center justify-center rounded-lg bg-gradient-to-br from-brand-600 to-fuchsia-600 text-white">
      <KeyRound aria-hidden="true" className="size-4.5" />
    </span>
  )
}
