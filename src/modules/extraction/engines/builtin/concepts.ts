/**
 * What the engine knows of common fields, whatever the caller names them: their printed labels
 * in every language of data/lexicon (D95), and the role that picks a special reader (the
 * largest total, the issuer in the letterhead, the parties of a contract …). A field is tied to
 * a concept by its key and label; its own label and catalog aliases are always used as well.
 *
 * Labels of every concept also serve as competitors: "Due Date" is a longer label than "Date",
 * so a line "Due Date: …" is never read as the invoice date even when only `date` is asked for.
 */
import type { ResolvedType as FieldKind } from '../../../../lib/field-types'
import { conceptLabels } from '../../normalise/lexicon'
import { words } from './text'

export type Role =
  | 'invoice_number'
  | 'issue_date'
  | 'due_date'
  | 'total'
  | 'subtotal'
  | 'tax'
  | 'currency'
  | 'issuer'
  | 'recipient'
  | 'parties'
  | 'governing_law'
  | 'effective_date'
  | 'agreement_date'
  | 'expiration_date'
  | 'term'
  | 'notice_period'
  | 'title'
  | 'signatories'

export interface Concept {
  id: string
  role?: Role
  kind: FieldKind
  labels: string[]
  /** Does a field (by the words of its key and label) mean this concept? */
  means?: (keyWords: string[], key: string) => boolean
}

const has = (list: string[], ...any: string[]) => any.some((word) => list.includes(word))

export const CONCEPTS: Concept[] = [
  {
    id: 'invoice_number',
    role: 'invoice_number',
    kind: 'text',
    labels: conceptLabels('invoice_number'),
    means: (w, key) =>
      key === 'invoice_number' ||
      (has(w, 'invoice', 'bill', 'receipt', 'rechnung', 'facture', 'factuur', 'factura') && has(w, 'number', 'no', 'nr', 'num', 'id', 'nummer', 'numero')),
  },
  {
    id: 'issue_date',
    role: 'issue_date',
    kind: 'date',
    labels: conceptLabels('issue_date'),
    means: (_, key) => ['date', 'invoice_date', 'issue_date', 'document_date', 'receipt_date', 'bill_date'].includes(key),
  },
  {
    id: 'due_date',
    role: 'due_date',
    kind: 'date',
    labels: conceptLabels('due_date'),
    // "Amount due" is an amount, not the due date.
    means: (w) =>
      has(w, 'due', 'faellig', 'falligkeit', 'echeance', 'vencimiento', 'vervaldatum') &&
      has(w, 'date', 'datum', 'by', 'fecha', 'due') &&
      !has(w, 'amount', 'total', 'balance', 'sum', 'betrag', 'montant', 'importe', 'bedrag'),
  },
  {
    id: 'other_date',
    kind: 'date',
    labels: conceptLabels('other_date'),
  },
  {
    id: 'total',
    role: 'total',
    kind: 'amount',
    labels: conceptLabels('total'),
    means: (_, key) => ['total', 'grand_total', 'total_amount', 'amount_due', 'invoice_total', 'total_due', 'balance_due', 'total_payable'].includes(key),
  },
  {
    id: 'subtotal',
    role: 'subtotal',
    kind: 'amount',
    labels: conceptLabels('subtotal'),
    means: (_, key) => ['subtotal', 'sub_total', 'net_amount', 'net_total', 'total_net', 'amount_net', 'total_excl_tax'].includes(key),
  },
  {
    id: 'tax',
    role: 'tax',
    kind: 'amount',
    labels: conceptLabels('tax'),
    means: (_, key) => ['tax', 'vat', 'gst', 'tax_amount', 'vat_amount', 'total_tax', 'sales_tax', 'tax_total'].includes(key),
  },
  {
    id: 'other_amount',
    kind: 'amount',
    labels: conceptLabels('other_amount'),
  },
  // What a receipt says was rounded, paid and given back: the totals reader checks the total against them.
  {
    id: 'rounding',
    kind: 'amount',
    labels: conceptLabels('rounding'),
  },
  {
    id: 'amount_paid',
    kind: 'amount',
    labels: conceptLabels('amount_paid'),
  },
  {
    id: 'change',
    kind: 'amount',
    labels: conceptLabels('change'),
  },
  {
    id: 'currency',
    role: 'currency',
    kind: 'currency',
    labels: conceptLabels('currency'),
    means: (w) => has(w, 'currency', 'wahrung', 'devise', 'valuta', 'moneda', 'divisa'),
  },
  {
    id: 'issuer',
    role: 'issuer',
    kind: 'text',
    labels: conceptLabels('issuer'),
    means: (_, key) =>
      [
        'company_name',
        'company',
        'vendor',
        'vendor_name',
        'seller',
        'seller_name',
        'supplier',
        'supplier_name',
        'issuer',
        'issuer_name',
        'merchant',
        'merchant_name',
        'store_name',
        'shop_name',
      ].includes(key),
  },
  {
    id: 'recipient',
    role: 'recipient',
    kind: 'text',
    labels: conceptLabels('recipient'),
    means: (_, key) =>
      ['client_name', 'client', 'customer', 'customer_name', 'buyer', 'buyer_name', 'bill_to', 'recipient', 'recipient_name', 'billed_to'].includes(key),
  },
  {
    id: 'other_party',
    kind: 'text',
    labels: conceptLabels('other_party'),
  },
  {
    id: 'other_number',
    kind: 'text',
    labels: conceptLabels('other_number'),
  },
  {
    id: 'parties',
    role: 'parties',
    kind: 'list',
    labels: conceptLabels('parties'),
    means: (w, key) => key === 'parties' || has(w, 'parties', 'party', 'vertragsparteien', 'partijen', 'partes'),
  },
  {
    id: 'governing_law',
    role: 'governing_law',
    kind: 'text',
    labels: conceptLabels('governing_law'),
    means: (w, key) => key === 'governing_law' || key === 'jurisdiction' || (has(w, 'governing', 'applicable') && has(w, 'law')),
  },
  {
    id: 'effective_date',
    role: 'effective_date',
    kind: 'date',
    labels: conceptLabels('effective_date'),
    means: (w, key) => key === 'effective_date' || (has(w, 'effective', 'commencement') && has(w, 'date')),
  },
  {
    id: 'agreement_date',
    role: 'agreement_date',
    kind: 'date',
    labels: conceptLabels('agreement_date'),
    means: (w, key) =>
      key === 'agreement_date' ||
      key === 'signing_date' ||
      key === 'execution_date' ||
      (has(w, 'agreement', 'contract', 'signing', 'signature', 'execution') && has(w, 'date') && !has(w, 'effective', 'expiration', 'end', 'start')),
  },
  {
    id: 'expiration_date',
    role: 'expiration_date',
    kind: 'date',
    labels: conceptLabels('expiration_date'),
    means: (w, key) =>
      key === 'expiration_date' || key === 'expiry_date' || key === 'end_date' || (has(w, 'expiration', 'expiry', 'expires') && has(w, 'date')),
  },
  {
    id: 'notice_period',
    role: 'notice_period',
    kind: 'text',
    labels: conceptLabels('notice_period'),
    means: (w, key) => key === 'termination_notice_period' || key === 'notice_period' || (has(w, 'notice') && has(w, 'period', 'termination')),
  },
  {
    id: 'title',
    role: 'title',
    kind: 'text',
    labels: conceptLabels('title'),
    means: (_, key) => key === 'title' || key === 'contract_title' || key === 'document_title' || key === 'agreement_title',
  },
  {
    id: 'signatories',
    role: 'signatories',
    kind: 'list',
    labels: conceptLabels('signatories'),
    means: (w, key) => key === 'signatories' || key === 'signers' || has(w, 'signatories', 'signatory', 'signers'),
  },
  {
    id: 'term',
    role: 'term',
    kind: 'text',
    labels: conceptLabels('term'),
    means: (w, key) =>
      key === 'term' || key === 'contract_term' || key === 'duration' || (has(w, 'term', 'duration') && !has(w, 'notice', 'payment', 'renewal', 'terms')),
  },
]

/** The concept a requested field stands for, judged from its key and label; undefined for others. */
export function conceptOf(key: string, label: string): Concept | undefined {
  const keyWords = words(`${key} ${label}`)
  const normalisedKey = key.toLowerCase()
  return CONCEPTS.find((concept) => concept.means?.(keyWords, normalisedKey))
}

/**
 * Infers how to read an inline field that has no catalog kind and stands for no concept (a
 * concept gives its own kind), from its key, label and description.
 */
export function inferKind(key: string, label: string, description: string): FieldKind {
  const head = words(`${key} ${label}`)
  const all = words(`${key} ${label} ${description}`)
  if (has(head, 'date', 'datum', 'fecha', 'dob', 'birthday', 'expiry', 'expires', 'issued') || /yyyy-mm-dd/i.test(description)) return 'date'
  if (has(head, 'currency', 'wahrung', 'devise')) return 'currency'
  if (
    has(head, 'amount', 'total', 'price', 'cost', 'fee', 'fees', 'subtotal', 'tax', 'vat', 'balance', 'salary', 'pay', 'betrag', 'montant', 'importe', 'bedrag')
  )
    return 'amount'
  if (has(head, 'items', 'lines', 'table', 'rows', 'transactions', 'positions')) return 'table'
  if (has(head, 'parties', 'names', 'list', 'signatories', 'tags', 'emails')) return 'list'
  if (has(head, 'count', 'quantity', 'qty', 'age', 'pages', 'percentage', 'percent', 'rate') || has(all, 'integer')) return 'number'
  return 'text'
}

/**
 * The type of a field declared `auto` (D91), as the engine has always read it: its concept's
 * kind, else inferred from its key, label and description. Used when a job is created.
 */
export function inferType(key: string, label: string, description: string): FieldKind {
  return conceptOf(key, label)?.kind ?? inferKind(key, label, description)
}
