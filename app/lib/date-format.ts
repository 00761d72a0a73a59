/**
 * Dates and times as the shop shows them in its lists (orders, reports, the CSV export):
 * Indian English, a medium date and the time, in the shop's time zone from Settings.
 */
export function shopDateTime(
  timeZone: string,
  options: { seconds?: boolean } = {},
): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'medium',
    timeStyle: options.seconds ? 'medium' : 'short',
    timeZone,
  })
}

/** A day as words, "5 March 2026", in the shop's time zone (since when a customer is a member). */
export function shopLongDate(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  })
}
