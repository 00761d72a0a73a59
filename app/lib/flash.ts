/**
 * A one-time message carried across a redirect: an action answers with a 303 back to its page,
 * which shows the message once (app/lib/flash.server.ts writes and reads it; FlashNotice shows it).
 */
export interface Flash {
  type: 'success' | 'error'
  message: string
  /** Tells two identical messages in a row apart, so each shows. */
  id: string
}
