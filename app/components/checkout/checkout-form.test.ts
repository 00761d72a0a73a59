import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { PaymentChoice, type GatewayChoice } from './checkout-form'

/**
 * The way to pay in the server's HTML, which is all a browser without JavaScript gets: Razorpay's
 * Checkout is a script, so there Razorpay is not checked when another way exists, and says why.
 */
const PAYTM: GatewayChoice = { id: 'paytm', label: 'Paytm', testMode: false }
const RAZORPAY: GatewayChoice = { id: 'razorpay', label: 'Razorpay', testMode: false }

const render = (props: Parameters<typeof PaymentChoice>[0]) =>
  renderToString(createElement(PaymentChoice, props))

/** The value of the radio the HTML checks. */
const checked = (html: string) =>
  /<input[^>]*value="(\w+)"[^>]*checked=""/.exec(html)?.[1] ??
  /<input[^>]*checked=""[^>]*value="(\w+)"/.exec(html)?.[1]

describe('the way to pay without JavaScript', () => {
  it('checks another gateway than Razorpay, even when the buyer chose it last time', () => {
    const html = render({ gateways: [RAZORPAY, PAYTM], selected: 'razorpay' })
    expect(checked(html)).toBe('paytm')
    expect(html.match(/checked=""/g)).toHaveLength(1)
    // The shop lists Razorpay first and the buyer has not chosen yet.
    expect(checked(render({ gateways: [RAZORPAY, PAYTM], selected: null }))).toBe('paytm')
  })

  it('says beside Razorpay that it needs JavaScript', () => {
    const html = render({ gateways: [PAYTM, RAZORPAY], selected: 'paytm' })
    expect(checked(html)).toBe('paytm')
    expect(html).toContain(
      '<noscript><p class="text-sm text-amber-900 dark:text-amber-100">Paying through Razorpay needs JavaScript; choose another way to pay or turn JavaScript on.</p></noscript>',
    )
    // Only Razorpay: there is no other way to choose.
    const alone = render({ gateways: [RAZORPAY], selected: 'razorpay' })
    expect(alone).toContain('Paying through Razorpay needs JavaScript; turn JavaScript on to pay.')
  })

  it('leaves the choice alone when Razorpay is not offered or the only one left', () => {
    expect(checked(render({ gateways: [PAYTM, RAZORPAY], selected: 'paytm' }))).toBe('paytm')
    const noNote = render({ gateways: [PAYTM], selected: 'paytm' })
    expect(noNote).not.toContain('needs JavaScript')
    // Paytm could not start the payment in this attempt: Razorpay is what is left.
    const rest = render({
      gateways: [PAYTM, RAZORPAY],
      selected: 'paytm',
      failed: { unavailable: ['paytm'], gateway: 'razorpay' },
    })
    expect(checked(rest)).toBe('razorpay')
  })
})
