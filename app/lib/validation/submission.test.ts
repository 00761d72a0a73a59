import { describe, expect, it } from 'vitest'
import { checkoutSchema } from './checkout'
import { paymentLinkSchema } from './payment-link'
import { signupSchema } from './auth'
import { editUserSchema } from './user-admin'
import { notificationSettingsSchema, securitySettingsSchema, SETTINGS_SCHEMAS } from './settings'
import { constraintsOf } from './submission'

describe('constraints read from a form schema', () => {
  it('gives inputs the lengths the schema allows, through preprocessing and refinements', () => {
    expect(constraintsOf(signupSchema)).toMatchObject({
      name: { required: true, maxLength: 100 },
      email: { required: true, maxLength: 254 },
      password: { required: true, minLength: 6, maxLength: 128 },
      confirmPassword: { required: false },
    })
  })

  it('marks a field that accepts a blank value as not required', () => {
    expect(constraintsOf(paymentLinkSchema).amount).toEqual({ required: false })
    expect(constraintsOf(paymentLinkSchema).productId).toEqual({ required: true })
    expect(constraintsOf(checkoutSchema).phone).toEqual({ required: true })
  })

  it('never marks a checkbox required: unticked is an answer, and a required one must be ticked', () => {
    // Settings' switches: Maintenance mode (System tab), registration, the notification ones.
    expect(constraintsOf(SETTINGS_SCHEMAS.system).maintenanceMode).toEqual({ required: false })
    expect(constraintsOf(securitySettingsSchema).enableRegistration).toEqual({ required: false })
    const notifications = constraintsOf(notificationSettingsSchema)
    for (const name of ['enableNotifications', 'deliveryMailIncludesSecret', 'expiryReminders'])
      expect(notifications[name]).toEqual({ required: false })
    // A user's permissions are read the same way.
    expect(constraintsOf(editUserSchema).canManageUsers).toEqual({ required: false })
  })
})
