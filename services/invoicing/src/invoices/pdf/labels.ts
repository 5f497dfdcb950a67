import type { InvoiceLanguage } from '@stablepay/contracts';

// How an invoice's language writes numbers and days, shared with the e-mail that carries the invoice.
export { formatDay, formatDecimal } from '@stablepay/contracts';

/** Everything an invoice says, in each language it can be written in. */
export interface InvoiceLabels {
  title: string;
  rectifyingTitle: string;
  number: string;
  issueDate: string;
  supplyDate: string;
  seller: string;
  customer: string;
  vatNumber: string;
  /** A national tax number, printed for a seller without a VAT number. */
  taxNumber: string;
  description: string;
  feeLine: (rate: string, gross: string) => string;
  /** The fee line when the minimum fee was charged: the rate alone would have charged `byRate`. */
  minimumFeeLine: (rate: string, gross: string, byRate: string) => string;
  netOfVat: string;
  vat: (rate: string) => string;
  total: string;
  paid: string;
  rate: (currency: string, eur: string, source: string, date: string) => string;
  /** Where the exchange rate came from, as the rate line names it. */
  rateSources: Record<'ecb' | 'fixed' | 'par', string>;
  reverseCharge: string;
  outsideScope: string;
  euConsumer: (country: string) => string;
  domesticUnknownCustomer: string;
  rectifies: (number: string, reason: string) => string;
  withdrawal: string;
  withdrawalId: string;
  withdrawn: string;
  delivered: string;
  network: string;
  destination: string;
  netTransfer: string;
  feeTransfer: string;
  page: (n: number, of: number) => string;
}

const EN: InvoiceLabels = {
  title: 'Invoice',
  rectifyingTitle: 'Corrective invoice',
  number: 'Invoice number',
  issueDate: 'Issue date',
  supplyDate: 'Date of supply',
  seller: 'From',
  customer: 'Bill to',
  vatNumber: 'VAT no.',
  taxNumber: 'Tax no.',
  description: 'Description',
  feeLine: (rate, gross) => `Withdrawal service fee (${rate} % of ${gross})`,
  minimumFeeLine: (rate, gross, byRate) =>
    `Minimum withdrawal service fee (${rate} % of ${gross} would be ${byRate})`,
  netOfVat: 'Net amount',
  vat: (rate) => `VAT ${rate} %`,
  total: 'Total',
  paid: 'Paid in full: the fee was deducted on-chain from the withdrawal.',
  rate: (c, eur, source, date) => `Exchange rate: 1 ${c} = ${eur} EUR (${source}, ${date})`,
  rateSources: { ecb: 'ECB reference rate', fixed: 'fixed rate', par: 'at par' },
  reverseCharge:
    'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).',
  outsideScope:
    'Not subject to EU VAT: place of supply outside the EU (Article 44, Council Directive 2006/112/EC).',
  euConsumer: (country) => `VAT of ${country} charged (One-Stop Shop).`,
  domesticUnknownCustomer: "Customer location not on record: VAT of the seller's country charged.",
  rectifies: (n, reason) => `This invoice corrects and replaces invoice ${n}. Reason: ${reason}`,
  withdrawal: 'Withdrawal',
  withdrawalId: 'Withdrawal ID',
  withdrawn: 'Amount withdrawn',
  delivered: 'Sent to the destination',
  network: 'Network',
  destination: 'Destination address',
  netTransfer: 'Transaction (destination)',
  feeTransfer: 'Transaction (fee)',
  page: (n, of) => `Page ${n} of ${of}`,
};

const DE: InvoiceLabels = {
  title: 'Rechnung',
  rectifyingTitle: 'Rechnungskorrektur',
  number: 'Rechnungsnummer',
  issueDate: 'Rechnungsdatum',
  supplyDate: 'Leistungsdatum',
  seller: 'Rechnungssteller',
  customer: 'Rechnungsempfänger',
  vatNumber: 'USt-IdNr.',
  taxNumber: 'Steuernummer',
  description: 'Beschreibung',
  feeLine: (rate, gross) => `Servicegebühr für die Auszahlung (${rate} % von ${gross})`,
  minimumFeeLine: (rate, gross, byRate) =>
    `Mindestservicegebühr für die Auszahlung (${rate} % von ${gross} wären ${byRate})`,
  netOfVat: 'Nettobetrag',
  vat: (rate) => `Umsatzsteuer ${rate} %`,
  total: 'Gesamtbetrag',
  paid: 'Vollständig bezahlt: Die Gebühr wurde bei der Auszahlung on-chain einbehalten.',
  rate: (c, eur, source, date) => `Umrechnungskurs: 1 ${c} = ${eur} EUR (${source}, ${date})`,
  rateSources: { ecb: 'EZB-Referenzkurs', fixed: 'fester Kurs', par: 'pari' },
  reverseCharge:
    'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, Art. 196 der Richtlinie 2006/112/EG).',
  outsideScope:
    'Nicht der EU-Umsatzsteuer unterliegend: Leistungsort außerhalb der EU (Art. 44 der Richtlinie 2006/112/EG).',
  euConsumer: (country) => `Umsatzsteuer von ${country} berechnet (One-Stop-Shop).`,
  domesticUnknownCustomer:
    'Sitz des Kunden nicht hinterlegt: Umsatzsteuer des Landes des Rechnungsstellers berechnet.',
  rectifies: (n, reason) => `Diese Rechnung korrigiert und ersetzt die Rechnung ${n}. Grund: ${reason}`,
  withdrawal: 'Auszahlung',
  withdrawalId: 'Auszahlungs-ID',
  withdrawn: 'Ausgezahlter Betrag',
  delivered: 'An das Ziel gesendet',
  network: 'Netzwerk',
  destination: 'Zieladresse',
  netTransfer: 'Transaktion (Ziel)',
  feeTransfer: 'Transaktion (Gebühr)',
  page: (n, of) => `Seite ${n} von ${of}`,
};

const FR: InvoiceLabels = {
  title: 'Facture',
  rectifyingTitle: 'Facture rectificative',
  number: 'Numéro de facture',
  issueDate: "Date d'émission",
  supplyDate: 'Date de la prestation',
  seller: 'Émetteur',
  customer: 'Client',
  vatNumber: 'N° TVA',
  taxNumber: 'N° fiscal',
  description: 'Désignation',
  feeLine: (rate, gross) => `Frais de service du retrait (${rate} % de ${gross})`,
  minimumFeeLine: (rate, gross, byRate) =>
    `Frais de service minimum du retrait (${rate} % de ${gross} feraient ${byRate})`,
  netOfVat: 'Montant HT',
  vat: (rate) => `TVA ${rate} %`,
  total: 'Total TTC',
  paid: 'Payée intégralement : les frais ont été prélevés on-chain sur le retrait.',
  rate: (c, eur, source, date) => `Taux de change : 1 ${c} = ${eur} EUR (${source}, ${date})`,
  rateSources: { ecb: 'taux de référence de la BCE', fixed: 'taux fixe', par: 'au pair' },
  reverseCharge: 'Autoliquidation : TVA due par le preneur (article 196 de la directive 2006/112/CE).',
  outsideScope:
    "TVA non applicable : lieu de la prestation hors de l'UE (article 44 de la directive 2006/112/CE).",
  euConsumer: (country) => `TVA de ${country} appliquée (guichet unique OSS).`,
  domesticUnknownCustomer: "Adresse du client inconnue : TVA du pays de l'émetteur appliquée.",
  rectifies: (n, reason) => `Cette facture rectifie et remplace la facture ${n}. Motif : ${reason}`,
  withdrawal: 'Retrait',
  withdrawalId: 'Identifiant du retrait',
  withdrawn: 'Montant retiré',
  delivered: 'Envoyé à la destination',
  network: 'Réseau',
  destination: 'Adresse de destination',
  netTransfer: 'Transaction (destination)',
  feeTransfer: 'Transaction (frais)',
  page: (n, of) => `Page ${n} sur ${of}`,
};

const ES: InvoiceLabels = {
  title: 'Factura',
  rectifyingTitle: 'Factura rectificativa',
  number: 'Número de factura',
  issueDate: 'Fecha de emisión',
  supplyDate: 'Fecha de la operación',
  seller: 'Emisor',
  customer: 'Cliente',
  vatNumber: 'NIF-IVA',
  taxNumber: 'NIF',
  description: 'Concepto',
  feeLine: (rate, gross) => `Comisión de servicio por la retirada (${rate} % de ${gross})`,
  minimumFeeLine: (rate, gross, byRate) =>
    `Comisión mínima de servicio por la retirada (el ${rate} % de ${gross} serían ${byRate})`,
  netOfVat: 'Base imponible',
  vat: (rate) => `IVA ${rate} %`,
  total: 'Total',
  paid: 'Pagada íntegramente: la comisión se descontó on-chain de la retirada.',
  rate: (c, eur, source, date) => `Tipo de cambio: 1 ${c} = ${eur} EUR (${source}, ${date})`,
  rateSources: { ecb: 'tipo de referencia del BCE', fixed: 'tipo fijo', par: 'a la par' },
  reverseCharge: 'Inversión del sujeto pasivo (artículo 196 de la Directiva 2006/112/CE).',
  outsideScope:
    'Operación no sujeta al IVA de la UE: lugar de prestación fuera de la UE (artículo 44 de la Directiva 2006/112/CE).',
  euConsumer: (country) => `IVA de ${country} aplicado (ventanilla única OSS).`,
  domesticUnknownCustomer: 'Domicilio del cliente no registrado: se aplica el IVA del país del emisor.',
  rectifies: (n, reason) => `Esta factura rectifica y sustituye a la factura ${n}. Motivo: ${reason}`,
  withdrawal: 'Retirada',
  withdrawalId: 'ID de la retirada',
  withdrawn: 'Importe retirado',
  delivered: 'Enviado al destino',
  network: 'Red',
  destination: 'Dirección de destino',
  netTransfer: 'Transacción (destino)',
  feeTransfer: 'Transacción (comisión)',
  page: (n, of) => `Página ${n} de ${of}`,
};

const IT: InvoiceLabels = {
  title: 'Fattura',
  rectifyingTitle: 'Fattura di rettifica',
  number: 'Numero fattura',
  issueDate: 'Data di emissione',
  supplyDate: "Data dell'operazione",
  seller: 'Emittente',
  customer: 'Cliente',
  vatNumber: 'P. IVA',
  taxNumber: 'Codice fiscale',
  description: 'Descrizione',
  feeLine: (rate, gross) => `Commissione di servizio per il prelievo (${rate} % di ${gross})`,
  minimumFeeLine: (rate, gross, byRate) =>
    `Commissione minima di servizio per il prelievo (lo ${rate} % di ${gross} sarebbe ${byRate})`,
  netOfVat: 'Imponibile',
  vat: (rate) => `IVA ${rate} %`,
  total: 'Totale',
  paid: 'Pagata per intero: la commissione è stata trattenuta on-chain dal prelievo.',
  rate: (c, eur, source, date) => `Tasso di cambio: 1 ${c} = ${eur} EUR (${source}, ${date})`,
  rateSources: { ecb: 'tasso di riferimento BCE', fixed: 'tasso fisso', par: 'alla pari' },
  reverseCharge: 'Inversione contabile (reverse charge, art. 196 della direttiva 2006/112/CE).',
  outsideScope:
    "Operazione non soggetta a IVA UE: luogo della prestazione fuori dall'UE (art. 44 della direttiva 2006/112/CE).",
  euConsumer: (country) => `IVA di ${country} applicata (sportello unico OSS).`,
  domesticUnknownCustomer: "Sede del cliente non registrata: applicata l'IVA del paese dell'emittente.",
  rectifies: (n, reason) => `Questa fattura rettifica e sostituisce la fattura ${n}. Motivo: ${reason}`,
  withdrawal: 'Prelievo',
  withdrawalId: 'ID del prelievo',
  withdrawn: 'Importo prelevato',
  delivered: 'Inviato alla destinazione',
  network: 'Rete',
  destination: 'Indirizzo di destinazione',
  netTransfer: 'Transazione (destinazione)',
  feeTransfer: 'Transazione (commissione)',
  page: (n, of) => `Pagina ${n} di ${of}`,
};

export const LABELS: Readonly<Record<InvoiceLanguage, InvoiceLabels>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  it: IT,
};

/** Trailing zeros off a percentage: "19.00" → "19", "25.50" → "25.5", "0.500000" → "0.5". */
export const trimZeros = (value: string): string =>
  value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
