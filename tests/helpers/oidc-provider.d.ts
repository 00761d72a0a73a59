// oidc-provider ships no types; the few parts the test OpenID provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface InteractionDetails {
    uid: string
    prompt: { name: string; details: Record<string, unknown> }
    params: Record<string, unknown> & { client_id: string }
  }
  interface Grant {
    addOIDCScope(scope: string): void
    save(): Promise<string>
  }
  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    Grant: new (init: { accountId: string; clientId: string }) => Grant
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    on(event: string, listener: (...args: unknown[]) => void): void
  }
  export const interactionPolicy: {
    base(): { add(prompt: unknown, index?: number): void } & unknown[]
    Prompt: new (options: { name: string; requestable: boolean }, ...checks: unknown[]) => unknown
  }
  export default Provider
}
