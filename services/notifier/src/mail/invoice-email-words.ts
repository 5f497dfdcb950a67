import type { InvoiceLanguage } from '@stablepay/contracts';

/**
 * The e-mail that carries an invoice, in the invoice's own language (the one the merchant chose for
 * its invoices in the billing profile), with the invoice's words: the PDF and its e-mail agree.
 */
export interface InvoiceEmailWords {
  invoice: string;
  correctiveInvoice: string;
  /** "withdrawal fee 0.500000 USDC", after the invoice and its number in the subject */
  subjectFee: (fee: string) => string;
  intro: (merchant: string, withdrawn: string) => string;
  correctiveIntro: (merchant: string) => string;
  invoiceNumber: string;
  withdrawn: string;
  serviceFee: string;
  sentToYou: string;
  network: string;
  withdrawalId: string;
  issued: string;
  outro: string;
}

const EN: InvoiceEmailWords = {
  invoice: 'Invoice',
  correctiveInvoice: 'Corrective invoice',
  subjectFee: (fee) => `withdrawal fee ${fee}`,
  intro: (m, w) => `${m}, here is the invoice for the fee of your withdrawal of ${w}. The PDF is attached.`,
  correctiveIntro: (m) =>
    `${m}, this corrective invoice replaces an earlier invoice for the fee of one of your withdrawals. The PDF is attached.`,
  invoiceNumber: 'Invoice number',
  withdrawn: 'Withdrawn',
  serviceFee: 'Service fee',
  sentToYou: 'Sent to you',
  network: 'Network',
  withdrawalId: 'Withdrawal ID',
  issued: 'Issued',
  outro: 'Every invoice is also listed in the dashboard and at GET /invoices/api/list.',
};

const DE: InvoiceEmailWords = {
  invoice: 'Rechnung',
  correctiveInvoice: 'Rechnungskorrektur',
  subjectFee: (fee) => `Servicegebühr der Auszahlung ${fee}`,
  intro: (m, w) =>
    `${m}, anbei die Rechnung über die Servicegebühr Ihrer Auszahlung von ${w}. Das PDF ist angehängt.`,
  correctiveIntro: (m) =>
    `${m}, diese Rechnungskorrektur ersetzt eine frühere Rechnung über die Gebühr einer Ihrer Auszahlungen. Das PDF ist angehängt.`,
  invoiceNumber: 'Rechnungsnummer',
  withdrawn: 'Ausgezahlt',
  serviceFee: 'Servicegebühr',
  sentToYou: 'An Ihre Adresse gesendet',
  network: 'Netzwerk',
  withdrawalId: 'Auszahlungs-ID',
  issued: 'Ausgestellt',
  outro: 'Alle Rechnungen finden Sie auch im Dashboard und unter GET /invoices/api/list.',
};

const FR: InvoiceEmailWords = {
  invoice: 'Facture',
  correctiveInvoice: 'Facture rectificative',
  subjectFee: (fee) => `frais de retrait ${fee}`,
  intro: (m, w) => `${m}, voici la facture des frais de service de votre retrait de ${w}. Le PDF est joint.`,
  correctiveIntro: (m) =>
    `${m}, cette facture rectificative remplace une facture antérieure des frais de l’un de vos retraits. Le PDF est joint.`,
  invoiceNumber: 'Numéro de facture',
  withdrawn: 'Montant retiré',
  serviceFee: 'Frais de service',
  sentToYou: 'Versé à votre adresse',
  network: 'Réseau',
  withdrawalId: 'Identifiant du retrait',
  issued: 'Émise le',
  outro: 'Toutes vos factures figurent aussi dans le tableau de bord et sous GET /invoices/api/list.',
};

const ES: InvoiceEmailWords = {
  invoice: 'Factura',
  correctiveInvoice: 'Factura rectificativa',
  subjectFee: (fee) => `comisión de retirada ${fee}`,
  intro: (m, w) =>
    `${m}, le enviamos la factura de la comisión de servicio de su retirada de ${w}. El PDF va adjunto.`,
  correctiveIntro: (m) =>
    `${m}, esta factura rectificativa sustituye a una factura anterior de la comisión de una de sus retiradas. El PDF va adjunto.`,
  invoiceNumber: 'Número de factura',
  withdrawn: 'Importe retirado',
  serviceFee: 'Comisión de servicio',
  sentToYou: 'Enviado a su dirección',
  network: 'Red',
  withdrawalId: 'ID de la retirada',
  issued: 'Emitida',
  outro: 'Todas sus facturas figuran también en el panel y en GET /invoices/api/list.',
};

const IT: InvoiceEmailWords = {
  invoice: 'Fattura',
  correctiveInvoice: 'Fattura di rettifica',
  subjectFee: (fee) => `commissione di prelievo ${fee}`,
  intro: (m, w) =>
    `${m}, ecco la fattura della commissione di servizio del suo prelievo di ${w}. Il PDF è allegato.`,
  correctiveIntro: (m) =>
    `${m}, questa fattura di rettifica sostituisce una fattura precedente per la commissione di uno dei suoi prelievi. Il PDF è allegato.`,
  invoiceNumber: 'Numero fattura',
  withdrawn: 'Importo prelevato',
  serviceFee: 'Commissione di servizio',
  sentToYou: 'Inviato al suo indirizzo',
  network: 'Rete',
  withdrawalId: 'ID del prelievo',
  issued: 'Emessa',
  outro: 'Tutte le fatture sono elencate anche nella dashboard e in GET /invoices/api/list.',
};

export const INVOICE_EMAIL_WORDS: Readonly<Record<InvoiceLanguage, InvoiceEmailWords>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  it: IT,
};
