import { getFormProps, getInputProps } from '@conform-to/react'
import Ban from 'lucide-react/icons/ban'
import LinkIcon from 'lucide-react/icons/link'
import Mail from 'lucide-react/icons/mail'
import MessageCircle from 'lucide-react/icons/message-circle'
import { useEffect, useRef, useState, type RefObject } from 'react'
import {
  data,
  Form,
  href,
  redirect,
  useNavigation,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import { AdminList, ListCard } from '~/components/admin/admin-list'
import { Badge, type BadgeTone } from '~/components/admin/badge'
import {
  optionsOf,
  SearchField,
  SelectField as FilterSelect,
} from '~/components/admin/list-filters'
import { accountPageMeta } from '~/components/auth/messages'
import { ORDER_MESSAGES, OrderError } from '~/data/order.server'
import {
  getPaymentLink,
  listPaymentLinks,
  PAYMENT_LINK_MESSAGES,
  type CancelPaymentLinkResult,
  type PaymentLink,
} from '~/data/payment-link.server'
import { getProductById, listProductChoices } from '~/data/product.server'
import { getSiteSettings, isShopGstin } from '~/data/settings.server'
import { shopDateTime } from '~/lib/date-format'
import { services } from '~/lib/app-context.server'
import { oneTimeNote } from '~/lib/flash.server'
import { newId } from '~/lib/id.server'
import { searchParam } from '~/lib/list-search'
import { formatRupees, parseRupeesToPaise } from '~/lib/money'
import { pageParam, pageView } from '~/lib/paginate'
import { requirePermission } from '~/services/permissions.server'
import { sellableNow } from '~/services/payment/offered-gateways.server'
import {
  linkFormKeyAfterLoad,
  PAYMENT_LINK_KEY_MESSAGE,
  PAYMENT_LINK_KEY_PATTERN,
  PAYMENT_LINK_MIN_PAISE,
  paymentLinkSchema,
  productPriceTooLowMessage,
} from '~/lib/validation/payment-link'
import { customerWhatsappLink, paymentLinkMessage } from '~/lib/whatsapp'
import { parseSubmission } from '~/lib/validation/submission'
import type { Route } from './+types/payment-links'
import {
  cancelPaymentLinkAudited,
  createPaymentLinkAudited,
  emailPaymentLinkAudited,
  PaymentLinkMailLimitError,
  type EmailPaymentLinkResult,
} from '~/services/payment-link-admin.server'
import { clientIp, RATE_LIMIT_POLICIES } from '~/lib/rate-limit.server'
import { FormAlert, FormErrors, SelectField, TextField, useAppForm } from '~/components/forms'
import { PageHeader } from '~/components/admin/page-header'
import { readFormData } from '~/lib/form-data.server'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Checkbox } from '~/components/ui/input'
import { listQuery } from './list-query'
import { useConfirmedSubmit } from '~/components/ui/confirm'
import { ConfirmPanel } from '~/components/ui/confirm-panel'

const PAYMENT_LINK_FORM = {
  ownGstin: "This is the shop's own GSTIN: enter the buyer's business GSTIN",
} as const

const PAYMENT_LINKS_PATH = href('/admin/payment-links')

/**
 * What Create leaves for the page it redirects to, once: the link it made (or, for the same
 * form sent again, the link that form made before) and whether it was e-mailed. The success
 * panel shows the link's URL from it. A one-time note as the other admin pages' messages are
 * (app/lib/flash.server.ts; works without JavaScript), which carry a message only.
 */
interface CreatedNote {
  id: string
  emailed: boolean
  repeated: boolean
}

function isCreatedNote(value: unknown): value is CreatedNote {
  const note = value as CreatedNote | null
  return (
    typeof note === 'object' &&
    note !== null &&
    typeof note.id === 'string' &&
    typeof note.emailed === 'boolean' &&
    typeof note.repeated === 'boolean'
  )
}

/** The note Create left, if any, read once (app/lib/flash.server.ts). */
const createdNote = oneTimeNote('kb_payment_link_created', isCreatedNote)

/**
 * The list's filters live in the URL (?q=&status=&page=), as on the other admin lists: a
 * filtered page can be bookmarked, and Cancel and Send by e-mail post to it and come back to it.
 * Anything else in the URL is ignored.
 */
const LINK_STATUSES = ['active', 'paid', 'cancelled'] as const satisfies ReadonlyArray<
  PaymentLink['status']
>
type LinkStatus = (typeof LINK_STATUSES)[number]

const STATUS_LABELS: Record<LinkStatus, string> = {
  active: 'Active',
  paid: 'Paid',
  cancelled: 'Cancelled',
}

const STATUS_TONES: Record<LinkStatus, BadgeTone> = {
  active: 'info',
  paid: 'success',
  cancelled: 'muted',
}

interface LinkFilter {
  search: string
  status: LinkStatus | null
}

function linkFilterFromUrl(url: URL): LinkFilter {
  const status = url.searchParams.get('status')
  return {
    search: searchParam(url),
    status: (LINK_STATUSES as readonly string[]).includes(status ?? '')
      ? (status as LinkStatus)
      : null,
  }
}

/** The query string for a filter (and page); empty values are left out. */
function linkFilterQuery(filter: LinkFilter, page = 1): string {
  return listQuery({ q: filter.search, status: filter.status }, page)
}

/** What Cancel says (a paid link: PAYMENT_LINK_MESSAGES.paid, as its own page says it). */
const CANCEL_LINK_MESSAGES = {
  cancelled: 'Payment link cancelled.',
  alreadyCancelled: 'This payment link is already cancelled.',
  missing: 'Payment link not found.',
  title: 'Cancel payment link?',
} as const

/** What Send by e-mail says when it sends nothing. */
const EMAIL_LINK_MESSAGES = {
  paid: 'This payment link has already been paid, so it was not e-mailed.',
  cancelled: 'This payment link is cancelled, so it was not e-mailed.',
  missing: 'Payment link not found.',
} as const

/**
 * Why a payment-link mail was refused: its customer's address had all the payment-link mails it
 * may get this hour, over every link (`paymentLinkMailRecipient`, docs/payments.md).
 */
function recipientLimitReason(email: string, retryAfterSeconds: number): string {
  const { limit } = RATE_LIMIT_POLICIES.paymentLinkMailRecipient
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  return `${email} has already been e-mailed ${limit} payment links this hour, the most one address may get. E-mail it again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

/** "Neha Kapoor <neha@example.test>": whom a link was made out to, in the list and in Cancel. */
function customerLabel(link: { customerName: string; customerEmail: string }): string {
  return `${link.customerName} <${link.customerEmail}>`
}

/** What Cancel asks first, in the dialog or (without JavaScript) on the page. */
function cancelQuestion(link: { orderId: string; amount: string; customer: string }): string {
  return `The link for ${link.amount} (order ${link.orderId}) sent to ${link.customer} stops taking payments. A payment already under way at the gateway still goes through.`
}

/** The answer to Cancel: the question first (without JavaScript), then what happened. */
type CancelAnswer =
  | { step: 'confirm'; id: string; question: string }
  | { step: 'done'; tone: 'success' | 'error'; message: string }

function cancelOutcome(result: CancelPaymentLinkResult): { status: number; answer: CancelAnswer } {
  if (result.status === 'cancelled')
    return {
      status: 200,
      answer: { step: 'done', tone: 'success', message: CANCEL_LINK_MESSAGES.cancelled },
    }
  if (result.status === 'missing')
    return {
      status: 404,
      answer: { step: 'done', tone: 'error', message: CANCEL_LINK_MESSAGES.missing },
    }
  return {
    status: 409,
    answer: {
      step: 'done',
      tone: 'error',
      message:
        result.current === 'paid'
          ? PAYMENT_LINK_MESSAGES.paid
          : CANCEL_LINK_MESSAGES.alreadyCancelled,
    },
  }
}

/** The answer to Send by e-mail. */
interface EmailAnswer {
  tone: 'success' | 'error'
  message: string
}

function emailOutcome(result: EmailPaymentLinkResult): {
  status: number
  answer: EmailAnswer
  headers?: Record<string, string>
} {
  switch (result.status) {
    case 'queued':
      return {
        status: 200,
        answer: {
          tone: 'success',
          message: `The payment link for order ${result.link.orderId} is on its way to ${customerLabel(result.link)}.`,
        },
      }
    case 'missing':
      return { status: 404, answer: { tone: 'error', message: EMAIL_LINK_MESSAGES.missing } }
    case 'not-active':
      return {
        status: 409,
        answer: {
          tone: 'error',
          message:
            result.current === 'paid' ? EMAIL_LINK_MESSAGES.paid : EMAIL_LINK_MESSAGES.cancelled,
        },
      }
    case 'too-soon': {
      const seconds = result.retryAfterSeconds
      return {
        status: 429,
        headers: { 'Retry-After': String(seconds) },
        answer: {
          tone: 'error',
          message: `This payment link was e-mailed less than a minute ago. Please wait ${seconds} second${seconds === 1 ? '' : 's'} before sending it again.`,
        },
      }
    }
    case 'recipient-limit':
      return {
        status: 429,
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
        answer: {
          tone: 'error',
          message: `${recipientLimitReason(result.email, result.retryAfterSeconds)} Nothing was sent.`,
        },
      }
  }
}

/** Cancel without JavaScript, before it is confirmed: the question, or why there is none. */
function askToCancel(link: PaymentLink | null): { status: number; answer: CancelAnswer } {
  if (!link) return cancelOutcome({ status: 'missing' })
  if (link.status !== 'active') return cancelOutcome({ status: 'not-active', current: link.status })
  const question = cancelQuestion({
    orderId: link.orderId,
    amount: formatRupees(link.amount),
    customer: customerLabel(link),
  })
  return { status: 200, answer: { step: 'confirm', id: link.id, question } }
}

/**
 * /admin/payment-links: an admin with Can Manage Orders creates a payment link for a product
 * and a customer (status active on creation) and sends its URL;
 * the customer pays on /payment/pay. The amount defaults to the product's price. The link is
 * e-mailed to the customer when the form's box says so (ticked to begin with), and an active
 * link can be e-mailed again from its row (`intent=email`, at most once a minute per link, and
 * a few times an hour per customer address over every link, the mail on creation included). An
 * active link can be cancelled (`intent=cancel`, confirmed first), after which it takes no
 * payment. The links are listed a page at a time, newest first, with a search and a status
 * filter, so an old active link can still be found and cancelled (docs/payments.md, "Payment
 * links"). Create answers with a redirect, and its form's one-time key makes one link however
 * often the form is sent (docs/admin.md, "Payment links").
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db, env } = services()
  const url = new URL(request.url)
  const filter = linkFilterFromUrl(url)
  const [result, products, settings, { note, headers }] = await Promise.all([
    listPaymentLinks(db, env.PUBLIC_URL, { ...filter, page: pageParam(url) }),
    // Only what the form's product list and sellableNow read.
    listProductChoices(db),
    getSiteSettings(db),
    createdNote.read(request),
  ])
  const date = shopDateTime(settings.timezone)
  // Only what checkout can sell now: a link to a product out of stock could not be paid.
  const sellable = await sellableNow(db, env, products)
  const created = note ? await getPaymentLink(db, note.id, env.PUBLIC_URL) : null
  return data(
    {
      // The create form's one-time key: a new one each time the page is shown, so each form made
      // makes one link however often it is sent (docs/admin.md, "Payment links"). With JavaScript
      // the form keeps the key it was shown with until the page shows its link (useLinkFormKey).
      linkKey: newId(),
      created:
        note && created
          ? {
              id: created.id,
              orderId: created.orderId,
              paymentUrl: created.paymentUrl,
              emailedTo: note.emailed ? created.customerEmail : null,
              repeated: note.repeated,
            }
          : null,
      filter,
      page: pageView(result, result.total),
      links: result.items.map((link) => {
        const amount = formatRupees(link.amount)
        return {
          id: link.id,
          orderId: link.orderId,
          productName: link.productName,
          amount,
          customer: customerLabel(link),
          business: link.buyerGstin ? `${link.buyerBusinessName} (GSTIN ${link.buyerGstin})` : null,
          status: link.status,
          createdAt: link.createdAt,
          created: date.format(new Date(link.createdAt)),
          paymentUrl: link.paymentUrl,
          // A chat with the link to send, while it can be paid and the customer's phone is an
          // Indian mobile number.
          whatsappUrl:
            link.status === 'active'
              ? customerWhatsappLink(
                  link.customerPhone,
                  paymentLinkMessage(settings.siteName, { ...link, amount }),
                )
              : null,
        }
      }),
      products: products
        .filter((p) => sellable.has(p.id))
        .map((p) => ({ id: p.id, title: p.title, price: formatRupees(p.price) })),
    },
    { headers },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requirePermission(request, 'canManageOrders')
  const { db, env } = services()
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'cancel') {
    const id = String(form.get('id') ?? '')
    // Without JavaScript there was no dialog yet: ask on the page first.
    if (form.get('confirmed') !== 'yes') {
      const link = id ? await getPaymentLink(db, id, env.PUBLIC_URL) : null
      const { status, answer } = askToCancel(link)
      return data({ result: null, cancel: answer, email: null }, { status })
    }
    const result = await cancelPaymentLinkAudited(db, id, {
      actor: { id: user.id, name: user.name, email: user.email },
      ip: clientIp(context),
    })
    const { status, answer } = cancelOutcome(result)
    return data({ result: null, cancel: answer, email: null }, { status })
  }
  if (intent === 'email') {
    const result = await emailPaymentLinkAudited(
      db,
      String(form.get('id') ?? ''),
      { actor: { id: user.id, name: user.name, email: user.email }, ip: clientIp(context) },
      env.PUBLIC_URL,
    )
    const { status, answer, headers } = emailOutcome(result)
    return data({ result: null, cancel: null, email: answer }, { status, headers })
  }
  // The create form says intent=create; a post without an intent is a create too.
  if (intent !== null && intent !== 'create') throw data('Unknown action', { status: 400 })
  const submission = parseSubmission(form, paymentLinkSchema)
  /** A create refused: the form as typed, with its messages. */
  const refuse = (
    options: Parameters<typeof submission.reply>[0],
    status: 400 | 409 | 429 = 400,
    headers?: Record<string, string>,
  ) => data({ result: submission.reply(options), cancel: null, email: null }, { status, headers })
  if (submission.status !== 'success') return refuse(undefined)
  const input = submission.value
  const key = form.get('key')
  if (typeof key !== 'string' || !PAYMENT_LINK_KEY_PATTERN.test(key))
    return refuse({ formErrors: [PAYMENT_LINK_KEY_MESSAGE] })
  // The same form sent again: it made its link already, whatever has changed since (stock, say).
  const made = await getPaymentLink(db, key, env.PUBLIC_URL)
  if (made) return redirectCreated(request, { id: made.id, emailed: false, repeated: true })
  if (await isShopGstin(db, input.gstin))
    return refuse({ fieldErrors: { gstin: [PAYMENT_LINK_FORM.ownGstin] } })
  const product = await getProductById(db, input.productId)
  if (product && !(await sellableNow(db, env, [product])).has(product.id)) {
    return refuse({ fieldErrors: { productId: [ORDER_MESSAGES.outOfStock] } }, 409)
  }
  // A blank amount is the product's price, which may be less than a link may ask for.
  if (product && !input.amount && product.price < PAYMENT_LINK_MIN_PAISE) {
    return refuse({
      fieldErrors: { amount: [productPriceTooLowMessage(product.price)] },
    })
  }
  let result: Awaited<ReturnType<typeof createPaymentLinkAudited>>
  try {
    result = await createPaymentLinkAudited(
      db,
      {
        id: key,
        productId: input.productId,
        amount: input.amount ? (parseRupeesToPaise(input.amount) ?? undefined) : undefined,
        customer: { name: input.name, email: input.email, phone: input.phone },
        business: input.gstin
          ? { businessName: input.businessName, gstin: input.gstin, address: input.businessAddress }
          : null,
        emailToCustomer: input.emailLink,
      },
      { actor: { id: user.id, name: user.name, email: user.email }, ip: clientIp(context) },
      env.PUBLIC_URL,
    )
  } catch (error) {
    if (error instanceof OrderError) {
      return refuse({ fieldErrors: { productId: [error.message] } })
    }
    if (error instanceof PaymentLinkMailLimitError) {
      const reason = recipientLimitReason(error.email, error.retryAfterSeconds)
      return refuse(
        {
          formErrors: [
            `${reason} Nothing was created: untick "E-mail the link to the customer" to create the link without e-mailing it.`,
          ],
        },
        429,
        { 'Retry-After': String(error.retryAfterSeconds) },
      )
    }
    throw error
  }
  return redirectCreated(request, {
    id: result.link.id,
    emailed: !result.repeated && input.emailLink,
    repeated: result.repeated,
  })
}

/**
 * Create's answer, Post/Redirect/Get: the page on screen is then a GET, so a reload or
 * Back/Forward sends nothing again. It goes to the first page of the list the form was sent from
 * (its filters kept; the new link is the newest), which shows the link's URL once.
 */
async function redirectCreated(request: Request, note: CreatedNote): Promise<never> {
  const filter = linkFilterFromUrl(new URL(request.url))
  throw redirect(`${PAYMENT_LINKS_PATH}${linkFilterQuery(filter)}`, {
    status: 303,
    headers: await createdNote.headers(note),
  })
}

/**
 * A refused cancel or e-mail (409: paid or cancelled meanwhile, by the customer or another
 * admin) reloads the list too, so its row shows the link as it is now; React Router skips that
 * after a 4xx.
 */
export function shouldRevalidate({
  formData,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const intent = formData?.get('intent')
  if (intent === 'cancel' || intent === 'email') return true
  return defaultShouldRevalidate
}

type LinkRow = Route.ComponentProps['loaderData']['links'][number]

/**
 * Cancel on an active link's row: asks in the dialog first (on the page without JavaScript).
 * It posts to the list as it is on screen (`here`: its filters and page), so the page the
 * answer shows, and the list reloaded under it, are the ones the admin was looking at.
 */
function CancelLinkForm({ link, here }: { link: LinkRow; here: string }) {
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'cancel' &&
    navigation.formData.get('id') === link.id
  const action = `${PAYMENT_LINKS_PATH}${here}`
  const onSubmit = useConfirmedSubmit(
    {
      title: CANCEL_LINK_MESSAGES.title,
      description: cancelQuestion(link),
      confirmLabel: 'Cancel link',
      cancelLabel: 'Keep link',
      destructive: true,
    },
    { action },
  )
  return (
    <Form method="post" action={action} onSubmit={onSubmit} className="mt-2">
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="id" value={link.id} />
      <Button
        type="submit"
        variant="dangerOutline"
        size="xs"
        pending={busy}
        pendingLabel="Cancelling…"
      >
        <Ban aria-hidden="true" className="size-4" />
        <span>
          Cancel link<span className="sr-only"> for {link.orderId}</span>
        </span>
      </Button>
    </Form>
  )
}

/**
 * Send by e-mail on an active link's row: mails the link to its customer again, without asking
 * first (one mail more is harmless, and a second within a minute is refused). Like Cancel it
 * posts to the list as it is on screen, and works without JavaScript.
 */
function EmailLinkForm({ link, here }: { link: LinkRow; here: string }) {
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'email' &&
    navigation.formData.get('id') === link.id
  return (
    <Form method="post" action={`${PAYMENT_LINKS_PATH}${here}`} className="mt-2">
      <input type="hidden" name="intent" value="email" />
      <input type="hidden" name="id" value={link.id} />
      <Button type="submit" variant="outline" size="xs" pending={busy} pendingLabel="Sending…">
        <Mail aria-hidden="true" className="size-4" />
        <span>
          Send by e-mail<span className="sr-only"> the payment link for {link.orderId}</span>
        </span>
      </Button>
    </Form>
  )
}

function StatusBadge({ status }: { status: LinkStatus }) {
  // The stored word, capitalised on screen only: the same word as the status filter's value.
  return (
    <Badge tone={STATUS_TONES[status]}>
      <span className="capitalize">{status}</span>
    </Badge>
  )
}

/** Whom the link was made out to, and the business its invoice names. */
function LinkCustomer({ link }: { link: LinkRow }) {
  return (
    <>
      <span className="break-words">{link.customer}</span>
      {link.business ? (
        <span className="block text-xs text-slate-600 dark:text-slate-400">
          Invoice to {link.business}
        </span>
      ) : null}
    </>
  )
}

/** Open the link, send it on WhatsApp or by e-mail, cancel it: what a row offers. */
function LinkActions({ link, here }: { link: LinkRow; here: string }) {
  return (
    <>
      <a
        href={link.paymentUrl}
        className="font-semibold text-brand-700 underline dark:text-brand-300"
      >
        Open<span className="sr-only"> payment link for {link.orderId}</span>
      </a>
      {link.whatsappUrl ? (
        <a
          href={link.whatsappUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-1 flex items-center gap-1 font-semibold text-brand-700 underline dark:text-brand-300"
        >
          <MessageCircle aria-hidden="true" className="size-4 shrink-0" />
          <span>
            <span className="sr-only">Send on </span>WhatsApp
            <span className="sr-only">
              {' '}
              the payment link for {link.orderId} (opens in a new tab)
            </span>
          </span>
        </a>
      ) : null}
      {link.status === 'active' ? (
        <>
          <EmailLinkForm link={link} here={here} />
          <CancelLinkForm link={link} here={here} />
        </>
      ) : null}
    </>
  )
}

/**
 * The create form's one-time key, held by the page. Each load of the page brings a new one, and
 * Cancel and Send by e-mail reload it, but the form keeps the key it was shown with until the
 * page shows the link that key made (linkFormKeyAfterLoad): a Create's redirect, or a reload that
 * read its note after the Create's answer was abandoned for a Cancel pressed meanwhile. Then the
 * form is emptied (with JavaScript the page stays mounted, so its fields would keep what was
 * typed) and takes the key that load brought. Without JavaScript the server's page carries the
 * loader's key (docs/payments.md, "Payment links").
 */
function useLinkFormKey(
  form: RefObject<HTMLFormElement | null>,
  linkKey: string,
  createdId: string | null,
): string {
  const [key, setKey] = useState(linkKey)
  const next = linkFormKeyAfterLoad(key, { linkKey, createdId })
  if (next !== key) setKey(next)
  const emptiedFor = useRef(next)
  useEffect(() => {
    if (emptiedFor.current === next) return
    emptiedFor.current = next
    form.current?.reset()
  }, [form, next])
  return next
}

/** Create's answer, shown once on the page it redirects to: the link's URL, to copy or open. */
function CreatedLink({
  created,
}: {
  created: NonNullable<Route.ComponentProps['loaderData']['created']>
}) {
  const url = (
    <a href={created.paymentUrl} className="font-semibold break-all underline">
      {created.paymentUrl}
    </a>
  )
  return (
    <FormAlert tone="success" className="font-normal">
      {created.repeated ? (
        <>
          This form had already created the payment link for order {created.orderId}: {url} No
          second link was made and nothing more was e-mailed.
        </>
      ) : (
        <>
          Payment link created for order {created.orderId}: {url}
          {created.emailedTo ? ` It is on its way to ${created.emailedTo} by e-mail.` : null}
        </>
      )}
    </FormAlert>
  )
}

export default function AdminPaymentLinks({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, page, links, products, linkKey, created } = loaderData
  const navigation = useNavigation()
  const formRef = useRef<HTMLFormElement>(null)
  const formKey = useLinkFormKey(formRef, linkKey, created?.id ?? null)
  const [form, fields] = useAppForm({
    schema: paymentLinkSchema,
    lastResult: actionData?.result,
    // The link goes to the customer by e-mail unless the admin unticks the box.
    defaultValue: { emailLink: 'on' },
  })
  const cancel = actionData?.cancel ?? null
  const email = actionData?.email ?? null
  const { key: emailLinkKey, ...emailLinkProps } = getInputProps(fields.emailLink, {
    type: 'checkbox',
    ariaAttributes: false,
  })
  const filtered = Boolean(filter.search || filter.status)
  // The list as it is on screen: where Cancel and Send by e-mail post, and where Cancel's
  // question's Keep link goes.
  const here = linkFilterQuery(filter, page.number)
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Payment Links"
        description="Ask a customer to pay for a product with a link they can open on any phone."
      />
      {created ? <CreatedLink created={created} /> : null}
      {email ? (
        <FormAlert tone={email.tone} className="font-normal">
          {email.message}
        </FormAlert>
      ) : null}
      {cancel?.step === 'done' ? (
        <FormAlert tone={cancel.tone} className="font-normal">
          {cancel.message}
        </FormAlert>
      ) : null}
      {cancel?.step === 'confirm' ? (
        // Without JavaScript, Cancel asks here instead of in a dialog.
        <ConfirmPanel
          id="confirm-cancel-title"
          title={CANCEL_LINK_MESSAGES.title}
          action={`${PAYMENT_LINKS_PATH}${here}`}
          fields={{ intent: 'cancel', id: cancel.id }}
          confirmLabel="Cancel link"
          cancelLabel="Keep link"
          cancelTo={`${PAYMENT_LINKS_PATH}${here}`}
        >
          {cancel.question}
        </ConfirmPanel>
      ) : null}
      <Card as="section" aria-labelledby="new-link">
        <h2 id="new-link" className="text-lg font-bold text-slate-950 dark:text-white">
          New payment link
        </h2>
        <Form
          method="post"
          ref={formRef}
          {...getFormProps(form)}
          className="mt-4 grid gap-4 sm:grid-cols-2"
        >
          <input type="hidden" name="intent" value="create" />
          {/* This form's one-time key: sent twice, it still makes one link (loader). */}
          <input type="hidden" name="key" value={formKey} />
          <SelectField label="Product" field={fields.productId} className="sm:col-span-2">
            <option value="">Choose a product</option>
            {products.map((product) => (
              <option key={product.id} value={product.id}>
                {product.title} ({product.price})
              </option>
            ))}
          </SelectField>
          <TextField
            label="Amount in rupees"
            field={fields.amount}
            inputMode="decimal"
            hint="Leave blank for the product's price."
          />
          <TextField label="Customer name" field={fields.name} autoComplete="off" />
          <TextField label="Customer email" field={fields.email} type="email" autoComplete="off" />
          <TextField label="Customer phone" field={fields.phone} type="tel" autoComplete="off" />
          <fieldset className="sm:col-span-2">
            <legend className="text-sm font-semibold text-slate-950 dark:text-white">
              Invoice to a business (optional)
            </legend>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              For a customer registered for GST: the invoice names the business, its GSTIN sets the
              place of supply (IGST to another state). Leave all three blank for a consumer.
            </p>
            <div className="mt-3 grid gap-4 sm:grid-cols-2">
              <TextField label="Legal name" field={fields.businessName} autoComplete="off" />
              <TextField
                label="GSTIN"
                field={fields.gstin}
                autoComplete="off"
                placeholder="27AAPFU0939F1ZV"
              />
              <TextField
                label="Business address"
                field={fields.businessAddress}
                autoComplete="off"
                className="sm:col-span-2"
              />
            </div>
          </fieldset>
          <div className="flex items-start gap-3 sm:col-span-2">
            <Checkbox
              key={emailLinkKey}
              {...emailLinkProps}
              aria-describedby={`${fields.emailLink.id}-hint`}
              className="mt-0.5 size-5 shrink-0"
            />
            <div className="min-w-0">
              <label
                htmlFor={fields.emailLink.id}
                className="text-sm font-semibold text-slate-950 dark:text-white"
              >
                E-mail the link to the customer
              </label>
              <p
                id={`${fields.emailLink.id}-hint`}
                className="text-sm text-slate-600 dark:text-slate-300"
              >
                Sent from the shop with a Pay button; not sent if the link is paid or cancelled
                first.
              </p>
            </div>
          </div>
          <div className="space-y-3 sm:col-span-2">
            <FormErrors id={form.errorId} errors={form.errors} />
            <Button type="submit" disabled={navigation.state === 'submitting'}>
              <LinkIcon aria-hidden="true" className="size-4" />
              Create Payment Link
            </Button>
          </div>
        </Form>
      </Card>
      <section aria-labelledby="links-heading" className="space-y-3">
        <h2 id="links-heading" className="text-lg font-bold text-slate-950 dark:text-white">
          All links
        </h2>
        <AdminList
          label="Payment links"
          path={PAYMENT_LINKS_PATH}
          page={page}
          noun={{ one: 'link', many: 'links' }}
          pageHref={(n) => `${PAYMENT_LINKS_PATH}${linkFilterQuery(filter, n)}`}
          filtered={filtered}
          fields={
            <>
              <SearchField
                id="link-search"
                // Without the word "product": the create form's Product field is found by its label.
                label="Search payment links"
                value={filter.search}
                placeholder="ORD_…, name, e-mail or product"
              />
              <FilterSelect
                id="link-status"
                label="Status"
                name="status"
                value={filter.status ?? ''}
                allLabel="All statuses"
                options={optionsOf(LINK_STATUSES, STATUS_LABELS)}
              />
            </>
          }
          empty={{
            icon: LinkIcon,
            title: filtered ? 'No Payment Links Found' : 'No Payment Links Yet',
            filtered: 'No payment link matches these filters. Try other words or all statuses.',
            unfiltered: 'No payment links yet. A link you create above appears here.',
          }}
          rows={links}
          rowKey={(link) => link.id}
          columns={[
            {
              label: 'Order ID',
              cell: (link) => <span className="font-mono text-xs">{link.orderId}</span>,
            },
            { label: 'Product', look: 'text', cell: (link) => link.productName },
            { label: 'Amount', align: 'right', look: 'amount', cell: (link) => link.amount },
            { label: 'Customer', look: 'text', cell: (link) => <LinkCustomer link={link} /> },
            { label: 'Status', cell: (link) => <StatusBadge status={link.status} /> },
            {
              label: 'Created',
              look: 'line',
              cell: (link) => <time dateTime={link.createdAt}>{link.created}</time>,
            },
            {
              label: 'Link',
              cell: (link) => (
                <div className="whitespace-nowrap">
                  <LinkActions link={link} here={here} />
                </div>
              ),
            },
          ]}
          card={(link) => (
            <ListCard
              title={
                <p className="font-mono text-xs font-semibold text-slate-950 dark:text-white">
                  {link.orderId}
                </p>
              }
              detail={
                <p className="text-sm text-slate-700 dark:text-slate-300">{link.productName}</p>
              }
              amount={link.amount}
            >
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
                <LinkCustomer link={link} />
              </p>
              <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
                <StatusBadge status={link.status} />
                <time dateTime={link.createdAt}>{link.created}</time>
              </div>
              <div className="mt-2 text-sm">
                <LinkActions link={link} here={here} />
              </div>
            </ListCard>
          )}
        />
      </section>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Payment Links')
}
