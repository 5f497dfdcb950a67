import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { localStorage, s3Storage, type InvoiceStorage } from '../../src/index.js';
import { startHarness, type Harness } from '../support/harness.js';
import { pdfText } from '../support/pdf-text.js';

const PDF = Buffer.from('%PDF-1.3\nnot really a pdf\n');
const KEY = '0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f/2026/INV-2026-0001.pdf';

/** What every storage must do, whatever keeps the bytes. */
const behavesAsStorage = (make: () => InvoiceStorage) => {
  it('stores and returns the bytes under their key, and nothing under other keys', async () => {
    const storage = make();
    await storage.check();
    expect(await storage.get(KEY)).to.equal(undefined);
    await storage.put(KEY, PDF);
    expect((await storage.get(KEY))!.equals(PDF)).to.equal(true);
    await storage.put(KEY, PDF);
    expect((await storage.get(KEY))!.equals(PDF)).to.equal(true);
  });

  it('refuses keys that could leave its place', async () => {
    const storage = make();
    for (const key of ['../escape.pdf', '/abs.pdf', 'a//b.pdf', 'a/../../b.pdf'])
      await storage.put(key, PDF).then(
        () => expect.fail(`${key} was accepted`),
        (err: Error) => expect(err.message).to.match(/unsafe storage key/),
      );
  });
};

describe('invoice storage on the local filesystem', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sp-storage-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  behavesAsStorage(() => localStorage(dir));

  it('leaves no temporary file behind', async () => {
    await localStorage(dir).put('m/2026/INV-2026-0002.pdf', PDF);
    expect(readdirSync(join(dir, 'm', '2026'))).to.deep.equal(['INV-2026-0002.pdf']);
  });
});

describe('invoice storage in an S3-compatible bucket (s3rver)', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'sp-s3rver-'));
  let server: S3rver;
  let endpoint: string;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = () => new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });

  before(async () => {
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
    const { port } = (await server.run()) as { port: number };
    endpoint = `http://127.0.0.1:${port}`;
    await client().send(new CreateBucketCommand({ Bucket: 'invoices' }));
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const storage = () =>
    s3Storage({
      bucket: 'invoices',
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      prefix: 'pdf/',
      credentials,
    });
  behavesAsStorage(storage);

  it('keeps each PDF as an object under the prefix, typed application/pdf', async () => {
    await storage().put(KEY, PDF);
    const object = await client().send(new GetObjectCommand({ Bucket: 'invoices', Key: `pdf/${KEY}` }));
    expect(object.ContentType).to.equal('application/pdf');
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(PDF)).to.equal(true);
  });

  it('fails the readiness check when the bucket does not exist', async () => {
    const missing = s3Storage({
      bucket: 'nope',
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      prefix: '',
      credentials,
    });
    await missing.check().then(
      () => expect.fail('the check passed'),
      (err: Error) => expect(err).to.be.an('error'),
    );
  });

  describe('the service with INVOICE_STORAGE=s3', () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({
        INVOICE_STORAGE: 's3',
        S3_BUCKET: 'invoices',
        S3_ENDPOINT: endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'svc/',
        S3_ACCESS_KEY_ID: credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      });
    });
    after(async () => h?.close());

    it('stores the invoice PDF in the bucket and serves it from there', async () => {
      const m = h.merchant();
      const w = await h.withdraw(m, { amount: '50' });
      await h.complete(m, w.id);
      const invoice = await h.waitForInvoice(m, w.id);
      const object = await client().send(
        new GetObjectCommand({ Bucket: 'invoices', Key: `svc/${invoice.pdf_url}` }),
      );
      const stored = Buffer.from(await object.Body!.transformToByteArray());
      expect(await pdfText(stored)).to.contain(invoice.invoice_number);
      const served = await h.call('GET', `/invoices/api/${invoice.id}/pdf`, { merchantId: m.merchantId });
      expect(served.status).to.equal(200);
      expect((await h.call('GET', '/readyz')).status).to.equal(200);
    });
  });
});
