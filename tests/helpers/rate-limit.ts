import { RATE_LIMIT_POLICIES, type WindowPolicyName } from '~/lib/rate-limit.server'

/**
 * Waits, if need be, until the current window of a fixed-window limit has at least `needMs`
 * left, so a test's requests and the one it expects refused all count in the same window.
 * The windows start at multiples of their length on the clock (windowOf in
 * app/lib/rate-limit.server.ts); a test that crossed a window's end would see the count start
 * again and the refusal never come.
 */
export async function withinOneWindow(policy: WindowPolicyName, needMs: number): Promise<void> {
  const windowMs = RATE_LIMIT_POLICIES[policy].windowSeconds * 1000
  const left = windowMs - (Date.now() % windowMs)
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 1_000))
}
