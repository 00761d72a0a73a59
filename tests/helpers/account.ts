import type { Page } from '@playwright/test'

/** The customer's account pages, in the order the account menus and sidebar list them. */
export const ACCOUNT_PAGES = ['Dashboard', 'My Orders', 'Wishlist', 'Settings']

/** Fills and sends the /login page's form (with or without JavaScript); the caller checks where it lands. */
export async function submitLogIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}
