import { describe, expect, it } from 'vitest'
import { gatewayAnswer, gatewayLabel, paymentModeLabel } from './gateway'

describe('gatewayLabel', () => {
  it('names each gateway as people read it, and keeps an unknown id as stored', () => {
    expect(['paytm', 'razorpay', 'phonepe'].map(gatewayLabel)).toEqual([
      'Paytm',
      'Razorpay',
      'PhonePe',
    ])
    expect(gatewayLabel('constructor')).toBe('constructor')
  })
})

describe('gatewayAnswer', () => {
  it("shows each gateway's last answer in its own words, each word once", () => {
    const answer = (status: string | null, code: string | null, message: string | null) =>
      gatewayAnswer({ gatewayStatus: status, gatewayRespCode: code, gatewayRespMsg: message })
    expect(answer('TXN_SUCCESS', '01', 'Txn Success')).toBe('TXN_SUCCESS · 01 · Txn Success')
    // Razorpay's status and code are the same word for a captured payment.
    expect(answer('captured', 'captured', '')).toBe('captured')
    expect(answer('failed', 'BAD_REQUEST_ERROR', 'Payment failed')).toBe(
      'failed · BAD_REQUEST_ERROR · Payment failed',
    )
    expect(answer('FAILED', 'PAYMENT_DECLINED', 'The UPI PIN entered was not correct')).toBe(
      'FAILED · PAYMENT_DECLINED · The UPI PIN entered was not correct',
    )
    expect(answer(null, null, null)).toBeNull()
  })
})

describe('paymentModeLabel', () => {
  it("says how the buyer paid from each gateway's own code", () => {
    // Paytm's PAYMENTMODE, Razorpay's method, PhonePe's paymentMode.
    expect(['PPI', 'CC', 'DC', 'NB', 'UPI'].map(paymentModeLabel)).toEqual([
      'Paytm wallet',
      'Credit card',
      'Debit card',
      'Netbanking',
      'UPI',
    ])
    expect(['upi', 'card', 'netbanking', 'wallet', 'emi'].map(paymentModeLabel)).toEqual([
      'UPI',
      'Card',
      'Netbanking',
      'Wallet',
      'EMI',
    ])
    expect(['UPI_COLLECT', 'UPI_QR', 'CARD', 'NET_BANKING'].map(paymentModeLabel)).toEqual([
      'UPI',
      'UPI QR',
      'Card',
      'Netbanking',
    ])
    // A code we do not know is shown as the gateway sent it.
    expect(paymentModeLabel('CRYPTO_X')).toBe('CRYPTO_X')
    expect(paymentModeLabel('constructor')).toBe('constructor')
  })
})
