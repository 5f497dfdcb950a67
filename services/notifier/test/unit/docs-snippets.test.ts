import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../../src/webhooks/secrets.js';
import { webhookHeaders } from '../../src/webhooks/signature.js';

const doc = readFileSync(new URL('../../../../docs/api/webhooks.md', import.meta.url), 'utf8');
const require = createRequire(import.meta.url);

/** The `js` code block of the document that contains `marker`, exactly as written there. */
const snippet = (marker: string): string => {
  const block = [...doc.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((code) => code.includes(marker));
  if (!block) throw new Error(`no js block with ${marker} in docs/api/webhooks.md`);
  return block;
};

type Verify = (secret: string, rawBody: string, headers: Record<string, unknown>) => boolean;
// The snippet is CommonJS for copy-paste: run as written, with a real `require`.
const documentedVerify = new Function('require', `${snippet('function verify(')}\nreturn verify;`)(
  require,
) as Verify;

const body =
  '{"event":"payment.completed","timestamp":"2026-01-01T00:00:00.000Z","data":{"amount":"1.000000"}}';
/** A delivery's headers as the notifier sends them, lower-cased as Node's http server hands them over. */
const delivery = (secret: string, ts = Math.floor(Date.now() / 1000)) =>
  Object.fromEntries(
    Object.entries(
      webhookHeaders({
        secret,
        body,
        event: 'payment.completed',
        eventId: 'evt',
        isTest: false,
        timestampSeconds: ts,
      }),
    ).map(([k, v]) => [k.toLowerCase(), v]),
  );

describe('the Node snippets of docs/api/webhooks.md, as written', () => {
  it('accept a real delivery and refuse a forged, stale or foreign one', () => {
    const secret = generateWebhookSecret();
    expect(documentedVerify(secret, body, delivery(secret))).to.equal(true);
    expect(documentedVerify(secret, body.replace('1.000000', '9.000000'), delivery(secret))).to.equal(false);
    expect(documentedVerify(secret, body, delivery(secret, Math.floor(Date.now() / 1000) - 301))).to.equal(
      false,
    );
    expect(documentedVerify(generateWebhookSecret(), body, delivery(secret))).to.equal(false);
  });

  it('answer false, not an exception, to any header (a same-length non-ASCII signature included)', () => {
    const secret = generateWebhookSecret();
    const good = delivery(secret);
    const sig = good['x-service-signature']!;
    const nonAscii = `sha256=${'é'.repeat(64)}`;
    expect(nonAscii.length).to.equal(sig.length);
    for (const headers of [
      { ...good, 'x-service-signature': nonAscii },
      { ...good, 'x-service-signature': `sha256=${'€'.repeat(64)}` },
      { ...good, 'x-service-signature': undefined },
      { ...good, 'x-service-signature': `${sig}, ${sig}` },
      { ...good, 'x-service-timestamp': 'soon' },
      {},
    ]) {
      expect(() => documentedVerify(secret, body, headers)).to.not.throw();
      expect(documentedVerify(secret, body, headers)).to.equal(false);
    }
  });

  it('verify with the standardwebhooks library and the secret as shown', () => {
    const secret = generateWebhookSecret();
    const run = new Function(
      'require',
      'secret',
      'rawBody',
      'headers',
      `${snippet("require('standardwebhooks')")}\nreturn event;`,
    );
    expect(run(require, secret, body, delivery(secret))).to.deep.equal(JSON.parse(body));
    expect(() => run(require, generateWebhookSecret(), body, delivery(secret))).to.throw(/signature/i);
    expect(Webhook).to.be.a('function');
  });

  it('re-spell an older base64url secret as the document says', () => {
    let older: string;
    do older = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;
    while (!/[-_]/.test(older));
    const respelled = `whsec_${older.slice(6).replace(/-/g, '+').replace(/_/g, '/')}=`;
    expect(respelled).to.equal('whsec_' + Buffer.from(older.slice(6), 'base64url').toString('base64'));
    expect(new Webhook(respelled).verify(body, delivery(older))).to.deep.equal(JSON.parse(body));
  });
});
