import type { FormEvent } from 'react'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { confirm, settleConfirm, shownConfirm, useConfirmedSubmit } from './confirm'

describe('confirm', () => {
  beforeAll(() => vi.stubGlobal('window', {}))
  afterAll(() => vi.unstubAllGlobals())

  it('resolves true when confirmed and false when cancelled', async () => {
    const first = confirm({ title: 'Delete this product?' })
    expect(shownConfirm()?.title).toBe('Delete this product?')
    settleConfirm(true)
    await expect(first).resolves.toBe(true)

    const second = confirm({ title: 'Suspend this user?' })
    settleConfirm(false)
    await expect(second).resolves.toBe(false)
    expect(shownConfirm()).toBeNull()
  })

  it('asks one question at a time, in order', async () => {
    const a = confirm({ title: 'A?' })
    const b = confirm({ title: 'B?' })
    expect(shownConfirm()?.title).toBe('A?')
    settleConfirm(false)
    expect(shownConfirm()?.title).toBe('B?')
    settleConfirm(true)
    expect(await Promise.all([a, b])).toEqual([false, true])
  })
})

const submitted = vi.hoisted(() => [] as FormData[])
vi.mock('react-router', () => ({
  useSubmit: () => (formData: FormData) => {
    submitted.push(formData)
    return Promise.resolve()
  },
}))

describe('useConfirmedSubmit', () => {
  /** A form as the browser's FormData reads it (Node's has no form elements). */
  class FormDataOfForm extends FormData {
    constructor(form?: { fields: Record<string, string> }) {
      super()
      for (const [name, value] of Object.entries(form?.fields ?? {})) this.set(name, value)
    }
  }
  beforeAll(() => {
    vi.stubGlobal('window', {})
    vi.stubGlobal('FormData', FormDataOfForm)
  })
  afterAll(() => vi.unstubAllGlobals())

  const submitEvent = (fields: Record<string, string>) => {
    const event = {
      defaultPrevented: false,
      preventDefault: () => {
        event.defaultPrevented = true
      },
      currentTarget: { fields },
    }
    return event as unknown as FormEvent<HTMLFormElement>
  }

  it('asks a question made from what the form is about to send, then sends it confirmed', async () => {
    // The hook's only hook is useSubmit (mocked above), so it runs outside a component here.
    const onSubmit = useConfirmedSubmit((formData) => ({
      title: `Refund ₹${String(formData.get('amount'))}?`,
    }))
    const sending = onSubmit(submitEvent({ intent: 'gateway-refund', amount: '249.00' }))
    await vi.waitFor(() => expect(shownConfirm()?.title).toBe('Refund ₹249.00?'))
    settleConfirm(true)
    await sending
    expect(Object.fromEntries(submitted.at(-1)!)).toEqual({
      intent: 'gateway-refund',
      amount: '249.00',
      confirmed: 'yes',
    })
  })

  it('sends nothing when the question is declined', async () => {
    const before = submitted.length
    const onSubmit = useConfirmedSubmit({ title: 'Resend?' })
    const sending = onSubmit(submitEvent({ intent: 'resend' }))
    await vi.waitFor(() => expect(shownConfirm()?.title).toBe('Resend?'))
    settleConfirm(false)
    await sending
    expect(submitted.length).toBe(before)
  })
})
