import { type RouteConfig, index, route } from '@react-router/dev/routes'

/** Every URL of the app, in one place. */
export default [
  index('routes/shop/home.tsx'),
  // Storefront
  route('product/:slugOrId', 'routes/shop/product.tsx'),
  route('theme', 'routes/shop/theme.ts'),
  route('images/*', 'routes/shop/image.ts'),
  route('sitemap.xml', 'routes/shop/sitemap.ts'),
  route('robots.txt', 'routes/shop/robots.ts'),
  // A signed-in visitor's "helpful" on a review (the product page's plain form).
  route('reviews/:reviewId/helpful', 'routes/shop/review-helpful.tsx'),
  // Accounts
  route('login', 'routes/auth/login.tsx'),
  route('signup', 'routes/auth/signup.tsx'),
  route('logout', 'routes/auth/logout.tsx'),
  route('forgot-password', 'routes/auth/forgot-password.tsx'),
  route('reset-password', 'routes/auth/reset-password.tsx'),
  route('verify-email', 'routes/auth/verify-email.tsx'),
  route('auth/google', 'routes/auth/google.tsx'),
  route('api/auth/*', 'routes/auth/api-auth.ts'),
  route('dashboard', 'routes/account/layout.tsx', [
    index('routes/account/dashboard.tsx'),
    route('orders', 'routes/account/orders.tsx'), // My Orders
    route('settings', 'routes/account/settings.tsx'),
    route('wishlist', 'routes/account/wishlist.tsx'),
  ]),
  // Every wishlist change (the hearts, the wishlist page's buttons), signed in or not.
  route('wishlist', 'routes/account/wishlist-action.tsx'),
  // The one-click unsubscribe link of reminders and offers, guests included (docs/notifications.md).
  route('unsubscribe', 'routes/shop/unsubscribe.tsx'),
  // Admin area: every route here must be in tests/e2e/authorization.spec.ts's table.
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/index.tsx'),
    route('dashboard', 'routes/admin/dashboard.tsx'),
    // Catalogue
    route('products', 'routes/admin/products/list.tsx'),
    route('products/add', 'routes/admin/products/add.tsx'),
    route('products/edit', 'routes/admin/products/edit-missing-id.tsx'),
    route('products/edit/:id', 'routes/admin/products/edit.tsx'),
    route('products/:id/stock', 'routes/admin/products/stock.tsx'), // Stock items
    route('reviews', 'routes/admin/reviews.tsx'), // Buyers' reviews: hide and show
    // Checkout and payments
    route('gateways', 'routes/admin/gateways.tsx'),
    route('payment-links', 'routes/admin/payment-links.tsx'),
    // Orders and after-sales
    route('orders', 'routes/admin/orders/list.tsx'),
    route('orders/export', 'routes/admin/orders/export.ts'),
    route('orders/:orderId', 'routes/admin/orders/detail.tsx'),
    route('transactions', 'routes/admin/transactions/list.tsx'),
    route('transactions/export', 'routes/admin/transactions/export.ts'),
    route('transactions/gst-register', 'routes/admin/transactions/gst-register.ts'),
    // People and the record of changes
    route('users', 'routes/admin/users/list.tsx'),
    route('users/:userId', 'routes/admin/users/detail.tsx'),
    route('audit', 'routes/admin/audit.tsx'),
    // Shop settings
    route('settings', 'routes/admin/settings.tsx'),
    // Anything else under /admin: a not-found page inside the admin shell.
    route('*', 'routes/admin/not-found.tsx'),
  ]),
  // Product image uploads for the admin product form; guarded like the product pages.
  route('admin/api/uploads', 'routes/admin/api/uploads.ts'),
  // Checkout and payments
  route('checkout/:slug', 'routes/checkout/checkout.tsx'),
  route('payment/callback', 'routes/payment/callback.tsx'),
  route('payment/pay', 'routes/checkout/pay.tsx'),
  route('api/payments/paytm/callback', 'routes/api/paytm-callback.ts'),
  route('api/payments/razorpay/callback', 'routes/api/razorpay-callback.ts'),
  route('api/payments/razorpay/webhook', 'routes/api/razorpay-webhook.ts'),
  route('api/payments/phonepe/return', 'routes/api/phonepe-return.ts'),
  route('api/payments/phonepe/webhook', 'routes/api/phonepe-webhook.ts'),
  route('api/paytm/generate-checksum', 'routes/api/paytm-generate-checksum.ts'),
  route('api/paytm/verify-payment', 'routes/api/paytm-verify-payment.ts'),
  // Orders: the buyer's order page, its secret link, its invoice and credit notes
  route('orders/:orderId', 'routes/orders/order.tsx'),
  route('orders/:orderId/invoice.pdf', 'routes/orders/invoice.ts'),
  route('orders/:orderId/credit-notes/:creditNoteId', 'routes/orders/credit-note.ts'),
  route('orders/:orderId/:token', 'routes/orders/token.tsx'),
] satisfies RouteConfig
