/**
 * Dates and times as the shop shows them in its lists (orders, reports, the CSV export):
 * Indian English, a medium date and the time, in the shop's time zone from Settings.
 */
export function shopDateTime(
  timeZone: string,
  options: { seconds?: boolean } = {},
): Intl.DateTimeFormat {
  return reused(`dateTime|${options.seconds ? 's' : ''}|${timeZone}`, () => ({
    dateStyle: 'medium',
    timeStyle: options.seconds ? 'medium' : 'short',
    timeZone,
  }))
}

/** A day, "5 Mar 2026", in the shop's time zone: where the time would only widen a list's column. */
export function shopDate(timeZone: string): Intl.DateTimeFormat {
  return reused(`date|${timeZone}`, () => ({ dateStyle: 'medium', timeZone }))
}

/** A day as words, "5 March 2026", in the shop's time zone (since when a customer is a member). */
export function shopLongDate(timeZone: string): Intl.DateTimeFormat {
  return reused(`longDate|${timeZone}`, () => ({
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  }))
}

/**
 * Making a formatter costs far more than using one (the result page and every order mail
 * made one each: about half a millisecond), and a formatter never changes: one per time zone
 * and style is kept. An unknown time zone still throws, and nothing is kept for it.
 */
const formatters = new Map<string, Intl.DateTimeFormat>()
function reused(key: string, options: () => Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let formatter = formatters.get(key)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-IN', options())
    if (formatters.size >= 64) formatters.clear()
    formatters.set(key, formatter)
  }
  return formatter
}
