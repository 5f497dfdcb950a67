import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { paymentData } from '../support/fixtures.js';
import { startHarness, type Harness } from '../support/harness.js';
import { Receiver, type ReceivedRequest } from '../support/receiver.js';

const doc = readFileSync(new URL('../../../../docs/api/webhooks.md', import.meta.url), 'utf8');
const pythonBlocks = [...doc.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');

/**
 * Runs the document's Python functions, as written, on one received request: as it came, with its
 * body altered, with same-length non-ASCII signatures, and with the clock 301 s later (stale).
 */
const HARNESS = `
import json, sys, time
${pythonBlocks}
case = json.load(sys.stdin)
class Headers(dict):
    def get(self, name, default=None):
        return super().get(name.lower(), default)
headers = Headers({k.lower(): v for k, v in case["headers"].items()})
body = case["body"].encode()
forged = body.replace(b"25.500000", b"2550.000000")
out = {}
for name in ("verify", "verify_standard"):
    fn = globals()[name]
    out[name] = [fn(case["secret"], body, headers), fn(case["secret"], forged, headers)]
odd = Headers({**headers, "x-service-signature": "sha256=" + "\u00e9" * 64, "webhook-signature": "v1," + "\u00e9" * 44})
out["non_ascii"] = [verify(case["secret"], body, odd), verify_standard(case["secret"], body, odd)]
now = time.time()
time.time = lambda: now + 301
out["stale"] = [verify(case["secret"], body, headers), verify_standard(case["secret"], body, headers)]
print(json.dumps(out))
`;

const python = (() => {
  try {
    execFileSync('python3', ['--version']);
    return 'python3';
  } catch {
    return undefined;
  }
})();

describe('the Python snippets of docs/api/webhooks.md on a real delivery', function () {
  this.timeout(30_000);
  let h: Harness;
  let rx: Receiver;

  before(async function () {
    if (!python) this.skip();
    rx = await Receiver.start();
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
    await rx?.close();
  });

  it('accept it, and refuse a forged body and a stale timestamp', async () => {
    const merchantId = await h.merchant();
    const { secret } = await h.endpoint(merchantId, rx.url('/python'), ['payment.completed']);
    await h.publish('payment.completed', paymentData(merchantId));
    const [req] = (await rx.waitForRequests('/python', 1)) as ReceivedRequest[];
    expect(pythonBlocks).to.include('def verify(').and.to.include('def verify_standard(');
    const out = JSON.parse(
      execFileSync(python!, ['-c', HARNESS], {
        input: JSON.stringify({ secret, body: req!.raw, headers: req!.headers }),
        encoding: 'utf8',
      }),
    );
    expect(out).to.deep.equal({
      verify: [true, false],
      verify_standard: [true, false],
      non_ascii: [false, false],
      stale: [false, false],
    });
  });
});
