import {
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { PDF_CONTENT_TYPE } from '@stablepay/contracts';
import { assertSafeKey, type InvoiceStorage } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** an S3-compatible endpoint (MinIO, s3rver); AWS when absent */
  endpoint?: string;
  forcePathStyle: boolean;
  /** prefix of every key in the bucket, e.g. `invoices/` */
  prefix: string;
  /** static credentials; the SDK's default chain (environment, instance role) when absent */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** PDFs as objects in an S3-compatible bucket. */
export const s3Storage = (o: S3StorageOptions): InvoiceStorage => {
  const client = new S3Client({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials: o.credentials,
  });
  const keyOf = (key: string) => {
    assertSafeKey(key);
    return `${o.prefix}${key}`;
  };
  return {
    kind: 's3',
    put: async (key, pdf) => {
      await client.send(
        new PutObjectCommand({ Bucket: o.bucket, Key: keyOf(key), Body: pdf, ContentType: PDF_CONTENT_TYPE }),
      );
    },
    get: async (key) => {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key: keyOf(key) }));
        if (!res.Body) return undefined;
        return Buffer.from(await res.Body.transformToByteArray());
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
    check: async () => {
      await client.send(new HeadBucketCommand({ Bucket: o.bucket }));
    },
    close: () => client.destroy(),
  };
};
