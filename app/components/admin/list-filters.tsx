import Search from 'lucide-react/icons/search'
import { createContext, useContext, type ReactNode } from 'react'
import { Form, Link, useNavigation, useSubmit } from 'react-router'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { cn } from '~/components/ui/cn'
import { Field } from '~/components/ui/field'
import { Checkbox, Input, Select } from '~/components/ui/input'
import { SEARCH_MAX } from '~/lib/list-search'

/**
 * The filter bar of the admin lists (orders, transactions, users, products): a GET form whose
 * fields live in the URL, so a filtered list can be bookmarked and works without JavaScript.
 * With JavaScript a select or a checkbox applies at once and the search box on Enter or the
 * button; only the fields that are set go in the URL, and a new filter starts at page 1.
 */

/** Where the bar turns from a column (phones) into a row. */
export type Breakpoint = 'sm' | 'lg'

const ROW: Record<Breakpoint, string> = {
  sm: 'sm:flex-row sm:flex-wrap sm:items-end',
  lg: 'lg:flex-row lg:flex-wrap lg:items-end',
}
/**
 * The search box's least width in the row: narrower, it showed no text at all (four fields of
 * fixed width left it 50 px at 1024 px). Fields that do not fit beside it go to a second line.
 */
const SEARCH_WIDTH: Record<Breakpoint, string> = { sm: 'sm:min-w-48', lg: 'lg:min-w-60' }
const BUTTON_WIDTH: Record<Breakpoint, string> = { sm: 'sm:flex-none', lg: 'lg:flex-none' }

const number = new Intl.NumberFormat('en-IN')

const BreakpointContext = createContext<Breakpoint>('sm')

export function FilterForm({
  action,
  breakpoint,
  filtered,
  children,
}: {
  /** The list's own path: the form's GET target, and where Clear goes. */
  action: string
  breakpoint: Breakpoint
  /** Whether any filter is set (shows Clear). */
  filtered: boolean
  children: ReactNode
}) {
  const submit = useSubmit()

  function submitFilters(form: HTMLFormElement) {
    const params = new URLSearchParams()
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim()) params.set(name, value.trim())
    }
    void submit(params, { method: 'get', action })
  }

  const button = BUTTON_WIDTH[breakpoint]
  return (
    <BreakpointContext.Provider value={breakpoint}>
      <Form
        method="get"
        action={action}
        role="search"
        className={`flex flex-col gap-3 border-b border-slate-200 p-4 dark:border-slate-800 ${ROW[breakpoint]}`}
        onSubmit={(event) => {
          event.preventDefault()
          submitFilters(event.currentTarget)
        }}
        onChange={(event) => {
          const target = event.target as HTMLElement
          if (target.tagName === 'SELECT' || (target as HTMLInputElement).type === 'checkbox')
            submitFilters(event.currentTarget)
        }}
      >
        {children}
        <div className="flex gap-2">
          <Button type="submit" variant="strong" className={cn('flex-1', button)}>
            Search
          </Button>
          {filtered ? (
            <Link
              to={action}
              className={cn(buttonVariants({ variant: 'outline' }), 'flex-1 font-medium', button)}
            >
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
    </BreakpointContext.Provider>
  )
}

/** The search box (`?q=`), with its magnifier. */
export function SearchField({
  id,
  label,
  value,
  placeholder,
}: {
  id: string
  label: string
  /** The search in the URL; the box starts over with it after each navigation. */
  value: string
  placeholder: string
}) {
  const breakpoint = useContext(BreakpointContext)
  return (
    <Field label={label} id={id} className={cn('flex-1', SEARCH_WIDTH[breakpoint])}>
      {(control) => (
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400"
          />
          <Input
            {...control}
            type="search"
            name="q"
            surface="admin"
            defaultValue={value}
            key={value}
            maxLength={SEARCH_MAX}
            placeholder={placeholder}
            className="pl-9"
          />
        </div>
      )}
    </Field>
  )
}

/** A SelectField's options: each value with its label (the value itself where there are none). */
export function optionsOf<Value extends string>(
  values: readonly Value[],
  labels?: Readonly<Record<Value, string>>,
): Array<{ value: Value; label: string }> {
  return values.map((value) => ({ value, label: labels ? labels[value] : value }))
}

const SELECT_WIDTH: Record<Breakpoint, string> = { sm: 'sm:w-56', lg: 'lg:w-52' }

/** A choice that applies at once; the first option is "all" (an empty value). */
export function SelectField({
  id,
  label,
  name,
  value,
  allLabel,
  options,
}: {
  id: string
  label: string
  name: string
  value: string
  allLabel: string
  options: ReadonlyArray<{ value: string; label: string }>
}) {
  const breakpoint = useContext(BreakpointContext)
  return (
    <Field label={label} id={id} className={SELECT_WIDTH[breakpoint]}>
      {(control) => (
        <Select {...control} name={name} surface="admin" defaultValue={value} key={value}>
          <option value="">{allLabel}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  )
}

/** A date bound (`from`, `to`); applies with the search button, like the search box. */
export function DateField({
  id,
  label,
  name,
  value,
}: {
  id: string
  label: string
  name: string
  /** The date in the URL (YYYY-MM-DD), or empty. */
  value: string
}) {
  return (
    <Field label={label} id={id} className="lg:w-40">
      {(control) => (
        <Input
          {...control}
          type="date"
          name={name}
          surface="admin"
          defaultValue={value}
          key={`${name}-${value}`}
        />
      )}
    </Field>
  )
}

/** An on/off filter that applies at once. */
export function CheckboxFilter({
  label,
  name,
  value,
  checked,
}: {
  label: string
  name: string
  value: string
  checked: boolean
}) {
  return (
    <label className="flex h-11 items-center gap-2 text-sm font-medium text-slate-800 dark:text-slate-200">
      <Checkbox
        name={name}
        value={value}
        defaultChecked={checked}
        key={String(checked)}
        className="size-5"
      />
      {label}
    </label>
  )
}

export interface FilterChip {
  label: string
  count: number
  href: string
  active: boolean
  /** Drawn in red while it has a count (e.g. open problem reports). */
  alert?: boolean
}

/** Links that filter a list by status, each with its count (plain links: no JavaScript needed). */
export function FilterChips({ label, chips }: { label: string; chips: FilterChip[] }) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <li key={chip.label}>
            <Link
              to={chip.href}
              aria-current={chip.active ? 'page' : undefined}
              className={`inline-flex h-10 items-center gap-2 rounded-xl border px-3 text-sm font-medium ${
                chip.active
                  ? 'border-brand-600 bg-brand-600 text-white'
                  : chip.alert && chip.count > 0
                    ? 'border-rose-300 bg-white text-rose-800 hover:bg-rose-50 dark:border-rose-900 dark:bg-slate-900 dark:text-rose-300 dark:hover:bg-rose-950/40'
                    : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
              }`}
            >
              {chip.label}
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-bold tabular-nums ${
                  chip.active
                    ? 'bg-brand-800 text-white'
                    : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200'
                }`}
              >
                {number.format(chip.count)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** "Showing 21–40 of 57 orders" (an empty string for an empty list). */
export function rangeText(
  page: { number: number; size: number; total: number },
  noun: { one: string; many: string },
): string {
  if (page.total === 0) return ''
  const first = (page.number - 1) * page.size + 1
  const last = Math.min(page.number * page.size, page.total)
  return `Showing ${number.format(first)}–${number.format(last)} of ${number.format(page.total)} ${page.total === 1 ? noun.one : noun.many}`
}

/** The line above a filtered list: what it shows, or that the next page is loading. */
export function ListRange({
  path,
  page,
  noun,
}: {
  path: string
  page: { number: number; size: number; total: number }
  noun: { one: string; many: string }
}) {
  const navigation = useNavigation()
  const loading = navigation.state === 'loading' && navigation.location.pathname === path
  return (
    <p aria-live="polite" className="px-4 pt-3 text-sm text-slate-600 dark:text-slate-300">
      {loading ? `Loading ${noun.many}...` : rangeText(page, noun)}
    </p>
  )
}
