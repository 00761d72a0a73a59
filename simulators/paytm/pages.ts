import { formatRupees } from '../../app/lib/money'
import { escapeHtml } from '../../app/lib/html'
import { PAYMENT_MODES, type SimTransaction } from './transactions'
import { outcomeButtons } from '../kit'

/** The simulator's pages: plain HTML with inline CSS, readable on a phone, in light and dark. */

export const BANNER_TEXT = 'Paytm simulator — test mode, no real money'

const STYLES = `
:root { color-scheme: light dark; --bg: #f4f7fb; --card: #ffffff; --text: #102a43; --muted: #52606d;
  --border: #d9e2ec; --accent: #00baf2; --accent-text: #002e6e; --ok: #0f7b3f; --bad: #b42318;
  --banner-bg: #fff4ce; --banner-text: #5c4400; --focus: #1d4ed8; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0b1622; --card: #13212f; --text: #e6edf3; --muted: #9fb3c8; --border: #2a3b4d;
    --accent: #00baf2; --accent-text: #00111f; --ok: #4ade80; --bad: #f87171;
    --banner-bg: #3d3000; --banner-text: #ffe58a; --focus: #93c5fd; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  background: var(--bg); color: var(--text); }
.banner { margin: 0; padding: .6rem 1rem; text-align: center; font-weight: 600;
  background: var(--banner-bg); color: var(--banner-text); border-bottom: 1px solid var(--border); }
main { max-width: 28rem; margin: 1.5rem auto; padding: 0 1rem; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: .75rem; padding: 1.25rem; }
h1 { font-size: 1.25rem; margin: 0 0 1rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .35rem 1rem; margin: 0 0 1.25rem; }
dt { color: var(--muted); }
dd { margin: 0; text-align: right; overflow-wrap: anywhere; }
.amount { font-size: 1.5rem; font-weight: 700; }
fieldset { border: 1px solid var(--border); border-radius: .5rem; margin: 0 0 1.25rem; padding: .75rem; }
legend { padding: 0 .35rem; font-weight: 600; }
.modes { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; }
.modes label { display: flex; align-items: center; gap: .5rem; padding: .6rem; border: 1px solid var(--border);
  border-radius: .5rem; cursor: pointer; min-height: 44px; }
.actions { display: grid; gap: .6rem; }
button { font: inherit; font-weight: 600; min-height: 44px; padding: .6rem 1rem; border-radius: .5rem;
  border: 1px solid var(--border); background: transparent; color: var(--text); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
button.danger { color: var(--bad); border-color: currentColor; }
button:focus-visible, input:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.hint { color: var(--muted); font-size: .875rem; margin: 1rem 0 0; }
.ok { color: var(--ok); } .bad { color: var(--bad); }
`

function page(title: string, nonce: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLES}</style>
</head>
<body>
<p class="banner" role="note">${escapeHtml(BANNER_TEXT)}</p>
<main>
<div class="card">
${content}
</div>
</main>
</body>
</html>`
}

/** The payment page shown after a correctly signed processTransaction. */
export function paymentPage(
  txn: SimTransaction,
  respondUrl: string,
  settleAfterMs: number,
  nonce: string,
): string {
  const amount = formatRupees(txn.amountPaise)
  const modes = PAYMENT_MODES.map(
    ({ mode, label }, index) =>
      `<label><input type="radio" name="PAYMENTMODE" value="${mode}"${index === 0 ? ' checked' : ''}> ${escapeHtml(label)}</label>`,
  ).join('\n')
  const seconds = Math.max(1, Math.round(settleAfterMs / 1000))
  return page(
    `Pay ${amount} · Paytm simulator`,
    nonce,
    `<h1>Complete your payment</h1>
<dl>
<dt>Merchant</dt><dd>${escapeHtml(txn.mid)} (${escapeHtml(txn.website)})</dd>
<dt>Order ID</dt><dd>${escapeHtml(txn.orderId)}</dd>
<dt>Amount</dt><dd class="amount">${escapeHtml(amount)}</dd>
</dl>
<form method="post" action="${escapeHtml(respondUrl)}">
<input type="hidden" name="MID" value="${escapeHtml(txn.mid)}">
<input type="hidden" name="ORDER_ID" value="${escapeHtml(txn.orderId)}">
<input type="hidden" name="PAGE_SECRET" value="${escapeHtml(txn.pageSecret)}">
<fieldset>
<legend>Payment method</legend>
<div class="modes">
${modes}
</div>
</fieldset>
${outcomeButtons('Leave pending')}
</form>
<p class="hint">Leave pending sends a PENDING callback; the status APIs then report success after about ${seconds} s, so reconciliation can be seen working.</p>`,
  )
}

const STATUS_WORDS: Record<string, { text: string; className: string }> = {
  TXN_SUCCESS: { text: 'Payment successful', className: 'ok' },
  TXN_FAILURE: { text: 'Payment failed', className: 'bad' },
  PENDING: { text: 'Payment pending', className: '' },
}

/**
 * Sends the browser back to the merchant: a form of the callback fields that submits itself,
 * with a visible Continue button for browsers without JavaScript.
 */
export function callbackPage(
  callbackUrl: string,
  fields: Readonly<Record<string, string>>,
  nonce: string,
): string {
  const words = STATUS_WORDS[fields.STATUS ?? ''] ?? {
    text: 'Returning to the merchant',
    className: '',
  }
  const inputs = Object.entries(fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n')
  return page(
    `${words.text} · Paytm simulator`,
    nonce,
    `<h1 class="${words.className}">${escapeHtml(words.text)}</h1>
<p>${escapeHtml(fields.RESPMSG ?? '')}</p>
<form id="callback" method="post" action="${escapeHtml(callbackUrl)}">
${inputs}
<div class="actions"><button type="submit" class="primary">Continue</button></div>
</form>
<p class="hint">Returning you to the merchant…</p>
<script nonce="${nonce}">document.getElementById('callback').submit()</script>`,
  )
}

export function messagePage(title: string, message: string, nonce: string): string {
  return page(
    `${title} · Paytm simulator`,
    nonce,
    `<h1 class="bad">${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`,
  )
}
