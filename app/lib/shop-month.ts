/**
 * The instant the current calendar month began in a time zone (the shop's, from Settings):
 * "New this month" on /admin/users counts accounts created since then.
 */
function offsetMs(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(instant)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  const local = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  )
  return local - Math.floor(instant.getTime() / 1000) * 1000
}

/** Midnight at the start of `now`'s month in `timeZone`, as a UTC instant. */
export function startOfMonthIn(now: Date, timeZone: string): Date {
  const local = new Date(now.getTime() + offsetMs(now, timeZone))
  const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1)
  // The offset at the month's first midnight (it may differ from today's across DST).
  let guess = wall - offsetMs(new Date(wall), timeZone)
  guess = wall - offsetMs(new Date(guess), timeZone)
  return new Date(guess)
}
