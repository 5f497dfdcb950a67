import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import pdfmake, { type DocumentDefinition } from 'pdfmake';
import type { InvoiceRecord } from '../records.js';
import { invoiceDocument } from './invoice-document.js';

/**
 * Roboto, as pdfmake ships it, embedded (subset) in every PDF: every reader shows a filed invoice as
 * it was issued, whatever fonts it has, and Roboto covers the letters of every EU language (the
 * standard PDF fonts stop at Windows-1252: no "ł", "ő" or Greek in a name or address).
 */
const ROBOTO = {
  normal: 'Roboto-Regular.ttf',
  bold: 'Roboto-Medium.ttf',
  italics: 'Roboto-Italic.ttf',
  bolditalics: 'Roboto-MediumItalic.ttf',
};

let configured = false;

/**
 * pdfmake is one shared object in its module; it is configured once, the same for every caller:
 * the fonts read once into its virtual file system, no URL fetched and no local file read.
 */
const printer = () => {
  if (!configured) {
    const require = createRequire(import.meta.url);
    for (const file of Object.values(ROBOTO))
      pdfmake.virtualfs.writeFileSync(file, readFileSync(require.resolve(`pdfmake/fonts/Roboto/${file}`)));
    pdfmake.setFonts({ Roboto: ROBOTO });
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy(() => false);
    configured = true;
  }
  return pdfmake;
};

export const renderDocument = (doc: DocumentDefinition): Promise<Buffer> =>
  printer().createPdf(doc).getBuffer();

/** The invoice's PDF, from its row alone: rendering it again gives the same document. */
export const renderInvoicePdf = (invoice: InvoiceRecord): Promise<Buffer> =>
  renderDocument(invoiceDocument(invoice));
