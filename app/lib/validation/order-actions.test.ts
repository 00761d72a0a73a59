import { describe, expect, it } from 'vitest'
import { MANUAL_SECRET_MESSAGES } from '~/lib/stock-parse'
import {
  gatewayRefundSchemaUpTo,
  NO_LIVE_ITEM,
  ORDER_ACTION_SCHEMAS,
  ORDER_INPUT_MESSAGES,
  orderActionSchema,
  REFUND_NOTE_MAX,
  REFUND_REASON_MAX,
  refundAmountTooMuch,
  REPLY_MAX,
} from './order-actions'
import { constraintsOf, parseSubmission } from './submission'
import type { z } from './zod'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}
const errorsOf = (fields: Record<string, string>) => {
  const submission = parseSubmission(form(fields), orderActionSchema)
  return submission.status === 'success' ? undefined : submission.error
}

describe('the order recovery actions schema', () => {
  it('tells the actions apart by intent and trims the notes it keeps', () => {
    const refund = parseSubmission(
      form({ intent: 'refund', note: '  Paytm refund 4471 ', confirmed: 'yes' }),
      orderActionSchema,
    )
    expect(refund.status).toBe('success')
    expect(refund.status === 'success' && refund.value).toEqual({
      intent: 'refund',
      note: 'Paytm refund 4471',
      confirmed: 'yes',
    })
    const resend = parseSubmission(form({ intent: 'resend' }), orderActionSchema)
    expect(resend.status === 'success' && resend.value).toEqual({ intent: 'resend', confirmed: '' })
  })

  it('reads the item a replacement replaces: none shown (empty or NO_LIVE_ITEM) apart from not said', () => {
    const itemOf = (fields: Record<string, string>) => {
      const submission = parseSubmission(
        form({ intent: 'replace', reason: '', ...fields }),
        orderActionSchema,
      )
      if (submission.status !== 'success') throw new Error('refused')
      return (submission.value as { currentItemId?: string | null }).currentItemId
    }
    expect(itemOf({ currentItemId: ' abc123 ' })).toBe('abc123')
    expect(itemOf({ currentItemId: NO_LIVE_ITEM })).toBeNull()
    expect(itemOf({ currentItemId: '' })).toBeNull()
    expect(itemOf({})).toBeUndefined()
  })

  it('refuses an unknown intent', () => {
    expect(errorsOf({ intent: 'delete' })).toHaveProperty('intent')
  })

  it('asks for a refund note and a reply that are more than spaces, within their limits', () => {
    expect(errorsOf({ intent: 'refund', note: '   ' })).toEqual({
      note: [ORDER_INPUT_MESSAGES.refundNoteRequired],
    })
    expect(errorsOf({ intent: 'refund', note: 'x'.repeat(REFUND_NOTE_MAX + 1) })).toEqual({
      note: [ORDER_INPUT_MESSAGES.refundNoteTooLong],
    })
    expect(errorsOf({ intent: 'refund', note: ` ${'x'.repeat(REFUND_NOTE_MAX)} ` })).toBeUndefined()
    expect(errorsOf({ intent: 'reply' })).toEqual({ reply: [ORDER_INPUT_MESSAGES.replyRequired] })
    expect(errorsOf({ intent: 'reply', reply: 'x'.repeat(REPLY_MAX + 1) })).toEqual({
      reply: ['Please keep the reply to at most 2,000 characters.'],
    })
    expect(errorsOf({ intent: 'replace', reason: 'x'.repeat(501) })).toEqual({
      reason: ['Please keep the reason to at most 500 characters.'],
    })
    expect(errorsOf({ intent: 'replace', reason: 'x'.repeat(500) })).toBeUndefined()
    expect(ORDER_INPUT_MESSAGES.refundNoteTooLong).toBe(
      'Please keep the note to at most 500 characters.',
    )
    expect(errorsOf({ intent: 'replace', reason: '' })).toBeUndefined()
  })

  it('reads hand-delivered details as parseManualSecret does, one message at a time', () => {
    expect(errorsOf({ intent: 'deliver', secret: ' \n ' })).toEqual({
      secret: [MANUAL_SECRET_MESSAGES.empty],
    })
    expect(errorsOf({ intent: 'deliver', secret: 'x'.repeat(4001) })).toEqual({
      secret: [MANUAL_SECRET_MESSAGES.tooLong],
    })
    expect(errorsOf({ intent: 'deliver', secret: 'bad\u0007bell' })).toEqual({
      secret: [MANUAL_SECRET_MESSAGES.invalid],
    })
    expect(errorsOf({ intent: 'deliver', secret: 'Email: a@b.in\nPassword: x' })).toBeUndefined()
  })

  it('gives each form the limits its schema defines', () => {
    expect(constraintsOf(ORDER_ACTION_SCHEMAS.refund).note).toEqual({
      required: true,
      maxLength: REFUND_NOTE_MAX,
    })
    expect(constraintsOf(ORDER_ACTION_SCHEMAS.reply).reply).toEqual({
      required: true,
      maxLength: REPLY_MAX,
    })
    expect(constraintsOf(ORDER_ACTION_SCHEMAS.deliver).secret).toEqual({
      required: true,
      maxLength: 4000,
    })
    expect(constraintsOf(ORDER_ACTION_SCHEMAS.replace).reason).toEqual({
      required: false,
      maxLength: 500,
    })
  })

  describe('a refund through the gateway', () => {
    const refund = (fields: Record<string, string>) =>
      form({ intent: 'gateway-refund', refundKey: `RFD_${'a'.repeat(20)}`, ...fields })
    const amountError = (amount: string, schema: z.ZodType = orderActionSchema) => {
      const submission = parseSubmission(refund({ amount }), schema)
      return submission.status === 'success' ? undefined : submission.error?.amount
    }

    it('takes rupees with at most two decimals, and says so of a third', () => {
      expect(amountError('249.50')).toBeUndefined()
      expect(amountError('1,499')).toBeUndefined()
      expect(amountError('249.505')).toEqual(['Use at most two decimals (paise), such as 249.50.'])
      expect(amountError('249.5.0')).toEqual([ORDER_INPUT_MESSAGES.refundAmountInvalid])
      expect(amountError('abc')).toEqual([ORDER_INPUT_MESSAGES.refundAmountInvalid])
      expect(amountError('0.99')).toEqual([ORDER_INPUT_MESSAGES.refundAmountTooSmall])
      expect(amountError(' ')).toEqual([ORDER_INPUT_MESSAGES.refundAmountRequired])
    })

    it('keeps a reason of exactly its limit, and says "at most" beyond it', () => {
      const errors = (reason: string) => {
        const submission = parseSubmission(refund({ amount: '10', reason }), orderActionSchema)
        return submission.status === 'success' ? undefined : submission.error
      }
      expect(errors('x'.repeat(REFUND_REASON_MAX))).toBeUndefined()
      expect(errors('x'.repeat(REFUND_REASON_MAX + 1))).toEqual({
        reason: ['Please keep the reason to at most 250 characters.'],
      })
    })

    it("refuses on the page more than is left to refund, in the action's words", () => {
      const upTo = gatewayRefundSchemaUpTo(49_900)
      expect(amountError('499', upTo)).toBeUndefined()
      expect(amountError('499.01', upTo)).toEqual(['At most ₹499 is left to refund on this order.'])
      expect(amountError('499.01', upTo)).toEqual([refundAmountTooMuch(49_900)])
      // The action's own schema leaves that to the transaction that writes the refund.
      expect(amountError('499.01')).toBeUndefined()
      expect(constraintsOf(upTo).amount).toEqual(
        constraintsOf(ORDER_ACTION_SCHEMAS['gateway-refund']).amount,
      )
    })
  })
})
