import { escapeHtml } from '~/lib/html'
import type { MailMessage } from '~/lib/mail.server'
import { unsubscribeHeaders } from '~/lib/unsubscribe-link.server'
import { whatsappDisplayNumber, whatsappLink } from '~/lib/whatsapp'

/**
 * The shop's one mail layout: every mail has an HTML and a text version, the site name, and the
 * support contacts from the site settings. The templates beside this file (account, order,
 * shop, wishlist and expiry mails) fill it; app/lib/mail.server.ts only queues and sends.
 */

export interface MailContent {
  to: string
  subject: string
  greeting: string
  paragraphs: string[]
  action?: { label: string; url: string }
  /** Shown after the button, e.g. how long a link lasts. */
  note?: string
  /**
   * For a mail its reader may switch off (reminders, back in stock): the one-click link
   * (app/lib/unsubscribe-link.server.ts), shown as "Unsubscribe: {url}" after the note and sent
   * as the List-Unsubscribe headers (docs/notifications.md, "Unsubscribing").
   */
  unsubscribeUrl?: string
  /**
   * The message the footer's WhatsApp link fills in (an order mail's names the order:
   * orderHelpMessage in app/lib/whatsapp.ts); without it the link opens an empty chat.
   */
  whatsappText?: string
}

/** What a mail shows of the site settings (app/data/settings.server.ts passes its own). */
export interface MailSettings {
  siteName: string
  contactEmail: string
  phoneNumber: string
  whatsappNumber: string
}

interface SupportLine {
  label: string
  value: string
  /** A link the HTML version makes, showing `linkText` rather than the long URL. */
  url?: string
  linkText?: string
}

function supportLines(settings: MailSettings, whatsappText?: string): SupportLine[] {
  const lines: SupportLine[] = []
  if (settings.contactEmail) lines.push({ label: 'E-mail', value: settings.contactEmail })
  if (settings.phoneNumber) lines.push({ label: 'Phone', value: settings.phoneNumber })
  if (settings.whatsappNumber) {
    const url =
      (whatsappText ? whatsappLink(settings.whatsappNumber, whatsappText) : null) ??
      `https://wa.me/${settings.whatsappNumber}`
    lines.push({
      label: 'WhatsApp',
      value: url,
      url,
      linkText: whatsappDisplayNumber(settings.whatsappNumber),
    })
  }
  return lines
}

function supportLineHtml(line: SupportLine): string {
  const value = line.url
    ? `<a href="${escapeHtml(line.url)}" style="color:#4f46e5">${escapeHtml(line.linkText ?? line.value)}</a>`
    : escapeHtml(line.value)
  return `${escapeHtml(line.label)}: ${value}`
}

/** Escaped text with its line breaks kept as <br>. */
const htmlLines = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>')

export function renderMail(
  settings: MailSettings,
  publicUrl: string,
  content: MailContent,
): MailMessage {
  const support = supportLines(settings, content.whatsappText)
  const text = [
    content.greeting,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.action ? [`${content.action.label}:`, content.action.url, ''] : []),
    ...(content.note ? [content.note, ''] : []),
    ...(content.unsubscribeUrl ? [`Unsubscribe: ${content.unsubscribeUrl}`, ''] : []),
    '--',
    `${settings.siteName} - ${publicUrl}`,
    ...(support.length
      ? ['Need help? Contact us:', ...support.map((line) => `${line.label}: ${line.value}`)]
      : []),
    '',
  ].join('\n')

  // A paragraph's own line breaks (an order summary, account details as "Email: ..." lines)
  // stay line breaks in the HTML part, which most mail apps show.
  const paragraphHtml = content.paragraphs
    .map((paragraph) => `<p style="margin:0 0 16px;line-height:1.5">${htmlLines(paragraph)}</p>`)
    .join('')
  const actionHtml = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#475569">If the button does not work, open this link:<br><a href="${escapeHtml(content.action.url)}" style="color:#4f46e5;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : ''
  const noteHtml = content.note
    ? `<p style="margin:0 0 16px;font-size:13px;color:#475569">${htmlLines(content.note)}</p>`
    : ''
  const unsubscribeHtml = content.unsubscribeUrl
    ? `<p style="margin:0 0 16px;font-size:13px;color:#475569">Unsubscribe: <a href="${escapeHtml(content.unsubscribeUrl)}" style="color:#4f46e5;word-break:break-all">${escapeHtml(content.unsubscribeUrl)}</a></p>`
    : ''
  const supportHtml = support.length
    ? `<p style="margin:8px 0 0">Need help? Contact us:<br>${support.map(supportLineHtml).join('<br>')}</p>`
    : ''
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font-size:20px;font-weight:800;color:#4338ca">${escapeHtml(settings.siteName)}</p>
<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(content.greeting)}</p>
${paragraphHtml}${actionHtml}${noteHtml}${unsubscribeHtml}
<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0">
<p style="margin:0;font-size:13px;color:#475569"><a href="${escapeHtml(publicUrl)}" style="color:#4f46e5">${escapeHtml(settings.siteName)}</a></p>
<div style="font-size:13px;color:#475569">${supportHtml}</div>
</td></tr></table>
</td></tr></table>
</body></html>`
  return {
    to: content.to,
    subject: content.subject,
    text,
    html,
    ...(content.unsubscribeUrl ? { headers: unsubscribeHeaders(content.unsubscribeUrl) } : {}),
  }
}

/** The greeting every mail opens with; a blank name greets "there". */
export const greetingFor = (name: string) => `Hello ${name.trim() || 'there'},`
