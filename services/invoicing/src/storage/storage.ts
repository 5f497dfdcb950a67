/**
 * Where invoice PDFs are kept, by key (`<merchant id>/<year>/<invoice number>.pdf`). An invoice's
 * PDF is written once and never changed; writing the same key again stores the same bytes.
 */
export interface InvoiceStorage {
  readonly kind: 'local' | 's3';
  put(key: string, pdf: Buffer): Promise<void>;
  /** undefined when nothing is stored under the key */
  get(key: string): Promise<Buffer | undefined>;
  /** The storage answers (readiness). */
  check(): Promise<void>;
  close?(): void;
}

/** Keys come from our own ids and invoice numbers; anything else is refused before it reaches a path. */
export const assertSafeKey = (key: string): void => {
  if (
    !/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) ||
    key.split('/').some((part) => part === '..' || part === '')
  )
    throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
};
