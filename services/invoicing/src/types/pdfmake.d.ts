/** The part of pdfmake 0.3's server API this service uses (the package ships no types). */
declare module 'pdfmake' {
  export type Content = Record<string, unknown> | string | Content[];
  export interface DocumentDefinition {
    content: Content;
    [key: string]: unknown;
  }
  export interface OutputDocument {
    getBuffer(): Promise<Buffer>;
  }
  export interface FontFamily {
    normal: string;
    bold: string;
    italics: string;
    bolditalics: string;
  }
  interface PdfMake {
    /** Files pdfmake reads fonts from before it would read the disk. */
    virtualfs: { writeFileSync(name: string, content: Buffer): void };
    setFonts(fonts: Record<string, FontFamily>): void;
    setUrlAccessPolicy(policy: (url: string) => boolean): void;
    setLocalAccessPolicy(policy: (path: string) => boolean): void;
    createPdf(doc: DocumentDefinition): OutputDocument;
  }
  const pdfmake: PdfMake;
  export default pdfmake;
}
