import { expect } from 'chai';
import nock from 'nock';
import { createMetrics, type Logger, type Metrics } from '@stablepay/platform';
import { metricValue } from '@stablepay/platform/testing';
import {
  AttestationApi,
  AttestationUnavailable,
  isSigned,
  type AttestedMessage,
} from '../../src/chain/attestation-api.js';
import { createChainWatcherMetrics } from '../../src/metrics.js';

const IRIS = 'https://iris-api-sandbox.circle.com';
const TX = `0x${'ab'.repeat(32)}`;
const NONCE = `0x${'0'.repeat(60)}25d2`;
const MESSAGE = `0x${'00'.repeat(148)}`;
const ATTESTATION = `0x${'11'.repeat(65)}`;

/** Circle's answer while Iris waits for confirmations: the placeholder shape of its docs. */
const pendingPlaceholders = {
  message: '0x',
  eventNonce: '',
  attestation: 'PENDING',
  decodedMessage: null,
  cctpVersion: 2,
  status: 'pending_confirmations',
  delayReason: null,
  forwardState: null,
  forwardTxHash: null,
};

/** The other shape Circle's docs and clients show: nulls wherever nothing is known yet. */
const pendingNulls = {
  message: null,
  eventNonce: null,
  attestation: null,
  decodedMessage: {
    sourceDomain: '0',
    destinationDomain: '6',
    nonce: null,
    sender: null,
    recipient: null,
    destinationCaller: null,
    minFinalityThreshold: '1000',
    finalityThresholdExecuted: null,
    messageBody: null,
    decodedMessageBody: {
      burnToken: null,
      mintRecipient: null,
      amount: null,
      messageSender: null,
      maxFee: null,
      feeExecuted: null,
      expirationBlock: null,
      hookData: null,
    },
  },
  cctpVersion: null,
  status: 'pending_confirmations',
  delayReason: 'insufficient_fee',
};

const complete = {
  message: MESSAGE,
  eventNonce: NONCE,
  attestation: ATTESTATION,
  decodedMessage: { sourceDomain: '0', destinationDomain: '6', nonce: NONCE },
  cctpVersion: 2,
  status: 'complete',
  delayReason: null,
  forwardState: null,
  forwardTxHash: null,
};

describe('attestation API client (Circle Iris shapes)', () => {
  let warnings: Array<{ message: string; meta: Record<string, unknown> }>;
  let base: Metrics;
  let api: AttestationApi;
  const iris = () => nock(IRIS);
  const messagesPath = `/v2/messages/0?transactionHash=${TX}`;
  const outcomes = async (outcome: string) =>
    metricValue(await base.registry.metrics(), 'cctp_attestation_requests_total', {
      operation: 'messages',
      outcome,
    });

  // nock replaces Node's HTTP client for the whole process: it is switched on for this file only,
  // so that other suites in the same run keep real connection pooling.
  before(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
  });
  after(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore();
  });
  beforeEach(() => {
    warnings = [];
    base = createMetrics('chain-watcher', false);
    api = new AttestationApi({
      baseUrl: IRIS,
      timeoutMs: 2_000,
      metrics: createChainWatcherMetrics(base),
      logger: {
        // winston's warn is overloaded; this records the one form the attestation API calls.
        warn: ((message: string, meta?: Record<string, unknown>) => {
          warnings.push({ message, meta: meta ?? {} });
        }) as Logger['warn'],
      },
    });
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending, 'every mocked request was made').to.deep.equal([]);
  });

  for (const [name, pending] of [
    ['"PENDING" and "0x" placeholders', pendingPlaceholders],
    ['nulls for every field not known yet', pendingNulls],
  ] as const) {
    it(`takes a pending_confirmations answer with ${name} as a reason to wait, not a malformed answer`, async () => {
      iris()
        .get(messagesPath)
        .reply(200, { messages: [pending] });
      const messages = await api.messagesByTransaction(0, TX);
      expect(messages).to.have.length(1);
      expect(messages[0]!.status).to.equal('pending_confirmations');
      expect(isSigned(messages[0]!)).to.equal(false);
      expect(await outcomes('ok')).to.equal(1);
      expect(await outcomes('malformed')).to.equal(0);
      expect(warnings).to.deep.equal([]);
    });
  }

  it('mints only a complete message with hex message and attestation', async () => {
    iris()
      .get(messagesPath)
      .reply(200, {
        messages: [
          complete,
          { ...complete, attestation: 'PENDING' },
          { ...complete, status: 'pending_confirmations' },
          { ...complete, message: null },
        ],
      });
    const messages = await api.messagesByTransaction(0, TX);
    expect(messages.map((m: AttestedMessage) => isSigned(m))).to.deep.equal([true, false, false, false]);
  });

  it('reads a burn not seen yet (404) and an empty or absent list as nothing to mint yet', async () => {
    iris().get(messagesPath).reply(404, { error: 'Message not found' });
    iris().get(messagesPath).reply(200, { messages: [] });
    iris().get(messagesPath).reply(200, { messages: null });
    for (let i = 0; i < 3; i++) expect(await api.messagesByTransaction(0, TX)).to.deep.equal([]);
    expect(await outcomes('not_found')).to.equal(1);
    expect(await outcomes('ok')).to.equal(2);
  });

  it('refuses an answer it cannot read, and logs where it went wrong without the values', async () => {
    iris()
      .get(messagesPath)
      .reply(200, { messages: [{ ...complete, status: 42, attestation: { secret: 'do-not-log' } }] });
    const err = await api.messagesByTransaction(0, TX).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(AttestationUnavailable);
    expect((err as AttestationUnavailable).kind).to.equal('malformed');
    expect(await outcomes('malformed')).to.equal(1);
    expect(warnings).to.have.length(1);
    expect(warnings[0]!.message).to.equal('attestation API answer refused');
    expect(warnings[0]!.meta).to.include({ operation: 'messages', sourceDomain: 0, txHash: TX });
    const issues = warnings[0]!.meta.issues as string[];
    expect(issues.some((i) => i.startsWith('messages.0.status'))).to.equal(true);
    expect(issues.some((i) => i.startsWith('messages.0.attestation'))).to.equal(true);
    expect(JSON.stringify(warnings)).to.not.include('do-not-log');
  });

  it('logs a body that is not JSON, and a 4xx refusal with its reason', async () => {
    iris().get(messagesPath).reply(200, '<html>maintenance</html>', { 'content-type': 'text/html' });
    iris().get(messagesPath).reply(400, { error: 'Invalid transactionHash' });
    for (let i = 0; i < 2; i++) {
      const err = await api.messagesByTransaction(0, TX).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AttestationUnavailable);
    }
    expect(warnings.map((w) => w.message)).to.deep.equal([
      'attestation API answer refused',
      'attestation API refused a request',
    ]);
    expect(warnings[1]!.meta).to.include({ status: 400 });
    expect(String(warnings[1]!.meta.why)).to.include('Invalid transactionHash');
  });

  it('keeps away as long as a 429 says', async () => {
    iris().get(messagesPath).reply(429, '', { 'retry-after': '7' });
    const err = (await api.messagesByTransaction(0, TX).catch((e: unknown) => e)) as AttestationUnavailable;
    expect(err.kind).to.equal('rate_limited');
    expect(err.retryAfterMs).to.equal(7_000);
  });

  it('posts the re-attestation with the nonce as the V2 message carries it (bytes32 hex)', async () => {
    iris()
      .post(`/v2/reattest/${NONCE}`)
      .reply(200, { message: 'Re-attestation successfully requested for nonce.', nonce: '9682' });
    expect(await api.reattest(NONCE.toUpperCase().replace('0X', '0x'))).to.equal(true);
    iris().post(`/v2/reattest/${NONCE}`).reply(404, { error: 'Message not found' });
    expect(await api.reattest(NONCE)).to.equal(false);
    expect(() => api.reattest('9682')).to.throw(TypeError, /bytes32/);
  });
});
