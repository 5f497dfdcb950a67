import type { InvoicingConfig } from '../config.js';
import { localStorage } from './local.js';
import { s3Storage } from './s3.js';
import type { InvoiceStorage } from './storage.js';

/** The storage INVOICE_STORAGE names: files under INVOICE_STORAGE_DIR, or an S3-compatible bucket. */
export const storageFromConfig = (c: InvoicingConfig): InvoiceStorage =>
  c.INVOICE_STORAGE === 's3'
    ? s3Storage({
        bucket: c.S3_BUCKET!,
        region: c.S3_REGION,
        endpoint: c.S3_ENDPOINT,
        forcePathStyle: c.S3_FORCE_PATH_STYLE,
        prefix: c.S3_PREFIX,
        credentials:
          c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY
            ? { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY }
            : undefined,
      })
    : localStorage(c.INVOICE_STORAGE_DIR);
