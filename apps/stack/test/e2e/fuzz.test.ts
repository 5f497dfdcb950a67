import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import {
  API_KEY_SCOPES,
  ErrorEnvelope,
  INSUFFICIENT_SCOPE,
  admitsApiKey,
  allRoutes,
  type ApiKeyScope,
  type RouteSpec,
} from '@stablepay/contracts';
import { signInternalToken } from '@stablepay/platform';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';
import { createRandom, fuzzSeed } from '../support/fuzz/random.js';
import { requestsFor, type FuzzRequest, type RouteContext } from '../support/fuzz/requests.js';
import { rowCounts } from '../support/fuzz/row-counts.js';
import { sendAll, type FuzzAnswer } from '../support/fuzz/send.js';
import { uuidFrom } from '../support/fuzz/schema-model.js';
import { paymentBody } from '../support.js';

/** At least this many refused requests per run, spread over every route of the catalogue. */
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_500);
const GATEWAY_BODY_LIMIT = 64 * 1024;
const PROXY_BODY_LIMIT = 1024 * 1024;

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Every route of the catalogue, internal ones included, fed generated requests its contract
 * refuses (wrong types, missing fields, values past each bound, malformed and oversized bodies,
 * hostile text, bad path and query parameters, refused credentials) on the whole stack: no answer
 * is a 5xx, every answer is a 4xx in the error envelope, and no table of any service gains a row.
 * The run is seeded: `FUZZ_SEED=<seed>` replays a failing one.
 */
describe('fuzzing every route of the catalogue (whole stack)', function () {
  this.timeout(240_000);
  const seed = fuzzSeed();
  let h: StackHarness;
  let shop: Merchant;
  let other: Merchant;
  let own: { webhookId: string; sessionId: string; spareKeyId: string; merchantUuid: string };
  let foreign: { webhookId: string; sessionId: string; keyId: string };
  let revokedKey: string;
  let serviceSecret: string;
  /** The shop's key holding every scope: a request it sends is refused for itself, never for a scope. */
  let fullKey: Record<string, string>;
  /** Per scope, a key of the shop holding every scope but that one. */
  const lacking = new Map<ApiKeyScope, Record<string, string>>();
  const shopEmail = `fuzz-${Date.now()}@example.com`;

  before(async () => {
    h = await startStackHarness({
      // Loopback webhook receivers are allowed, so a refused endpoint is refused for its text alone.
      ALLOW_INSECURE_WEBHOOKS: 'true',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '10000000',
      RATE_LIMIT_KEY_PER_MINUTE: '10000000',
      RATE_LIMIT_AUTH_PER_MINUTE: '10000000',
      RATE_LIMIT_FAILED_KEYS_PER_MINUTE: '10000000',
      SIGNIN_LOCKOUT_FAILURES: '10000000',
    });
    [shop, other] = await Promise.all([
      h.register(shopEmail),
      h.register(`fuzz-other-${Date.now()}@example.com`),
    ]);
    const hook = (m: Merchant) =>
      h.gw.call('POST', '/merchant-webhooks/api/create', {
        headers: m.key,
        body: { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] },
      });
    const session = (m: Merchant) =>
      h.gw.call('POST', '/checkout/sessions', {
        headers: m.key,
        body: { amount: '25.00', currency: 'USDC', return_url: 'https://shop.example/thanks' },
      });
    const key = (m: Merchant, name: string) =>
      h.gw.call('POST', '/api-keys', { headers: m.bearer, body: { name } });
    const [ownHook, ownSession, spare, revoked, otherHook, otherSession, otherKey] = await Promise.all([
      hook(shop),
      session(shop),
      key(shop, 'spare'),
      key(shop, 'revoked'),
      hook(other),
      session(other),
      key(other, 'theirs'),
    ]);
    for (const r of [ownHook, ownSession, spare, revoked, otherHook, otherSession, otherKey])
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const revoke = await h.gw.call('DELETE', `/api-keys/${revoked.body.data.id}`, { headers: shop.bearer });
    expect(revoke.status).to.equal(200);
    revokedKey = revoked.body.data.key;
    const [{ id: merchantUuid }] = await h.query<{ id: string }>(
      'select id from gateway.merchants where public_id = $1',
      [shop.merchantId],
    );
    own = {
      webhookId: ownHook.body.data.id,
      sessionId: ownSession.body.data.id,
      spareKeyId: spare.body.data.id,
      merchantUuid: merchantUuid!,
    };
    foreign = {
      webhookId: otherHook.body.data.id,
      sessionId: otherSession.body.data.id,
      keyId: otherKey.body.data.id,
    };
    serviceSecret = JSON.parse(readFileSync(join(h.varDir, 'secrets.json'), 'utf8')).INTERNAL_TOKEN_SECRET;
    fullKey = await h.createKey(shop, [...API_KEY_SCOPES], 'every scope');
    for (const scope of API_KEY_SCOPES)
      lacking.set(
        scope,
        await h.createKey(
          shop,
          API_KEY_SCOPES.filter((s) => s !== scope),
          `all but ${scope}`,
        ),
      );
  });
  after(() => h?.close());

  const credentials = (route: RouteSpec): Pick<RouteContext, 'credential' | 'badCredentials'> => {
    const forged = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: uuidFrom(createRandom(seed)), exp: 4e9 })}.${'A'.repeat(43)}`;
    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: shop.merchantId, exp: 4e9 })}.`;
    const key = shop.key['x-api-key']!;
    switch (route.auth) {
      case 'key':
        return {
          credential: fullKey,
          badCredentials: [
            { label: `key without ${route.scope}`, headers: lacking.get(route.scope!)! },
            { label: 'no credential', headers: {} },
            { label: 'unknown key', headers: { 'x-api-key': `sk_live_${'0'.repeat(40)}` } },
            {
              label: 'key with one character changed',
              headers: { 'x-api-key': `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}` },
            },
            { label: 'revoked key', headers: { 'x-api-key': revokedKey } },
            { label: 'bearer token instead of a key', headers: shop.bearer },
            { label: 'empty key', headers: { 'x-api-key': '' } },
            { label: '4 KB key', headers: { 'x-api-key': 'k'.repeat(4096) } },
            { label: 'SQL in the key', headers: { 'x-api-key': "' OR '1'='1" } },
          ],
        };
      case 'jwt':
      case 'jwt_or_key':
        return {
          credential: shop.bearer,
          badCredentials: [
            { label: 'no credential', headers: {} },
            { label: 'garbage bearer', headers: { authorization: 'Bearer garbage' } },
            { label: 'empty bearer', headers: { authorization: 'Bearer ' } },
            { label: 'alg none', headers: { authorization: `Bearer ${unsigned}` } },
            { label: 'forged signature', headers: { authorization: `Bearer ${forged}` } },
            { label: 'basic scheme', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
            ...(route.auth === 'jwt' ? [{ label: 'API key instead of a token', headers: shop.key }] : []),
            { label: 'revoked key', headers: { 'x-api-key': revokedKey } },
          ],
        };
      case 'service': {
        const token = (secret: string, claims: Parameters<typeof signInternalToken>[1], ttl = 60) => ({
          'x-internal-token': signInternalToken(secret, claims, ttl),
        });
        return {
          credential: token(serviceSecret, { caller: 'service' }, 600),
          badCredentials: [
            { label: 'no token', headers: {} },
            { label: 'garbage token', headers: { 'x-internal-token': 'garbage' } },
            { label: 'token of another secret', headers: token('x'.repeat(32), { caller: 'service' }) },
            { label: 'expired token', headers: token(serviceSecret, { caller: 'service' }, -60) },
            {
              label: 'API key caller',
              headers: token(serviceSecret, { caller: 'api_key', merchantId: own.merchantUuid }),
            },
            { label: 'API key instead of a token', headers: shop.key },
          ],
        };
      }
      default:
        return { credential: {}, badCredentials: [] };
    }
  };

  /** Existing resources of the signed-in merchant, so a refused body is refused for itself. */
  const ownParams = (route: RouteSpec): Record<string, string> | undefined => {
    if (/^\/merchant-webhooks(\/api)?\/:id/.test(route.path))
      return { id: own.webhookId, deliveryId: uuidFrom(createRandom(1)) };
    if (/^\/checkout[-/]sessions\/:id/.test(route.path)) return { id: own.sessionId };
    if (route.path.startsWith('/merchants/:id')) return { id: shop.merchantId };
    if (route.path.startsWith('/api-keys/:id')) return { id: own.spareKeyId };
    if (route.path.startsWith('/internal/wallets/:merchantId')) return { merchantId: own.merchantUuid };
    return undefined;
  };

  /** Another merchant's resources: a merchant's credential must not reach them (answered as unknown). */
  const foreignParams = (route: RouteSpec): Array<Record<string, string>> | undefined => {
    if (route.auth === 'public' || route.auth === 'service') return undefined;
    if (/^\/merchant-webhooks(\/api)?\/:id/.test(route.path))
      return [{ id: foreign.webhookId, deliveryId: uuidFrom(createRandom(2)) }];
    if (/^\/checkout[-/]sessions\/:id/.test(route.path)) return [{ id: foreign.sessionId }];
    if (route.path.startsWith('/api-keys/:id')) return [{ id: foreign.keyId }];
    return undefined;
  };

  /** Requests the schemas accept but the domain refuses: unknown references, nothing to pay out. */
  const semantic = (route: RouteSpec): RouteContext['semantic'] => {
    const rnd = createRandom(seed ^ 7);
    switch (route.operationId) {
      case 'createPublicPayment':
        return [
          { label: 'unknown merchant', body: paymentBody(`sp_live_${uuidFrom(rnd)}`, { chainId: 8453 }) },
          {
            label: 'cross-chain with neither bridgeKit nor feeQuote',
            body: paymentBody(shop.merchantId, {
              isCrossChain: true,
              chainId: shop.wallet.chainId,
              toAddress: shop.wallet.address,
            }),
          },
        ];
      case 'createRefund':
      case 'createRefundDashboard':
        return [{ label: 'unknown payment', body: { paymentId: uuidFrom(rnd), reason: 'other' } }];
      case 'createWithdrawalApi':
      case 'createWithdrawal':
        return [
          {
            label: 'more than the balance',
            body: { amount: '1000', currency: 'USDC', destination_address: shop.wallet.address },
          },
          { label: 'an empty wallet', body: { currency: 'EURC', destination_address: shop.wallet.address } },
        ];
      case 'login':
        return [
          {
            label: 'unknown account',
            body: { email: 'nobody@example.com', password: 'correct horse battery staple' },
          },
        ];
      case 'refreshToken':
        return [{ label: 'unknown refresh token', body: { refresh_token: 'r'.repeat(64) } }];
      case 'register':
        // A registered e-mail is answered as a new one by design (docs/api/security.md); a chain
        // this deployment does not serve is refused.
        return [
          {
            label: 'a chain not served',
            body: { email: shopEmail, password: 'p'.repeat(12), merchantName: 'Shop', blockchain: 'ARB' },
          },
        ];
      case 'confirmEmail':
        return [
          { label: 'unknown confirmation link', body: { token: `${uuidFrom(rnd)}.${'A'.repeat(43)}` } },
        ];
      case 'getCctpFee':
        return [{ label: 'destination chain not served', query: 'destinationChain=SEI&productPrice=10' }];
      default:
        return undefined;
    }
  };

  const contextFor = (route: RouteSpec): RouteContext => ({
    ...credentials(route),
    ownParams: ownParams(route),
    foreignParams: foreignParams(route),
    semantic: semantic(route),
    bodyLimit: route.service === 'gateway' ? GATEWAY_BODY_LIMIT : PROXY_BODY_LIMIT,
  });

  it('answers every refused request with a 4xx in the envelope, never a 5xx, and stores nothing', async () => {
    const rng = createRandom(seed);
    const routes = allRoutes.filter((r) => !r.planned);
    const quota = Math.ceil(TOTAL / routes.length);
    const requests: FuzzRequest[] = routes.flatMap((route) =>
      requestsFor(route, contextFor(route), rng.fork(route.operationId), quota),
    );
    const serviceUrl = (name: string) => h.stack.services.find((s) => s.name === name)!.url;
    const byOperation = new Map(routes.map((r) => [r.operationId, r]));
    const baseUrl = (req: FuzzRequest) => {
      const route = byOperation.get(req.operationId)!;
      return route.internal ? serviceUrl(route.service) : h.stack.gatewayUrl;
    };

    const before = await rowCounts(h);
    const failures: string[] = [];
    const perRoute = new Map<string, { sent: number; statuses: Map<number, number> }>();
    const started = Date.now();
    await sendAll(baseUrl, requests, (req, answer) => {
      const tally = perRoute.get(req.operationId) ?? { sent: 0, statuses: new Map() };
      tally.sent++;
      tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
      perRoute.set(req.operationId, tally);
      const problem = problemWith(answer) ?? expectedStatus(req, answer);
      if (problem && failures.length < 40)
        failures.push(
          `${req.method} ${req.path.slice(0, 160)} [${req.kind}: ${req.label.slice(0, 80)}] -> ${answer.status} ${problem}: ${answer.text.slice(0, 200)}`,
        );
    });
    const seconds = (Date.now() - started) / 1000;
    const after = await rowCounts(h);

    const lines = routes.map((r) => {
      const t = perRoute.get(r.operationId);
      const statuses = [...(t?.statuses ?? new Map<number, number>())]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}:${n}`);
      return `  ${String(t?.sent ?? 0).padStart(5)}  ${r.method.toUpperCase().padEnd(6)} ${r.path.padEnd(58)} ${statuses.join(' ')}`;
    });
    console.log(
      `fuzz seed ${seed}: ${requests.length} requests in ${seconds.toFixed(1)} s\n${lines.join('\n')}`,
    );

    const replay = `(replay with FUZZ_SEED=${seed})`;
    expect(failures, `${failures.length} bad answers ${replay}:\n${failures.join('\n')}`).to.deep.equal([]);
    expect(requests.length).to.be.at.least(10_000);
    for (const r of routes)
      expect(perRoute.get(r.operationId)?.sent ?? 0, r.operationId).to.be.greaterThan(0);
    // A refused sign-in is the one refusal kept, as evidence: one audit row per unknown-account login.
    const signIns = requests.filter((r) => r.operationId === 'login' && r.kind === 'semantic').length;
    const failedLogins = 'gateway.audit_log[auth.login_failed]';
    expect((after[failedLogins] ?? 0) - (before[failedLogins] ?? 0)).to.equal(signIns);
    const grown = Object.keys(after).filter(
      (t) => t !== failedLogins && t !== 'gateway.audit_log' && after[t] !== before[t],
    );
    expect(
      grown.map((t) => `${t}: ${before[t]} -> ${after[t]}`),
      `rows stored by refused requests ${replay}`,
    ).to.deep.equal([]);
  });

  it('refuses every key route of the catalogue to a key lacking its scope, at the gateway and again at the owning service', async () => {
    const keyRoutes = allRoutes.filter((r) => admitsApiKey(r) && !r.planned);
    expect(keyRoutes.length).to.be.at.least(30);
    const serviceUrl = (name: string) => h.stack.services.find((s) => s.name === name)!.url;
    const before = await rowCounts(h);
    const refusals: string[] = [];
    const check = (where: string, scope: string, status: number, body: ErrorEnvelope | undefined) => {
      const detail = body?.details?.[0];
      if (status !== 403 || detail?.code !== INSUFFICIENT_SCOPE || !detail.message.includes(scope))
        refusals.push(`${where} -> ${status} ${JSON.stringify(body)}`);
    };
    for (const route of keyRoutes) {
      const scope = route.scope!;
      const method = route.method.toUpperCase();
      const params = ownParams(route) ?? {};
      const path = route.path.replace(
        /:([A-Za-z]+)/g,
        (_m, name: string) => params[name] ?? uuidFrom(createRandom(3)),
      );
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const viaGateway = await h.gw.call(method, path, { headers: lacking.get(scope)!, body });
      check(`gateway ${method} ${route.path}`, scope, viaGateway.status, viaGateway.body);
      // A route the gateway owns (the merchant settings) is served where the key was checked: no
      // internal token reaches it, so there is no second service to ask.
      if (route.service === 'gateway') continue;
      // What a gateway that forgot the check would send: the key's real scopes, without this one.
      const token = signInternalToken(serviceSecret, {
        caller: 'api_key',
        merchantId: own.merchantUuid,
        merchantPublicId: shop.merchantId,
        apiKeyId: own.spareKeyId,
        scopes: API_KEY_SCOPES.filter((s) => s !== scope),
      });
      const direct = await fetch(`${serviceUrl(route.service)}${path}`, {
        method,
        headers: { 'x-internal-token': token, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      check(
        `${route.service} ${method} ${route.path}`,
        scope,
        direct.status,
        (await direct.json()) as ErrorEnvelope,
      );
    }
    expect(refusals, refusals.join('\n')).to.deep.equal([]);
    const after = await rowCounts(h);
    const grown = Object.keys(after).filter((t) => after[t] !== before[t]);
    expect(grown.map((t) => `${t}: ${before[t]} -> ${after[t]}`)).to.deep.equal([]);
  });

  it('refuses a withdrawal to a key with the default scopes, and lets one given withdrawals:write through the scope check', async () => {
    const body = { amount: '1000', currency: 'USDC', destination_address: shop.wallet.address };
    const standard = await h.gw.call('POST', '/withdrawals/api/create', { headers: shop.key, body });
    expect(standard.status).to.equal(403);
    expect(standard.body.details).to.deep.equal([
      {
        path: '',
        code: INSUFFICIENT_SCOPE,
        message: 'The API key needs the scope withdrawals:write: create a key that holds it',
      },
    ]);
    const payouts = await h.createKey(shop, ['withdrawals:write'], 'payouts');
    const passed = await h.gw.call('POST', '/withdrawals/api/create', { headers: payouts, body });
    // Past the scope check, the invoicing service answers for itself: the wallet holds nothing.
    expect(passed.status, JSON.stringify(passed.body)).to.be.within(400, 499);
    expect(passed.status).to.not.equal(403);
    expect(passed.body.details.map((d: { code: string }) => d.code)).to.not.include(INSUFFICIENT_SCOPE);
  });

  it('answers oversized headers and broken framing in the envelope', async () => {
    const port = Number(new URL(h.stack.gatewayUrl).port);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (d) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const huge = await raw(`GET /payments/${'a'.repeat(20_000)}/status HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(huge).to.match(/^HTTP\/1\.1 431 /);
    expect(ErrorEnvelope.safeParse(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).success).to.equal(
      true,
    );
    const broken = await raw('POST /payments/create-public HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n');
    expect(broken).to.match(/^HTTP\/1\.1 400 /);
  });

  it('refuses NUL characters and lone surrogates in text with invalid_text on every kind of route', async () => {
    const cases: Array<[string, string, Record<string, string>, unknown]> = [
      ['POST', '/api-keys', shop.bearer, { name: 'key\u0000' }],
      [
        'POST',
        '/merchant-webhooks/api/create',
        shop.key,
        { url: 'http://127.0.0.1:9/x', events: ['payment.completed'], description: 'a\uD800' },
      ],
      [
        'POST',
        '/auth/register',
        {},
        {
          email: 'nul@example.com',
          password: 'correct horse battery staple',
          merchantName: 'Sh\u0000p',
          blockchain: 'BASE',
        },
      ],
      ['GET', `/payments/api/list?search=${encodeURIComponent('abc\u0000')}`, shop.key, undefined],
    ];
    for (const [method, path, headers, body] of cases) {
      const r = await h.gw.call(method, path, { headers, body });
      expect(r.status, `${method} ${path}`).to.equal(400);
      expect(
        r.body.details.map((d: { code: string }) => d.code),
        path,
      ).to.include('invalid_text');
    }
  });

  it('still serves well-formed requests after the run: gzip bodies, deletes, lists', async () => {
    const zipped = await fetch(`${h.stack.gatewayUrl}/api-keys`, {
      method: 'POST',
      headers: { ...shop.bearer, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync('{"name":"zipped"}'),
    });
    expect(zipped.status).to.equal(201);
    const del = await h.gw.call('DELETE', `/merchant-webhooks/api/${own.webhookId}`, { headers: shop.key });
    expect(del.status).to.equal(200);
    expect(del.body.success).to.equal(true);
    const gone = await h.gw.call('GET', `/merchant-webhooks/api/${own.webhookId}`, { headers: shop.key });
    expect(gone.status).to.equal(404);
    const invoices = await h.gw.call('GET', '/invoices/api/list', { headers: shop.key });
    expect(invoices.body).to.deep.equal({ success: true, data: [] });
    const kept = await h.gw.call('GET', `/checkout/sessions/${own.sessionId}`, { headers: shop.key });
    expect(kept.status).to.equal(200);
  });
});

/** What is wrong with an answer to a refused request, or undefined when it is a 4xx envelope. */
const problemWith = (answer: FuzzAnswer): string | undefined => {
  if (answer.status >= 500) return '5xx';
  if (answer.status < 400) return 'not refused';
  if (!answer.contentType.startsWith('application/json'))
    return `content type ${answer.contentType || 'none'}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'body is not JSON';
  }
  return ErrorEnvelope.safeParse(body).success ? undefined : 'not the error envelope';
};

/**
 * Where the status itself is known: a refused credential is 401 or 403, and another merchant's
 * resource is answered exactly as an unknown one (404), so ids of others cannot be probed.
 */
const expectedStatus = (req: FuzzRequest, answer: FuzzAnswer): string | undefined => {
  const { status } = answer;
  if (req.kind === 'auth' && req.label.startsWith('key without ')) {
    const code = status === 403 ? (JSON.parse(answer.text) as ErrorEnvelope).details[0]?.code : undefined;
    if (code !== INSUFFICIENT_SCOPE) return 'key without the scope not refused with insufficient_scope';
  }
  if (req.kind === 'auth' && status !== 401 && status !== 403) return 'credential not refused as such';
  if (req.kind === 'foreign-id' && status !== 404)
    return "another merchant's resource not answered as unknown";
  return undefined;
};
