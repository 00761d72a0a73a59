/**
 * A product's validity is free text typed by the shop ("12 months", "1 Year", "30 days",
 * "Lifetime"). An order keeps the text it was sold with. The customer dashboard and the expiry
 * reminders read it as a duration to say when a delivered subscription runs out; text that is
 * not a duration ("Lifetime", "Until cancelled") has no end and gives null. A blank validity
 * means DEFAULT_VALIDITY wherever it is shown or read (`effectiveValidity`). Browser safe.
 *
 * The reminders' check stores each delivered order's end once (`order.validity_ends_at`,
 * app/data/expiry-reminder.server.ts) and reads orders by it. A change here that moves ends (a
 * new unit or word, another DEFAULT_VALIDITY, text read that was not before) therefore comes
 * with a migration setting `validity_ends_at` to null for delivered orders, so they are counted
 * again.
 */
import { addDays, localDateOf, zoneOffsetMs, type LocalDate } from './shop-time'

export type ValidityUnit = 'day' | 'week' | 'month' | 'year'

export interface ValidityDuration {
  amount: number
  unit: ValidityUnit
}

const UNITS: ReadonlyArray<[RegExp, ValidityUnit]> = [
  [/^(d|ds|day|days|dy|dys)$/, 'day'],
  [/^(w|wk|wks|week|weeks)$/, 'week'],
  [/^(m|mo|mos|mon|mons|mth|mths|month|months)$/, 'month'],
  [/^(y|yr|yrs|year|years|yearly|annual|annually)$/, 'year'],
]

const WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  eighteen: 18,
  twenty: 20,
  thirty: 30,
  ninety: 90,
}

/** Words that make a text open-ended whatever number it also contains. */
const OPEN_ENDED =
  /\b(lifetime|life\s*time|forever|permanent|unlimited|perpetual|never\s+expires?)\b/

/** The first "<number> <unit>" in the text, e.g. "Valid for 12 Months (auto-renew)". */
export function parseValidity(text: string | null | undefined): ValidityDuration | null {
  if (!text) return null
  const lower = text.toLowerCase().normalize('NFKC')
  if (OPEN_ENDED.test(lower)) return null
  if (/^\s*(monthly)\s*$/.test(lower)) return { amount: 1, unit: 'month' }
  if (/^\s*(yearly|annual|annually)\s*$/.test(lower)) return { amount: 1, unit: 'year' }
  if (/^\s*(weekly)\s*$/.test(lower)) return { amount: 1, unit: 'week' }
  // A number (digits or a word), an optional hyphen or space, then a unit.
  const pattern = /(\d+(?:\.\d+)?|[a-z]+)\s*-?\s*([a-z]+)/g
  for (const match of lower.matchAll(pattern)) {
    const [, count, unitWord] = match
    if (!count || !unitWord) continue
    const amount = /^\d/.test(count) ? Number(count) : WORDS[count]
    if (amount === undefined || !Number.isFinite(amount) || amount <= 0) continue
    const unit = UNITS.find(([re]) => re.test(unitWord))?.[1]
    if (!unit) continue
    // Fractions of a month or year ("1.5 years") become months or days.
    if (!Number.isInteger(amount)) {
      if (unit === 'year') return { amount: Math.round(amount * 12), unit: 'month' }
      if (unit === 'month') return { amount: Math.round(amount * 30), unit: 'day' }
      if (unit === 'week') return { amount: Math.round(amount * 7), unit: 'day' }
      return { amount: Math.round(amount), unit: 'day' }
    }
    // Beyond a century is not a subscription term.
    if ((unit === 'year' && amount > 100) || (unit === 'month' && amount > 1200)) return null
    if ((unit === 'day' && amount > 36500) || (unit === 'week' && amount > 5200)) return null
    return { amount, unit }
  }
  return null
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The instant a validity that started at `start` ends, counted on the shop's calendar
 * (`timeZone`, Settings): the local date moves on by the days, months or years, and the end is
 * at the same local time of day. Months and years keep the day of the month, or the month's last
 * day when it has fewer (31 January + 1 month = 28/29 February). So a month bought at 01:00 on
 * 1 March in India (still 28 February in UTC) ends at 01:00 on 1 April there, the date the
 * dashboard and the expiry reminders show "in the shop's time zone" (docs/notifications.md).
 */
export function validityEnd(start: Date, duration: ValidityDuration, timeZone: string): Date {
  const date = localDateOf(start, timeZone)
  let end: LocalDate
  if (duration.unit === 'day' || duration.unit === 'week') {
    end = addDays(date, duration.unit === 'week' ? duration.amount * 7 : duration.amount)
  } else {
    const months = duration.unit === 'year' ? duration.amount * 12 : duration.amount
    const index = date.year * 12 + (date.month - 1) + months
    const year = Math.floor(index / 12)
    const month = (index % 12) + 1
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate()
    end = { year, month, day: Math.min(date.day, lastDay) }
  }
  // The local time of day at the start, in milliseconds since the local midnight on the clock.
  const wall = start.getTime() + zoneOffsetMs(start.getTime(), timeZone)
  const timeOfDay = ((wall % DAY_MS) + DAY_MS) % DAY_MS
  return instantAtWallClock(Date.UTC(end.year, end.month - 1, end.day) + timeOfDay, timeZone)
}

/**
 * The instant the zone's clock shows `wall` (a local date and time written as if it were UTC).
 * Where the clocks go back and the time comes twice, the first of the two; where they go forward
 * and the time never shows, the time the clock jumped to plus the same minutes (02:30 on the
 * morning New York springs forward is 03:30). India has no daylight saving: always one answer.
 */
function instantAtWallClock(wall: number, timeZone: string): Date {
  // The zone's offsets a day either side cover any change of the clocks near this time.
  const candidates = [
    wall - zoneOffsetMs(wall - DAY_MS, timeZone),
    wall - zoneOffsetMs(wall + DAY_MS, timeZone),
  ]
  const exact = candidates.filter((at) => at + zoneOffsetMs(at, timeZone) === wall)
  return new Date(exact.length > 0 ? Math.min(...exact) : Math.max(...candidates))
}

/**
 * What a blank validity stands for: the storefront shows "1 Year" when the shop typed none
 * (docs/original-spec.md, product page defaults), so that is the term such a buyer paid for.
 */
export const DEFAULT_VALIDITY = '1 Year'

/** The validity as shown and as its term is counted: trimmed, or DEFAULT_VALIDITY when blank. */
export function effectiveValidity(text: string | null | undefined): string {
  return text?.trim() || DEFAULT_VALIDITY
}

/**
 * The validity an order was sold with, read by `effectiveValidity`: the order's own, or its
 * product's current one when the order kept none (orders placed before they kept it were given
 * their product's validity when they began to: db/migrations/0175_order_validity.ts). Null when
 * neither is known.
 */
export function orderValidity(
  ordered: string | null | undefined,
  product: string | null | undefined,
): string | null {
  const text = ordered ?? product
  return text === null || text === undefined ? null : effectiveValidity(text)
}
