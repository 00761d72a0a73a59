import { describe, expect, it } from 'vitest'
import { orderHelpMessage } from '~/lib/whatsapp'
import { renderMail, type MailContent } from './render-mail.server'

/** The mail layout's support footer: an order mail's WhatsApp link names the order. */
const settings = {
  siteName: 'Chai Keys',
  contactEmail: 'help@chaikeys.example',
  phoneNumber: '+91 98765 43210',
  whatsappNumber: '919876543210',
}
const content: MailContent = {
  to: 'asha@example.test',
  subject: 'Hello',
  greeting: 'Hello Asha,',
  paragraphs: ['Something happened.'],
}
const ORDER = { id: 'ORD_20250101_XYZ', productName: "Asha's VPN & more (2 Years)" }
const prefilled = `https://wa.me/919876543210?text=${encodeURIComponent(orderHelpMessage('Chai Keys', ORDER))}`

describe('mail footer WhatsApp link', () => {
  it('fills in the order id and product when the mail is about an order', () => {
    const mail = renderMail(settings, 'https://chaikeys.example', {
      ...content,
      whatsappText: orderHelpMessage(settings.siteName, ORDER),
    })
    expect(mail.text).toContain(`WhatsApp: ${prefilled}\n`)
    expect(mail.text).toContain(encodeURIComponent(ORDER.id))
    // The HTML version links it, escaped for the attribute.
    expect(mail.html).toContain(`<a href="${prefilled.replace(/'/g, '&#39;')}"`)
    expect(new URL(prefilled).searchParams.get('text')).toBe(
      `Hi Chai Keys, I need help with my order ${ORDER.id} (${ORDER.productName}).`,
    )
  })

  it('keeps the bare link in other mails', () => {
    const mail = renderMail(settings, 'https://chaikeys.example', content)
    expect(mail.text).toContain('WhatsApp: https://wa.me/919876543210\n')
    expect(mail.html).toContain('<a href="https://wa.me/919876543210"')
    // The link shows the number as the footer and the pages write it.
    expect(mail.html).toContain('style="color:#4f46e5">+91 98765 43210</a>')
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain('wa.me/919876543210?text=')
      expect(part).not.toContain(ORDER.id)
    }
  })

  it('has no WhatsApp line without a number', () => {
    const mail = renderMail({ ...settings, whatsappNumber: '' }, 'https://chaikeys.example', {
      ...content,
      whatsappText: orderHelpMessage(settings.siteName, ORDER),
    })
    expect(mail.text).not.toContain('wa.me')
    expect(mail.html).not.toContain('wa.me')
    expect(mail.text).toContain('E-mail: help@chaikeys.example')
  })
})

describe('mail paragraphs', () => {
  it('keep their line breaks in the HTML part, escaped', () => {
    const mail = renderMail(settings, 'https://chaikeys.example', {
      ...content,
      paragraphs: [
        'Order: ORD_1\nProduct: <VPN>',
        'Your account details / key:\nEmail: a@b.test\nPassword: p&ss 2',
      ],
      note: 'First line\nSecond line',
    })
    expect(mail.html).toContain('Order: ORD_1<br>Product: &lt;VPN&gt;</p>')
    expect(mail.html).toContain('Email: a@b.test<br>Password: p&amp;ss 2</p>')
    expect(mail.html).toContain('First line<br>Second line</p>')
    expect(mail.text).toContain('Order: ORD_1\nProduct: <VPN>\n')
  })
})
