import FlaskConical from 'lucide-react/icons/flask-conical'
import { Link } from 'react-router'

/**
 * Shown to admins while payments go through the built-in simulator: a simulated payment is
 * delivered only from test items, so real stock waits for a real gateway (docs/delivery.md).
 */
export function TestModeStockNotice() {
  return (
    <div
      role="note"
      aria-label="Test mode"
      className="flex items-start gap-2 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>
        <span className="font-semibold">
          Test mode: real stock is not sold while no real payment gateway is configured.
        </span>{' '}
        Payments go through the built-in Paytm simulator and get only test items. To sell real
        stock,{' '}
        <Link to="/admin/gateways" className="font-semibold underline">
          configure Paytm in Payment Gateways
        </Link>{' '}
        (or set PAYTM_MID and PAYTM_MERCHANT_KEY in the environment).
      </p>
    </div>
  )
}
