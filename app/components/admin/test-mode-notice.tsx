import FlaskConical from 'lucide-react/icons/flask-conical'
import { href, Link } from 'react-router'
import { PageNote } from './page-note'

/**
 * Shown to admins while payments go through the built-in simulators or a gateway's test
 * environment: a test payment is delivered only from test items, so real stock waits for a live
 * gateway (docs/delivery.md).
 * The link to Payment Gateways is for admins who may open it (`canConfigure`, docs/decisions/0019).
 */
export function TestModeStockNotice({ canConfigure }: { canConfigure: boolean }) {
  return (
    <PageNote tone="amber" icon={FlaskConical} label="Test mode">
      <span className="font-semibold">
        Test mode: real stock is not sold while no live payment gateway is configured.
      </span>{' '}
      Payments go through the built-in simulators or a gateway&apos;s test environment (Paytm
      staging, Razorpay test keys, PhonePe sandbox) and get only test items. To sell real stock,{' '}
      {canConfigure ? (
        <Link to={href('/admin/gateways')} className="font-semibold underline">
          configure a gateway in Payment Gateways
        </Link>
      ) : (
        'an admin with Can Manage Users configures a gateway in Payment Gateways'
      )}{' '}
      with its live keys (or set them in the environment, such as PAYTM_MID and PAYTM_MERCHANT_KEY).
    </PageNote>
  )
}
