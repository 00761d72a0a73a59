/**
 * Calendar days in the shop's time zone (Settings), as UTC instants: the database stores
 * ISO-8601 UTC text (docs/architecture.md, Data), so "today" or "the last 7 days" in the shop's
 * zone become UTC boundaries computed here and compared as text by the query. Daylight saving
 * (America/New_York, Europe/London) is handled: a day is from one local midnight to the next,
 * 23 or 25 hours long when the clocks change. Browser safe (no server imports).
 */

export interface LocalDate {
  year: number
  month: number
  day: number
}

const partsFormats = new Map<string, Intl.DateTimeFormat>()

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    partsFormats.set(timeZone, format)
  }
  return format
}

function wallClock(instant: number, timeZone: string) {
  const parts: Record<string, number> = {}
  for (const part of partsFormat(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  }
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>
}

/** How far the zone's wall clock is ahead of UTC at this instant, in milliseconds. */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone)
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
  return asUtc - Math.floor(instant / 1000) * 1000
}

/** The calendar date it is in the zone at this instant. */
export function localDateOf(instant: Date | number, timeZone: string): LocalDate {
  const wall = wallClock(typeof instant === 'number' ? instant : instant.getTime(), timeZone)
  return { year: wall.year, month: wall.month, day: wall.day }
}

/** The date `days` later (earlier when negative), on the calendar alone. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days))
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() }
}

/** The UTC instant of local midnight at the start of the date, in the zone. */
export function startOfLocalDay(date: LocalDate, timeZone: string): Date {
  const guess = Date.UTC(date.year, date.month - 1, date.day)
  const first = guess - zoneOffsetMs(guess, timeZone)
  const second = guess - zoneOffsetMs(first, timeZone)
  return new Date(second)
}

/** "2026-03-05": the date as ISO text (used in URLs and file names). */
export function isoDate(date: LocalDate): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`
}

/** Parses "YYYY-MM-DD" (a real calendar date) or returns null. */
export function parseIsoDate(text: string | null | undefined): LocalDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text ?? '')
  if (!match) return null
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }
  const check = addDays(date, 0)
  return check.year === date.year && check.month === date.month && check.day === date.day
    ? date
    : null
}

/**
 * A range of calendar days ("YYYY-MM-DD", both included; either may be missing or invalid,
 * then that side is open) as UTC instants: from's local midnight, and the midnight after `to`.
 */
export function localDayRange(
  from: string | null | undefined,
  to: string | null | undefined,
  timeZone: string,
): { from: string | null; to: string | null } {
  const first = parseIsoDate(from)
  const last = parseIsoDate(to)
  return {
    from: first ? startOfLocalDay(first, timeZone).toISOString() : null,
    to: last ? startOfLocalDay(addDays(last, 1), timeZone).toISOString() : null,
  }
}
