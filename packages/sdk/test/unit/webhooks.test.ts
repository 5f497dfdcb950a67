import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { webhookHeaders } from '@stablepay/notifier/webhooks/signature';
import { generateWebhookSecret } from '@stablepay/notifier/webhooks/secrets';
import { Stablepay, WebhookVerificationError, constructEvent } from '../../src/index.js';

const body = JSON.stringify({
  event: 'payment.completed',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { payment_id: randomUUID(), amount: '12.000000', currency: 'USDC', status: 'completed' },
});
const now = () => Math.floor(Date.now() / 1000);

/** Headers exactly as the notifier sends them, in the casing an HTTP server hands them over. */
const delivered = (secret: string, raw = body, ts = now()) =>
  Object.fromEntries(
    Object.entries(
      webhookHeaders({
        secret,
        body: raw,
        event: 'payment.completed',
        eventId: randomUUID(),
        isTest: false,
        timestampSeconds: ts,
      }),
    ).map(([k, v]) => [k.toLowerCase(), v]),
  );

const refusal = async (p: Promise<unknown>): Promise<WebhookVerificationError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'refused').to.be.instanceOf(WebhookVerificationError);
  return err as WebhookVerificationError;
};

describe('Stablepay.webhooks.constructEvent', () => {
  it('accepts what the notifier signs and returns the typed event', async () => {
    const secret = generateWebhookSecret();
    const event = await Stablepay.webhooks.constructEvent(body, delivered(secret), secret);
    expect(event.event).to.equal('payment.completed');
    expect(event.data).to.include({ amount: '12.000000', currency: 'USDC' });
    // The raw bytes, a fetch Headers object and the older base64url secrets work the same.
    const older = `whsec_${Buffer.from(randomUUID()).toString('base64url')}`;
    const headers = new Headers(delivered(older));
    expect((await constructEvent(Buffer.from(body), headers, older)).event).to.equal('payment.completed');
  });

  it('refuses another secret, a changed body and a stale or future timestamp', async () => {
    const secret = generateWebhookSecret();
    await refusal(constructEvent(body, delivered(secret), generateWebhookSecret()));
    await refusal(constructEvent(body.replace('12.000000', '99.000000'), delivered(secret), secret));
    await refusal(constructEvent(body, delivered(secret, body, now() - 301), secret));
    await refusal(constructEvent(body, delivered(secret, body, now() + 301), secret));
    const old = delivered(secret, body, now() - 3600);
    expect((await constructEvent(body, old, secret, { toleranceSeconds: 7200 })).event).to.equal(
      'payment.completed',
    );
  });

  it('throws only its own error whatever the headers hold', async () => {
    const secret = generateWebhookSecret();
    const good = delivered(secret);
    const sig = good['x-service-signature']!;
    const sameLengthNonAscii = `sha256=${'é'.repeat(64)}`;
    expect(sameLengthNonAscii.length).to.equal(sig.length);
    const cases: Array<Record<string, unknown>> = [
      { ...good, 'x-service-signature': sameLengthNonAscii },
      { ...good, 'x-service-signature': `sha256=${'\u0000'.repeat(64)}` },
      { ...good, 'x-service-signature': sig.toUpperCase() },
      { ...good, 'x-service-signature': sig.slice(0, -1) },
      { ...good, 'x-service-signature': `${sig}00` },
      { ...good, 'x-service-signature': [`${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`, sig] },
      { ...good, 'x-service-signature': undefined },
      { ...good, 'x-service-timestamp': 'NaN' },
      { ...good, 'x-service-timestamp': '1e3' },
      { ...good, 'x-service-timestamp': '9'.repeat(400) },
      {},
    ];
    for (const [i, headers] of cases.entries()) {
      const err = await constructEvent(body, headers as Record<string, string>, secret).catch(
        (e: unknown) => e,
      );
      expect(err, `case ${i}`).to.be.instanceOf(WebhookVerificationError);
    }
    await refusal(constructEvent(body, null as unknown as Record<string, string>, secret));
    await refusal(constructEvent({ parsed: true } as unknown as string, good, secret));
    await refusal(constructEvent(body, good, undefined as unknown as string));
    await refusal(constructEvent('not json', delivered(secret, 'not json'), secret));
  });
});
