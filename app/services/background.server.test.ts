import { describe, expect, it } from 'vitest'
import type { DB } from '~/lib/db.server'
import { MAIL_JOB_TYPES } from '~/lib/mail-jobs'
import { JOB_LANES, jobHandlers } from './background.server'
import { PRODUCT_IMAGE_SWEEP_JOB } from './product-image-sweep.server'

describe('background job lanes', () => {
  // Handlers are only built here, never run: no database is needed.
  const types = Object.keys(jobHandlers({} as DB))

  it('runs every mail job type in one lane apart from every other job', () => {
    const mailLane = JOB_LANES.find((lane) => lane.includes('mail.send'))
    expect(mailLane).toBeDefined()
    expect([...mailLane!].sort()).toEqual([...MAIL_JOB_TYPES].sort())
    for (const type of MAIL_JOB_TYPES) expect(types).toContain(type)
    const others = types.filter((type) => !mailLane!.includes(type))
    // Payment reconciliation and refunds are among the jobs the mails can no longer hold back.
    expect(others.some((type) => type.startsWith('payment'))).toBe(true)
    expect(others.some((type) => type.includes('refund'))).toBe(true)
  })

  it('handles the hourly sweep of abandoned product image uploads', () => {
    expect(types).toContain(PRODUCT_IMAGE_SWEEP_JOB)
  })

  it('names only job types the app handles', () => {
    for (const lane of JOB_LANES) for (const type of lane) expect(types).toContain(type)
  })
})
