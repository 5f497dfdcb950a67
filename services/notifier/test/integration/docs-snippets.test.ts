import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { webhookHeaders } from '../../src/webhooks/signature.js';
import {
  SNIPPET_LANGUAGES,
  docBlocks,
  interpreterInstalled,
  runSnippets,
  type SnippetCase,
  type Verdicts,
} from '../support/doc-snippets.js';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver, type ReceivedRequest } from '../support/receiver.js';

const lowerCaseNames = (headers: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([name, value]) => [name.toLowerCase(), value]),
  );

/**
 * The delivery as it came, and variants of it, each with the verdicts [spec's check, Standard
 * Webhooks check] it must get. Variants at another time or with another secret are signed by the
 * notifier's own code, so only the timestamp (or the key) differs from a genuine delivery.
 */
const snippetCases = (
  secret: string,
  req: ReceivedRequest,
): (SnippetCase & { want: [boolean, boolean] })[] => {
  const received = lowerCaseNames(req.headers);
  const body = req.raw;
  const eventId = received['webhook-id']!;
  const sentAt = Number(received['x-service-timestamp']);
  const now = Math.floor(Date.now() / 1000);
  const signed = (timestampSeconds: number, key = secret) =>
    lowerCaseNames(
      webhookHeaders({
        secret: key,
        body,
        event: 'payment.completed',
        eventId,
        isTest: false,
        timestampSeconds,
      }),
    );
  const forged = signed(sentAt, `whsec_${randomBytes(32).toString('base64')}`);
  // Digits to Unicode but not to ASCII: Python's isdigit() takes them all, and its int() refuses '²'.
  const oddDigits = '\u0661\u0667\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u00b2';
  const variant = (
    name: string,
    want: [boolean, boolean],
    headers: Record<string, string>,
    altered = body,
  ) => ({
    name,
    want,
    body: altered,
    headers,
  });
  return [
    variant('as delivered', [true, true], received),
    variant('signed again 200 s ago', [true, true], signed(now - 200)),
    variant('with a wrong webhook signature beside the right one', [true, true], {
      ...received,
      'webhook-signature': `${forged['webhook-signature']} ${received['webhook-signature']}`,
    }),
    variant('with its body altered', [false, false], received, body.replace('25.500000', '2550.000000')),
    variant('signed with another secret', [false, false], forged),
    variant('with same-length non-ASCII signatures', [false, false], {
      ...received,
      'x-service-signature': `sha256=${'\u00e9'.repeat(64)}`,
      'webhook-signature': `v1,${'\u00e9'.repeat(44)}`,
    }),
    variant('with truncated signatures', [false, false], {
      ...received,
      'x-service-signature': received['x-service-signature']!.slice(0, 20),
      'webhook-signature': received['webhook-signature']!.slice(0, 20),
    }),
    variant('with a non-ASCII webhook-id', [true, false], {
      ...received,
      'webhook-id': '\u00e9'.repeat(eventId.length),
    }),
    variant('with timestamps in non-ASCII digits', [false, false], {
      ...received,
      'x-service-timestamp': oddDigits,
      'webhook-timestamp': oddDigits,
    }),
    variant('without signature headers', [false, false], { 'content-type': 'application/json' }),
    variant('signed 301 s ago (stale)', [false, false], signed(now - 301)),
    variant('signed 400 s ahead', [false, false], signed(now + 400)),
  ];
};

describe('the webhook snippets of docs/api/webhooks.md on a real delivery', function () {
  this.timeout(60_000);
  let h: Harness;
  let rx: Receiver;
  let secret: string;
  let cases: ReturnType<typeof snippetCases>;

  before(async () => {
    rx = await Receiver.start();
    h = await startHarness();
    const merchantId = await h.merchant();
    ({ secret } = await h.endpoint(merchantId, rx.url('/snippets'), ['payment.completed']));
    await h.publish('payment.completed', paymentData(merchantId));
    const [req] = (await rx.waitForRequests('/snippets', 1)) as ReceivedRequest[];
    cases = snippetCases(secret, req!);
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  for (const language of SNIPPET_LANGUAGES) {
    it(`in ${language.name}: accept it, refuse forged, odd and stale ones without an error`, function () {
      if (!interpreterInstalled(language)) {
        console.log(
          `      ${language.command} not installed (Debian: apt-get install -y ${language.debianPackage}): ` +
            `the ${language.name} snippets are not run`,
        );
        return this.skip();
      }
      const code = docBlocks(language.fence).join('\n');
      for (const declaration of language.declarations) expect(code).to.include(declaration);
      const want: Verdicts = Object.fromEntries(cases.map((c) => [c.name, c.want]));
      const given = cases.map(({ want: _, ...c }) => c);
      expect(runSnippets(language, secret, given)).to.deep.equal(want);
    });
  }
});
