import http from 'node:http'
import { exportJWK, generateKeyPair } from 'jose'
import Provider, { interactionPolicy } from 'oidc-provider'
import { freePort } from './app'

/**
 * A local OpenID Connect provider standing in for Google (the npm oidc-provider package),
 * for GOOGLE_ISSUER. Its sign-in page is an account chooser: type an e-mail and a name and
 * press Continue (or Cancel). It honours prompt=select_account, as Google does.
 */
export interface TestOidcProvider {
  issuer: string
  clientId: string
  clientSecret: string
  /** The prompt parameters of the authorization requests seen. */
  prompts: string[]
  /** Addresses (lower case) whose ID token says email_verified: false. */
  unverified: Set<string>
  close(): Promise<void>
}

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

export async function startOidcProvider(options: {
  redirectUri: string
}): Promise<TestOidcProvider> {
  const port = await freePort()
  const issuer = `http://127.0.0.1:${port}`
  const clientId = 'keybazaar-test'
  const clientSecret = 'keybazaar-test-secret-0123456789'
  const names = new Map<string, string>()
  // Addresses the provider says it has not verified (email_verified: false).
  const unverified = new Set<string>()
  const prompts: string[] = []

  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' }

  const policy = interactionPolicy.base()
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0)

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['oidc-test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    interactions: {
      policy,
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    features: { devInteractions: { enabled: false } },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: sub,
        email_verified: !unverified.has(sub),
        name: names.get(sub) ?? sub,
      }),
    }),
  })
  const handle = provider.callback()

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer)
      if (url.pathname === '/auth') prompts.push(url.searchParams.get('prompt') ?? '')
      const match = /^\/interaction\/([^/]+)(\/submit|\/abort)?$/.exec(url.pathname)
      if (!match) return handle(req, res)
      const details = await provider.interactionDetails(req, res)
      if (match[2] === '/abort') {
        return provider.interactionFinished(req, res, {
          error: 'access_denied',
          error_description: 'End-User aborted interaction',
        })
      }
      if (match[2] === '/submit' && req.method === 'POST') {
        const form = await readForm(req)
        const email = (form.get('email') ?? '').trim().toLowerCase()
        names.set(email, (form.get('name') ?? '').trim() || email)
        const grant = new provider.Grant({ accountId: email, clientId: details.params.client_id })
        grant.addOIDCScope('openid email profile')
        const grantId = await grant.save()
        return provider.interactionFinished(
          req,
          res,
          { select_account: {}, login: { accountId: email }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        )
      }
      res.setHeader('Content-Type', 'text/html; charset=utf-8')
      res.end(`<!doctype html><html lang="en"><head><title>Choose an account</title></head><body>
<h1>Choose an account</h1><p>to continue to ${escape(String(details.params.client_id))}</p>
<form method="post" action="/interaction/${escape(details.uid)}/submit">
<label>Email <input name="email" type="email"></label>
<label>Name <input name="name"></label>
<button type="submit">Continue</button>
</form>
<p><a href="/interaction/${escape(details.uid)}/abort">Cancel</a></p>
</body></html>`)
    })().catch((error: unknown) => {
      res.statusCode = 500
      res.end(String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  return {
    issuer,
    clientId,
    clientSecret,
    prompts,
    unverified,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
