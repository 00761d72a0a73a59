import Mail from 'lucide-react/icons/mail'
import MessageCircle from 'lucide-react/icons/message-circle'
import Phone from 'lucide-react/icons/phone'
import { href, Link } from 'react-router'
import { StaticMarkup } from '~/components/ui/static-markup'
import { BrandMark } from './brand-mark'
import { SectionLink, useSectionLinksKey } from './section-link'
import { supportMessage, whatsappLink } from '~/lib/whatsapp'

/** The settings every public page shows (from the site settings; see the root loader). */
export interface PublicSiteSettings {
  siteName: string
  siteDescription: string
  contactEmail: string
  phoneNumber: string
  whatsappNumber: string
  whatsappCommunityUrl: string
}

const footerLink = 'text-slate-300 hover:text-white hover:underline underline-offset-4'

export function SiteFooter({ site }: { site: PublicSiteSettings }) {
  const whatsapp = whatsappLink(site.whatsappNumber, supportMessage(site.siteName))
  const year = new Date().getFullYear()
  return (
    <StaticMarkup
      as="footer"
      name="site-footer"
      deps={[site, year, useSectionLinksKey()]}
      className="border-t border-slate-800 bg-slate-950 text-slate-300 dark:bg-slate-900"
    >
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2">
          <p className="flex items-center gap-2 text-lg font-extrabold text-white">
            <BrandMark />
            {site.siteName}
          </p>
          <p className="mt-3 max-w-md text-sm leading-relaxed text-slate-400">
            {site.siteDescription}
          </p>
          <p className="mt-4 text-sm text-slate-400">Secure payments by UPI, cards and wallets.</p>
        </div>
        <nav aria-label="Footer">
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Shop</h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            <li>
              <SectionLink section="featured" className={footerLink}>
                Featured services
              </SectionLink>
            </li>
            <li>
              <SectionLink section="services" className={footerLink}>
                All services
              </SectionLink>
            </li>
            <li>
              <SectionLink section="process" className={footerLink}>
                How it works
              </SectionLink>
            </li>
            <li>
              <Link to={href('/dashboard')} className={footerLink}>
                My account
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Contact</h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            {site.contactEmail ? (
              <li>
                <a
                  href={`mailto:${site.contactEmail}`}
                  className={`${footerLink} inline-flex items-center gap-2`}
                >
                  <Mail aria-hidden="true" className="size-4" />
                  {site.contactEmail}
                </a>
              </li>
            ) : null}
            {site.phoneNumber ? (
              <li>
                <a
                  href={`tel:${site.phoneNumber.replace(/[^\d+]/g, '')}`}
                  className={`${footerLink} inline-flex items-center gap-2`}
                >
                  <Phone aria-hidden="true" className="size-4" />
                  {site.phoneNumber}
                </a>
              </li>
            ) : null}
            {whatsapp ? (
              <li>
                <a
                  href={whatsapp}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={`${footerLink} inline-flex items-center gap-2`}
                >
                  <MessageCircle aria-hidden="true" className="size-4" />
                  WhatsApp support
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ) : null}
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-slate-400">
          © {year} {site.siteName}. All rights reserved. Brand names belong to their owners.
        </p>
      </div>
    </StaticMarkup>
  )
}
