import { PDFParse } from 'pdf-parse';

/** The text of a PDF, read back as a reader would see it. */
export const pdfText = async (pdf: Buffer | Uint8Array): Promise<string> => {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
};
