import { describe, expect, it } from 'vitest'
import { gatewayAnswer, gatewayLabel } from './gateway'

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
