import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { WebhookEventName } from '@stablepay/contracts';
import type { ServiceRole } from '@stablepay/platform';
import { bootService, waitFor, type ServiceUnderTest } from '@stablepay/platform/testing';
import {
  notifierService,
  type NotifierConfig,
  type NotifierContext,
  type Resolver,
} from '../../src/index.js';
import { merchantData } from './fixtures.js';
import { CERT_NAMES, testCertificate } from './tls.js';

export const KEK = randomBytes(32).toString('hex');

/** Fast timings for tests; each suite can override any of them. */
export const TEST_ENV: Record<string, string> = {
  ALLOW_INSECURE_WEBHOOKS: 'true',
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_LEASE_MS: '10000',
  WEBHOOK_RETRY_SCHEDULE: '0,50,100,200',
  WEBHOOK_POLL_MS: '50',
  MAIL_POLL_MS: '50',
  MAIL_RETRY_SCHEDULE: '100,200,400,800,1600',
  MAIL_FROM: 'StablePay <no-reply@pay.example.test>',
};

/** The names the receivers' certificate carries resolve to loopback; the rest does not exist. */
export const loopbackResolver: Resolver = async (host) => {
  if (CERT_NAMES.includes(host.toLowerCase())) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** The notifier's own variables under test: the KEK, the receivers' CA, a fresh mail directory. */
export const harnessEnv = async (over: Record<string, string> = {}): Promise<Record<string, string>> => ({
  WEBHOOK_SECRET_KEK: KEK,
  WEBHOOK_EXTRA_CA_FILE: (await testCertificate()).caFile,
  MAIL_DIR: mkdtempSync(join(tmpdir(), 'notifier-mail-')),
  ...TEST_ENV,
  ...over,
});

const ALL_EVENTS: WebhookEventName[] = [
  'payment.completed',
  'payment.failed',
  'refund.created',
  'refund.completed',
  'refund.failed',
];

export const deliveryStatus = async (
  db: Knex,
  eventId: string,
  endpointId: string,
): Promise<string | undefined> => {
  const row = await db('webhook_deliveries')
    .where({ event_id: eventId, endpoint_id: endpointId, trigger: 'event' })
    .first('status');
  return row?.status as string | undefined;
};

export interface Harness extends ServiceUnderTest<NotifierConfig, NotifierContext> {
  /** A merchant known to the notifier (merchant.created consumed), with an e-mail address. */
  merchant(email?: string): Promise<string>;
  /** Creates an endpoint through the API; returns its id and secret. */
  endpoint(
    merchantId: string,
    url: string,
    events?: WebhookEventName[],
  ): Promise<{ id: string; secret: string }>;
  /** The status of the delivery an event made for an endpoint. */
  deliveryStatus(eventId: string, endpointId: string): Promise<string | undefined>;
}

/** The real notifier (platform test kit: port 0, fresh database and queue prefix) and its helpers. */
export const startHarness = async (
  opts: { env?: Record<string, string>; resolve?: Resolver; role?: ServiceRole } = {},
): Promise<Harness> => {
  const sut = await bootService(notifierService, {
    env: await harnessEnv(opts.env),
    options: { resolve: opts.resolve ?? loopbackResolver },
    role: opts.role,
  });
  return Object.assign(sut, {
    merchant: async (email = `merchant-${randomBytes(4).toString('hex')}@shop.example.test`) => {
      const merchantId = randomUUID();
      await sut.publish('merchant.created', merchantData(merchantId, email));
      await waitFor(
        () => sut.db('merchants').where({ merchant_id: merchantId }).first(),
        10_000,
        'merchant projection',
      );
      return merchantId;
    },
    endpoint: async (merchantId: string, url: string, events = ALL_EVENTS) => {
      const res = await sut.call('POST', '/merchant-webhooks/api/create', {
        merchantId,
        body: { url, events },
      });
      if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.data.id as string, secret: res.body.data.secret as string };
    },
    deliveryStatus: (eventId: string, endpointId: string) => deliveryStatus(sut.db, eventId, endpointId),
  });
};
