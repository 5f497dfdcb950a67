import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError } from '@stablepay/platform';
import { loadNotifierConfig } from '../../src/index.js';

const BASE = {
  INTERNAL_TOKEN_SECRET: 'x'.repeat(32),
  WEBHOOK_SECRET_KEK: 'ab'.repeat(32),
};

const problems = (env: Record<string, string>): string => {
  try {
    loadNotifierConfig({ ...BASE, ...env });
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error('configuration was accepted');
};

describe('notifier configuration', () => {
  it('applies the defaults: the spec’s 5-second window, Svix’s schedule, the secure policy', () => {
    const c = loadNotifierConfig(BASE);
    expect(c).to.include({
      PORT: 8105,
      DATABASE_SCHEMA: 'notifier',
      WEBHOOK_TIMEOUT_MS: 5000,
      ALLOW_INSECURE_WEBHOOKS: false,
      WEBHOOK_RETRY_JITTER: 0.2,
      WEBHOOK_CONCURRENCY: 64,
      WEBHOOK_ENDPOINT_CONCURRENCY: 4,
      WEBHOOK_LEASE_MS: 30_000,
      WEBHOOK_REPLAY_MAX_EVENTS: 10_000,
      MAIL_DIR: 'var/mail',
    });
    expect(c.WEBHOOK_RETRY_SCHEDULE).to.deep.equal([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(c.WEBHOOK_SECRET_KEK).to.deep.equal(Buffer.from('ab'.repeat(32), 'hex'));
    expect(c.SMTP_URL).to.equal(undefined);
    expect(c.extraCaPem).to.equal(undefined);
  });

  it('reads the schedule, the KEK as base64 and the extra CA file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'notifier-config-'));
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const c = loadNotifierConfig({
      ...BASE,
      WEBHOOK_SECRET_KEK: Buffer.alloc(32, 7).toString('base64'),
      WEBHOOK_RETRY_SCHEDULE: '0,50,100ms,1s',
      WEBHOOK_TIMEOUT_MS: '800',
      WEBHOOK_LEASE_MS: '2600',
      WEBHOOK_EXTRA_CA_FILE: ca,
      SMTP_URL: 'smtp://127.0.0.1:2525?ignoreTLS=true',
    });
    expect(c.WEBHOOK_RETRY_SCHEDULE).to.deep.equal([0, 50, 100, 1000]);
    expect(c.WEBHOOK_SECRET_KEK).to.deep.equal(Buffer.alloc(32, 7));
    expect(c.extraCaPem).to.include('BEGIN CERTIFICATE');
  });

  it('fails fast naming each bad variable', () => {
    const msg = problems({
      WEBHOOK_SECRET_KEK: 'short',
      WEBHOOK_RETRY_SCHEDULE: 'soon',
      WEBHOOK_TIMEOUT_MS: 'x',
    });
    expect(msg)
      .to.include('WEBHOOK_SECRET_KEK')
      .and.include('WEBHOOK_RETRY_SCHEDULE')
      .and.include('WEBHOOK_TIMEOUT_MS');
    expect(problems({ WEBHOOK_SECRET_KEK: '' })).to.include('WEBHOOK_SECRET_KEK');
  });

  it('never relaxes the webhook policy in production', () => {
    expect(problems({ NODE_ENV: 'production', ALLOW_INSECURE_WEBHOOKS: 'true' })).to.include(
      'ALLOW_INSECURE_WEBHOOKS',
    );
    expect(problems({ NODE_ENV: 'production', WEBHOOK_EXTRA_CA_FILE: '/tmp/ca.pem' })).to.include(
      'WEBHOOK_EXTRA_CA_FILE',
    );
    expect(loadNotifierConfig({ ...BASE, ALLOW_INSECURE_WEBHOOKS: 'true' }).ALLOW_INSECURE_WEBHOOKS).to.equal(
      true,
    );
  });

  it('keeps a lease longer than a request can take', () => {
    expect(problems({ WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '10999' })).to.include(
      'WEBHOOK_LEASE_MS',
    );
    expect(
      loadNotifierConfig({ ...BASE, WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '11000' }).WEBHOOK_LEASE_MS,
    ).to.equal(11_000);
    expect(problems({ WEBHOOK_EXTRA_CA_FILE: '/nonexistent/ca.pem' })).to.include('WEBHOOK_EXTRA_CA_FILE');
  });
});
