/**
 * What the engine knows of common fields, whatever the caller names them: printed labels in
 * English, German, French, Dutch and Spanish, and the role that picks a special reader (the
 * largest total, the issuer in the letterhead, the parties of a contract …). A field is tied to
 * a concept by its key and label; its own label and catalog aliases are always used as well.
 *
 * Labels of every concept also serve as competitors: "Due Date" is a longer label than "Date",
 * so a line "Due Date: …" is never read as the invoice date even when only `date` is asked for.
 */
import type { ResolvedType as FieldKind } from '../../../../lib/field-types'
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
    labels: [
      'Invoice No', 'Invoice No.', 'Invoice #', 'Invoice Number', 'Invoice Nr', 'Inv. No.', 'Inv No', 'Inv #', 'Invoice ID',
      'Bill No', 'Bill No.', 'Bill #', 'Receipt No', 'Receipt #', 'Receipt Number', 'Cash Bill No', 'Document No',
      'Doc No', 'Tax Invoice No', 'Credit Note No', 'Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnungsnr.', 'Rechnung Nr.',
      'Rechnung #', 'Beleg-Nr', 'Belegnummer', 'Rechnungs-Nummer', 'Gutschrift Nr.', 'N° de facture', 'No de facture',
      'Numéro de facture', 'Facture n°', 'Facture N°', 'Facture No', 'N° facture', 'Factuurnummer', 'Factuurnr.',
      'Factuur nr', 'Factuur nummer', 'Número de factura', 'Nº de factura', 'Factura n.º', 'Factura nº', 'Nº factura',
      'Factura No', 'Num. factura', 'Faktura nr',
    ],
    means: (w, key) => key === 'invoice_number' || (has(w, 'invoice', 'bill', 'receipt', 'rechnung', 'facture', 'factuur', 'factura') && has(w, 'number', 'no', 'nr', 'num', 'id', 'nummer', 'numero')),
  },
  {
    id: 'issue_date',
    role: 'issue_date',
    kind: 'date',
    labels: [
      'Invoice Date', 'Date of Issue', 'Issue Date', 'Issued', 'Date', 'Dated', 'Bill Date', 'Receipt Date', 'Document Date',
      'Tax Point', 'Invoice Dt', 'Rechnungsdatum', 'Datum', 'Belegdatum', 'Beleg-Datum', 'Ausstellungsdatum',
      'Rechnungs-Datum', 'Date de facture', 'Date de facturation', "Date d'émission", 'Date facture', 'Factuurdatum',
      'Factuur datum', 'Datum factuur', 'Fecha de factura', 'Fecha de emisión', 'Fecha factura', 'Fecha', 'Data wystawienia',
    ],
    means: (_, key) => ['date', 'invoice_date', 'issue_date', 'document_date', 'receipt_date', 'bill_date'].includes(key),
  },
  {
    id: 'due_date',
    role: 'due_date',
    kind: 'date',
    labels: [
      'Due Date', 'Payment Due', 'Pay By', 'Due By', 'Due', 'Payment Due Date', 'Date Due', 'Fällig am', 'Fälligkeitsdatum',
      'Fälligkeit', 'Zahlbar bis', 'Zahlungsziel', 'Zahlbar bis zum', 'Date d\'échéance', 'Échéance', 'Date limite de paiement',
      'A payer avant le', 'Vervaldatum', 'Uiterste betaaldatum', 'Te betalen voor', 'Fecha de vencimiento', 'Vencimiento',
    ],
    // "Amount due" is an amount, not the due date.
    means: (w) =>
      has(w, 'due', 'faellig', 'falligkeit', 'echeance', 'vencimiento', 'vervaldatum') &&
      has(w, 'date', 'datum', 'by', 'fecha', 'due') &&
      !has(w, 'amount', 'total', 'balance', 'sum', 'betrag', 'montant', 'importe', 'bedrag'),
  },
  {
    id: 'other_date',
    kind: 'date',
    labels: [
      'Order Date', 'Delivery Date', 'Ship Date', 'Shipping Date', 'Service Date', 'Date of Service', 'Period', 'Print Date',
      'Date of Supply', 'Start Date', 'End Date', 'Leistungsdatum', 'Lieferdatum', 'Liefer- und Leistungsdatum',
      'Bestelldatum', 'Bestell-Datum', 'Lieferschein-Datum', 'Auftrag-Datum-Lief', 'Auftragsdatum', 'Leistungszeitraum',
      'Abrechnungszeitraum', 'Date de livraison', 'Date de commande', 'Période', 'Orderdatum', 'Leverdatum',
      'Besteldatum', 'Fecha de pedido', 'Fecha de entrega', 'Bestellung vom',
    ],
  },
  {
    id: 'total',
    role: 'total',
    kind: 'amount',
    labels: [
      'Total', 'Total Due', 'Amount Due', 'Grand Total', 'Balance Due', 'Total Amount', 'Invoice Total', 'Total Payable',
      'Amount Payable', 'Total to Pay', 'Total incl', 'Total incl.', 'Total including', 'Total inc', 'Total (incl',
      'Net Total', 'Nett Total', 'Net Payable', 'Total Rounded', 'Rounded Total', 'Total Amt', 'Total Sales', 'Total RM',
      'Gesamtbetrag', 'Gesamtsumme', 'Rechnungsbetrag', 'Endbetrag', 'Zu zahlen', 'Zahlbetrag', 'Bruttobetrag',
      'Bruttosumme', 'Rechnungssumme Brutto', 'Rechnungssumme', 'Summe inkl. USt', 'Summe brutto', 'Gesamt brutto',
      'Total TTC', 'Montant TTC', 'Net à payer', 'Montant total', 'Total à payer', 'Somme à payer', 'Montant à payer',
      'Totaal', 'Te betalen', 'Totaalbedrag', 'Totaal incl. btw', 'Total a pagar', 'Importe total', 'Total factura',
      'Należność ogółem', 'Total facture',
    ],
    means: (_, key) => ['total', 'grand_total', 'total_amount', 'amount_due', 'invoice_total', 'total_due', 'balance_due', 'total_payable'].includes(key),
  },
  {
    id: 'subtotal',
    role: 'subtotal',
    kind: 'amount',
    labels: [
      'Subtotal', 'Sub-total', 'Sub Total', 'Net Amount', 'Net Total', 'Untaxed Amount', 'Total excl. VAT', 'Total excl',
      'Total excl.', 'Total excluding', 'Total exclusive', 'Total before tax', 'Total net', 'Amount excl', 'Net',
      'Zwischensumme', 'Nettobetrag', 'Summe netto', 'Netto', 'Gesamtbetrag netto', 'Rechnungssumme Netto', 'Nettosumme',
      'Rechnungssumme ohne USt', 'Warenwert netto', 'Total HT', 'Montant HT', 'Sous-total', 'Total hors taxes',
      'Subtotaal', 'Totaal excl. btw', 'Exclusief BTW', 'Excl. BTW', 'Base imponible', 'Subtotal sin IVA', 'Razem netto',
    ],
    means: (_, key) => ['subtotal', 'sub_total', 'net_amount', 'net_total', 'total_net', 'amount_net', 'total_excl_tax'].includes(key),
  },
  {
    id: 'tax',
    role: 'tax',
    kind: 'amount',
    labels: [
      'Tax', 'VAT', 'GST', 'Sales Tax', 'Tax Amount', 'Total Tax', 'VAT Amount', 'Total VAT', 'GST Amount', 'Total GST',
      'SST', 'Service Tax', 'MwSt', 'MwSt.', 'MwSt-Betrag', 'USt', 'USt.', 'Umsatzsteuer', 'Mehrwertsteuer', 'Steuerbetrag',
      'Summe Umsatzsteuer', 'Summe USt', 'USt. Gesamt', 'zzgl. USt', 'Zuzügl. USt', 'zuzüglich Umsatzsteuer',
      'zzgl. Umsatzsteuer', 'Versicherungsteuer', 'TVA', 'Montant TVA', 'Total TVA', 'BTW', 'BTW bedrag', 'Totaal BTW',
      'IVA', 'Impuestos', 'Cuota IVA', 'Total IVA', 'Kwota VAT',
    ],
    means: (_, key) => ['tax', 'vat', 'gst', 'tax_amount', 'vat_amount', 'total_tax', 'sales_tax', 'tax_total'].includes(key),
  },
  {
    id: 'other_amount',
    kind: 'amount',
    labels: [
      'Total Qty', 'Total Quantity', 'Total Items', 'Total Item', 'Total Discount', 'Total Savings', 'Total Saving',
      'Total Weight', 'Total Pieces', 'Total Units', 'Discount', 'Rounding', 'Rounding Adjustment', 'Round Adj', 'Cash',
      'Change', 'Change Due', 'Tendered', 'Cash Tendered', 'Paid', 'Amount Paid', 'Payment', 'Deposit', 'Balance',
      'Unit Price', 'Price', 'Qty', 'Quantity', 'Already paid', 'Bereits bezahlt', 'Erhaltene Anzahlungen', 'Anzahlung',
      'Offener Betrag', 'Rabatt', 'Skonto', 'Einzelpreis', 'Gesamtbetrag der Zuschläge', 'Gesamtbetrag der Abschläge',
      'Positionssumme', 'Summe der Positionen', 'Steuerbasisbetrag', 'Basisbetrag', 'Remise', 'Acompte', 'Déjà payé',
      'Korting', 'Reeds betaald', 'Descuento', 'Total Incl. Discount', 'Total Tax Excl', 'Tax Rate', 'Taux TVA',
      'Montant du prélèvement', 'Prix unitaire', 'Amount Tendered', 'Customer Copy',
    ],
  },
  {
    id: 'currency',
    role: 'currency',
    kind: 'currency',
    labels: ['Currency', 'Währung', 'Beträge in', 'Devise', 'Monnaie', 'Valuta', 'Munteenheid', 'Moneda', 'Divisa', 'Waluta'],
    means: (w) => has(w, 'currency', 'wahrung', 'devise', 'valuta', 'moneda', 'divisa'),
  },
  {
    id: 'issuer',
    role: 'issuer',
    kind: 'text',
    labels: [
      'Seller', 'Supplier', 'Vendor', 'From', 'Issued by', 'Sold by', 'Merchant', 'Billed by', 'Invoice from', 'Lieferant',
      'Verkäufer', 'Rechnungsersteller', 'Rechnungssteller', 'Leistungserbringer', 'Auftragnehmer', 'Fournisseur',
      'Vendeur', 'Émetteur', 'Leverancier', 'Verkoper', 'Proveedor', 'Emisor', 'Vendedor', 'Sprzedawca',
    ],
    means: (_, key) =>
      ['company_name', 'company', 'vendor', 'vendor_name', 'seller', 'seller_name', 'supplier', 'supplier_name', 'issuer', 'issuer_name', 'merchant', 'merchant_name', 'store_name', 'shop_name'].includes(key),
  },
  {
    id: 'recipient',
    role: 'recipient',
    kind: 'text',
    labels: [
      'Bill To', 'Billed To', 'Billing Address', 'Customer', 'Customer Name', 'Client', 'Sold To', 'Buyer', 'Invoice To',
      'Invoiced To', 'Kunde', 'Rechnungsempfänger', 'Käufer', 'Leistungsempfänger', 'Auftraggeber',
      'Rechnungsadresse', 'Facturé à', 'Facturer à', 'Acheteur', 'Destinataire', 'Adresse de facturation',
      'Klant', 'Koper', 'Factuuradres', 'Cliente', 'Facturar a', 'Comprador', 'Nabywca',
    ],
    means: (_, key) =>
      ['client_name', 'client', 'customer', 'customer_name', 'buyer', 'buyer_name', 'bill_to', 'recipient', 'recipient_name', 'billed_to'].includes(key),
  },
  {
    id: 'other_party',
    kind: 'text',
    labels: [
      'Ship To', 'Shipping Address', 'Deliver To', 'Delivery Address', 'Warenempfänger', 'Lieferadresse', 'Lieferanschrift',
      'Adresse de livraison', 'Livré à', 'Afleveradres', 'Dirección de entrega', 'Cashier', 'Served by', 'Kassierer',
    ],
  },
  {
    id: 'other_number',
    kind: 'text',
    labels: [
      'Order No', 'Order Number', 'Order ID', 'Order #', 'PO Number', 'PO No', 'Purchase Order', 'Customer No',
      'Customer Number', 'Customer ID', 'Account No', 'Account Number', 'Reference', 'Ref', 'Your Reference',
      'Our Reference', 'VAT No', 'VAT ID', 'Tax ID', 'GST No', 'GST ID', 'GST Reg No', 'Company No', 'Company Reg No',
      'Reg No', 'Tel', 'Phone', 'Fax', 'Table', 'Terminal', 'Member', 'Kundennummer', 'Kunden-Nr', 'Kundennr',
      'Bestellnummer', 'Bestell-Nr', 'Auftragsnummer', 'Auftrag-Nr-Lief', 'Lieferschein-Nr', 'Lieferscheinnummer',
      'Steuernummer', 'Steuernr', 'USt-IdNr', 'USt-ID', 'USt.-Id.-Nr.', 'Ursprungsbeleg-Nr', 'Reklamationsnummer',
      'Lief-Nr', 'Referenz', 'Ihre Nummer', 'Vertragsnummer', 'Contract No', 'N° client', 'Numéro client',
      'Numéro de commande', 'N° de commande', 'Numéro de dossier', 'Référence', 'Klantnummer', 'Ordernummer',
      'Bestelnummer', 'Número de cliente', 'Número de pedido', 'Referencia', 'Id.client', 'Numéro de ligne', 'NIP',
      'Token No', 'Station ID', 'Slip No', 'Trans No', 'Transaction No', 'Approval Code',
    ],
  },
  {
    id: 'parties',
    role: 'parties',
    kind: 'list',
    labels: ['Parties', 'Between', 'By and between', 'Vertragsparteien', 'Parteien', 'Les parties', 'Partijen', 'Las partes'],
    means: (w, key) => key === 'parties' || has(w, 'parties', 'party', 'vertragsparteien', 'partijen', 'partes'),
  },
  {
    id: 'governing_law',
    role: 'governing_law',
    kind: 'text',
    labels: ['Governing Law', 'Applicable Law', 'Choice of Law', 'Anwendbares Recht', 'Droit applicable', 'Toepasselijk recht', 'Ley aplicable'],
    means: (w, key) => key === 'governing_law' || key === 'jurisdiction' || (has(w, 'governing', 'applicable') && has(w, 'law')),
  },
  {
    id: 'effective_date',
    role: 'effective_date',
    kind: 'date',
    labels: ['Effective Date', 'Commencement Date', 'Effective as of', 'Date d\'effet', 'Ingangsdatum', 'Fecha de entrada en vigor'],
    means: (w, key) => key === 'effective_date' || (has(w, 'effective', 'commencement') && has(w, 'date')),
  },
  {
    id: 'agreement_date',
    role: 'agreement_date',
    kind: 'date',
    labels: ['Agreement Date', 'Date of Agreement', 'Signing Date', 'Date of Execution', 'Vertragsdatum', 'Date de signature', 'Datum van ondertekening', 'Fecha de firma'],
    means: (w, key) => key === 'agreement_date' || key === 'signing_date' || key === 'execution_date' || (has(w, 'agreement', 'contract', 'signing', 'signature', 'execution') && has(w, 'date') && !has(w, 'effective', 'expiration', 'end', 'start')),
  },
  {
    id: 'expiration_date',
    role: 'expiration_date',
    kind: 'date',
    labels: ['Expiration Date', 'Expiry Date', 'End Date', 'Termination Date', 'Vertragsende', 'Ablaufdatum', "Date d'expiration", 'Einddatum', 'Fecha de vencimiento'],
    means: (w, key) => key === 'expiration_date' || key === 'expiry_date' || key === 'end_date' || (has(w, 'expiration', 'expiry', 'expires') && has(w, 'date')),
  },
  {
    id: 'notice_period',
    role: 'notice_period',
    kind: 'text',
    labels: ['Notice Period', 'Termination Notice', 'Kündigungsfrist', 'Préavis', 'Opzegtermijn', 'Plazo de preaviso'],
    means: (w, key) => key === 'termination_notice_period' || key === 'notice_period' || (has(w, 'notice') && has(w, 'period', 'termination')),
  },
  {
    id: 'title',
    role: 'title',
    kind: 'text',
    labels: ['Title'],
    means: (_, key) => key === 'title' || key === 'contract_title' || key === 'document_title' || key === 'agreement_title',
  },
  {
    id: 'signatories',
    role: 'signatories',
    kind: 'list',
    labels: ['Signatories', 'Signed by', 'Signatory'],
    means: (w, key) => key === 'signatories' || key === 'signers' || has(w, 'signatories', 'signatory', 'signers'),
  },
  {
    id: 'term',
    role: 'term',
    kind: 'text',
    labels: ['Term', 'Duration', 'Initial Term', 'Laufzeit', 'Durée', 'Looptijd', 'Duración', 'Plazo'],
    means: (w, key) => key === 'term' || key === 'contract_term' || key === 'duration' || (has(w, 'term', 'duration') && !has(w, 'notice', 'payment', 'renewal', 'terms')),
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
  if (has(head, 'amount', 'total', 'price', 'cost', 'fee', 'fees', 'subtotal', 'tax', 'vat', 'balance', 'salary', 'pay', 'betrag', 'montant', 'importe', 'bedrag')) return 'amount'
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
