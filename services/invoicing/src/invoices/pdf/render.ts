import pdfmake, { type DocumentDefinition } from 'pdfmake';
import type { InvoiceRecord } from '../records.js';
import { invoiceDocument } from './invoice-document.js';

/** PDF's standard Helvetica: built into every reader, so no font file is read or embedded. */
const HELVETICA = {
  normal: 'Helvetica',
  bold: 'Helvetica-Bold',
  italics: 'Helvetica-Oblique',
  bolditalics: 'Helvetica-BoldOblique',
};
const STANDARD_FONTS = new Set(Object.values(HELVETICA));

let configured = false;

/**
 * pdfmake is one shared object in its module; it is configured once, the same for every caller:
 * Helvetica only, no URL fetched, no local file read but the standard font names.
 */
const printer = () => {
  if (!configured) {
    pdfmake.setFonts({ Helvetica: HELVETICA });
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy((path) => STANDARD_FONTS.has(path));
    configured = true;
  }
  return pdfmake;
};

export const renderDocument = (doc: DocumentDefinition): Promise<Buffer> =>
  printer().createPdf(doc).getBuffer();

/** The invoice's PDF, from its row alone: rendering it again gives the same document. */
export const renderInvoicePdf = (invoice: InvoiceRecord): Promise<Buffer> =>
  renderDocument(invoiceDocument(invoice));
