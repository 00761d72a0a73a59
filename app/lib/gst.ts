/**
 * GST on a tax invoice (docs/delivery.md, "Invoice"): prices in the shop include GST, so a
 * sale's amount is split into its taxable value and the tax at the shop's rate (Settings).
 *
 * Place of supply: for a consumer, whose address the shop does not keep, it is the supplier's
 * location (IGST Act, section 12(2)(b)), so the sale is intra-state: central tax (CGST) plus the
 * state's (SGST), or the Union Territory's (UTGST) where the seller's state code is a Union
 * Territory without a legislature. For a business registered for GST (its GSTIN on the invoice,
 * docs/delivery.md "Business invoices") it is the business's location (section 12(2)(a)): in
 * another state than the seller's, the sale is inter-state and the whole rate is integrated tax
 * (IGST).
 */

/** GST state codes (the first two characters of a GSTIN) and their states. */
export const GST_STATES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '25': 'Daman and Diu',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '28': 'Andhra Pradesh (before 2014)',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
  '99': 'Centre Jurisdiction',
}

/**
 * Where the GST offline tool's list of states (its CSV imports' "Place Of Supply") spells a state
 * otherwise than GST_STATES, "Lakshdweep" included: its labels are "{code}-{name}".
 */
const GST_TOOL_NAMES: Readonly<Record<string, string>> = {
  '01': 'Jammu & Kashmir',
  '25': 'Daman & Diu',
  '26': 'Dadra & Nagar Haveli & Daman & Diu',
  '31': 'Lakshdweep',
  '35': 'Andaman & Nicobar Islands',
}

const TOOL_MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
]
const indiaNumericDate = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})

/**
 * "05-Nov-2026": a date (India time) as the GST offline tool's CSV imports read it. The month's
 * abbreviations are fixed here: Intl's en-IN writes September "Sept", which the tool refuses.
 */
export function gstToolDate(iso: string): string {
  const parts = indiaNumericDate.formatToParts(new Date(iso))
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((candidate) => candidate.type === type)!.value
  return `${part('day')}-${TOOL_MONTHS[Number(part('month')) - 1]}-${part('year')}`
}

/** "29-Karnataka": a place of supply as the GST offline tool's CSV imports name it. */
export function gstToolState(code: string): string {
  return `${code}-${GST_TOOL_NAMES[code] ?? GST_STATES[code] ?? 'Unknown'}`
}

/** Union Territories without a legislature (and Other Territory): UTGST, not SGST. */
const UTGST_CODES = new Set(['04', '25', '26', '31', '35', '38', '97'])

/** A SAC (services) or HSN code as invoices print it: 4, 6 or 8 digits. */
export const SAC_PATTERN = /^\d{4}(?:\d{2}){0,2}$/

/** The highest GST rate the settings accept, in per cent. */
export const GST_RATE_MAX = 40

/**
 * Whether a seller's GSTIN may start with `code`: a known state code, but not 99 (Centre
 * Jurisdiction: overseas online suppliers, who charge IGST, which this shop's invoices do not).
 */
export function isGstStateCode(code: string): boolean {
  return code !== '99' && Object.hasOwn(GST_STATES, code)
}

export interface GstBreakdown {
  /** Hundredths of a per cent: 1800 is 18 %. */
  rateBasisPoints: number
  /** Paise: the amount paid without the tax. */
  taxableValue: number
  /** Paise of central tax (half the rate); 0 for an inter-state sale. */
  centralTax: number
  /** Paise of state or Union Territory tax (the other half); 0 for an inter-state sale. */
  stateTax: number
  /** 'SGST', or 'UTGST' for a seller in a Union Territory without a legislature. */
  stateTaxName: 'SGST' | 'UTGST'
  /** Paise of integrated tax (the whole rate) for an inter-state sale; 0 otherwise. */
  integratedTax: number
  /** Whether the place of supply is in another state than the seller's (IGST). */
  interState: boolean
  /** "Karnataka (29)": the buyer's state for a business buyer, the seller's otherwise. */
  placeOfSupply: string
}

const stateName = (code: string) => {
  const state = GST_STATES[code]
  return state ? `${state} (${code})` : `State code ${code}`
}

/** "29": the state code of the place of supply, the buyer's for a business buyer, the seller's otherwise. */
export function placeOfSupplyCode(sellerGstin: string, buyerGstin?: string | null): string {
  return (buyerGstin || sellerGstin).slice(0, 2)
}

/** "Karnataka (29)": the buyer's state for a business buyer (`buyerGstin`), the seller's otherwise. */
export function placeOfSupply(sellerGstin: string, buyerGstin?: string | null): string {
  return stateName(placeOfSupplyCode(sellerGstin, buyerGstin))
}

/**
 * Splits an amount that includes GST. Within a state, each of the central and the state tax is
 * half the rate of the taxable value, amount × rate / 2 / (1 + rate) rounded to the paisa, and
 * the taxable value is the rest, so the two taxes are equal and the three always add up to the
 * amount paid. To a business in another state (`buyerGstin`), the integrated tax is the whole
 * rate, amount × rate / (1 + rate) rounded, and the taxable value the rest.
 */
export function gstBreakdown(
  amountPaise: number,
  rateBasisPoints: number,
  sellerGstin: string,
  buyerGstin?: string | null,
): GstBreakdown {
  const code = sellerGstin.slice(0, 2)
  const buyerCode = buyerGstin ? buyerGstin.slice(0, 2) : code
  const interState = buyerCode !== code
  const common = {
    rateBasisPoints,
    stateTaxName: UTGST_CODES.has(code) ? ('UTGST' as const) : ('SGST' as const),
    interState,
    placeOfSupply: placeOfSupply(sellerGstin, buyerGstin),
  }
  if (interState) {
    const integratedTax = Math.round((amountPaise * rateBasisPoints) / (10_000 + rateBasisPoints))
    return {
      ...common,
      taxableValue: amountPaise - integratedTax,
      centralTax: 0,
      stateTax: 0,
      integratedTax,
    }
  }
  // Each half is the same figure (half the rate of the taxable value), and the taxable value
  // the rest of the amount.
  const half = Math.round((amountPaise * rateBasisPoints) / 2 / (10_000 + rateBasisPoints))
  return {
    ...common,
    taxableValue: amountPaise - 2 * half,
    centralTax: half,
    stateTax: half,
    integratedTax: 0,
  }
}

/** The check character of a GSTIN's first 14 characters (the GSTN's mod-36 scheme). */
export function gstinCheckCharacter(first14: string): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
  let sum = 0
  for (let i = 0; i < 14; i++) {
    const product = alphabet.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2)
    sum += Math.floor(product / 36) + (product % 36)
  }
  return alphabet[(36 - (sum % 36)) % 36]!
}

/**
 * A rate in hundredths of a per cent as the invoice prints it: 900 → "9%", 250 → "2.5%", and
 * half of 0.25 % (12.5) → "0.125%".
 */
export function formatGstRate(basisPoints: number): string {
  return `${Number((basisPoints / 100).toFixed(3))}%`
}

/** A rate in per cent (Settings) in hundredths of a per cent: 18 → 1800, 0.25 → 25. */
export function rateBasisPoints(percent: number): number {
  return Math.round(percent * 100)
}

/**
 * "2026-11": a moment's year and month in India. Made once: checkout and every document's year
 * read it, and a formatter is costly to build.
 */
const indiaYearMonthFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
})

/** The year and month (1-12) of a moment in India, which GST periods and years follow. */
export function indiaYearMonth(at: Date): [year: number, month: number] {
  return indiaYearMonthFormat.format(at).split('-').map(Number) as [number, number]
}

/** India's financial year (April to March, India time) of a moment: "2026-27". */
export function financialYearOf(at: Date): string {
  const [year, month] = indiaYearMonth(at)
  const start = month >= 4 ? year : year - 1
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`
}

/**
 * The last moment a credit note for a supply of `financialYear` ("2025-26") reduces the tax paid
 * on it: the end of 30 November after that year, India time (CGST Act, section 34(2); the
 * annual return, if furnished earlier, ends it earlier, which the shop cannot know). A credit
 * note issued later still documents the refund; it no longer lowers the output tax.
 */
export function creditNoteDeadline(financialYear: string): Date {
  const endYear = Number(financialYear.slice(0, 4)) + 1
  return new Date(`${endYear}-11-30T23:59:59.999+05:30`)
}

/** A credit note's time limit is worth a word on the actions that issue one this close to it. */
const TIME_LIMIT_NOTICE_DAYS = 30

/** "30 November 2026": a time limit's date, in India. */
const indiaLongDate = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
})

/**
 * What the admin's actions that issue a credit note (Refund, Mark refunded, Issue credit note)
 * say of its time limit for a taxed sale of `financialYear`, within TIME_LIMIT_NOTICE_DAYS of
 * creditNoteDeadline or after it; null before then.
 */
export function creditNoteTimeLimitNotice(financialYear: string, now: Date): string | null {
  const deadline = creditNoteDeadline(financialYear)
  const left = deadline.getTime() - now.getTime()
  if (left > TIME_LIMIT_NOTICE_DAYS * 86_400_000) return null
  const date = indiaLongDate.format(deadline)
  const sale = `This sale was made in ${financialYear}`
  return left < 0
    ? `${sale}: a credit note issued after ${date} no longer reduces the GST paid on it (CGST Act, section 34(2)). It is issued all the same, to document the refund.`
    : `${sale}: its credit note reduces the GST paid on it only if issued by ${date} (CGST Act, section 34(2)).`
}
