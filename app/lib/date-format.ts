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
