import { expect } from 'chai';
import { SigningKey, hexlify, randomBytes } from 'ethers';
import { devnetAccount } from '../src/accounts.js';
import { freePort, startAnvil, type AnvilProcess } from '../src/anvil.js';
import { reattestNonce } from '../src/attestation/http.js';
import { startAttestationService, type AttestationService } from '../src/attestation/index.js';

/*
 * The HTTP side of the attestation service on real anvil chains with no burns yet: paths, checks,
 * JSON shapes and the failure modes tests switch on.
 */
describe('attestation service: API and failure modes', () => {
  const attesterKeys = [devnetAccount(2000).privateKey, devnetAccount(2001).privateKey];
  let chains: AnvilProcess[];
  let service: AttestationService;

  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${service.url}${path}`, init);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };

  before(async () => {
    chains = await Promise.all([
      startAnvil({ port: await freePort(), chainId: 31_001 }),
      startAnvil({ port: await freePort(), chainId: 31_002 }),
    ]);
    service = await startAttestationService({
      chains: [
        {
          name: 'ETH',
          chainId: 31_001,
          cctpDomain: 0,
          rpcUrl: chains[0]!.rpcUrl,
          messageTransmitter: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
          tokenMessenger: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
        },
        {
          name: 'BASE',
          chainId: 31_002,
          cctpDomain: 6,
          rpcUrl: chains[1]!.rpcUrl,
          messageTransmitter: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
          tokenMessenger: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
        },
      ],
      attesterKeys,
      fees: {
        fastBps: { 0: 1.3 },
        forwardFee: { low: 190_000n, med: 200_000n, high: 230_000n },
      },
      relayerKeys: { BASE: devnetAccount(2100).privateKey },
      pollIntervalMs: 50,
    });
  });

  after(async () => {
    await service?.stop();
    await Promise.all((chains ?? []).map((chain) => chain.stop()));
  });

  afterEach(() => {
    service.control.setDelay(0);
    service.control.setFailure(false);
    service.control.setRateLimited(false);
  });

  it('answers 404 for a burn it has not seen, and checks the path and query', async () => {
    const txHash = hexlify(randomBytes(32));
    expect(await get(`/v2/messages/0?transactionHash=${txHash}`)).to.deep.include({ status: 404 });
    expect((await get('/v2/messages/0')).status).to.equal(400);
    expect((await get('/v2/messages/0?transactionHash=0x1234')).status).to.equal(400);
    expect((await get(`/v2/messages/zero?transactionHash=${txHash}`)).status).to.equal(400);
    expect((await get(`/v2/messages/3?transactionHash=${txHash}`)).status).to.equal(400);
    expect((await get(`/v2/messages/0?nonce=${txHash}`)).status).to.equal(404);
    expect((await get('/v3/anything')).status).to.equal(404);
  });

  it('quotes fees by route in bps, with forwarding fees in USDC minor units on request', async () => {
    const fast = await get('/v2/burn/USDC/fees/0/6');
    expect(fast.status).to.equal(200);
    expect(fast.body).to.deep.equal([
      { finalityThreshold: 1000, minimumFee: 1.3 },
      { finalityThreshold: 2000, minimumFee: 0 },
    ]);
    const forward = await get('/v2/burn/USDC/fees/0/6?forward=true');
    expect(forward.body[0]).to.deep.equal({
      finalityThreshold: 1000,
      minimumFee: 1.3,
      forwardFee: { low: 190_000, med: 200_000, high: 230_000 },
    });
    expect(forward.body[1].forwardFee).to.deep.equal({ low: 190_000, med: 200_000, high: 230_000 });
    // BASE has the default fast rate of 1 bp; ETH has no forwarding relayer.
    expect((await get('/v2/burn/USDC/fees/6/0')).body[0]).to.deep.equal({
      finalityThreshold: 1000,
      minimumFee: 1,
    });
    expect((await get('/v2/burn/USDC/fees/6/0?forward=true')).status).to.equal(400);
    expect((await get('/v2/burn/USDC/fees/0/0')).status).to.equal(400);
    expect((await get('/v2/burn/USDC/fees/0/9')).status).to.equal(400);
    expect((await get('/v2/burn/EURC/fees/0/6')).status).to.equal(404);
  });

  it('publishes the attesters’ public keys', async () => {
    const { status, body } = await get('/v2/publicKeys');
    expect(status).to.equal(200);
    expect(body.publicKeys).to.deep.equal(
      attesterKeys.map((key) => ({ publicKey: new SigningKey(key).publicKey, cctpVersion: 2 })),
    );
  });

  it('answers the v1 attestation path 404 until the message is seen, and re-attestation 404 for an unknown nonce', async () => {
    expect(await get(`/v1/attestations/${hexlify(randomBytes(32))}`)).to.deep.include({ status: 404 });
    expect((await get('/v1/attestations/0xnothex')).status).to.equal(400);
    const reattest = await get(`/v2/reattest/${hexlify(randomBytes(32))}`, { method: 'POST' });
    expect(reattest.status).to.equal(404);
    // The nonce as the V2 message carries it (bytes32, either case) or in decimal, Circle's example form.
    expect(
      (
        await get(`/v2/reattest/${hexlify(randomBytes(32)).toUpperCase().replace('0X', '0x')}`, {
          method: 'POST',
        })
      ).status,
    ).to.equal(404);
    expect((await get('/v2/reattest/9682', { method: 'POST' })).status).to.equal(404);
    expect((await get('/v2/reattest/0x1234', { method: 'POST' })).status).to.equal(400);
    expect((await get('/v2/reattest/-1', { method: 'POST' })).status).to.equal(400);
  });

  it('reads a re-attestation nonce in bytes32 hex or in decimal as the same bytes32', () => {
    const hex = `0x${'0'.repeat(60)}25d2`;
    expect(reattestNonce('9682')).to.equal(hex);
    expect(reattestNonce(hex.toUpperCase().replace('0X', '0x'))).to.equal(hex);
    expect(reattestNonce((2n ** 256n).toString())).to.equal(undefined);
    expect(reattestNonce('0xzz')).to.equal(undefined);
  });

  it('answers slowly when told to', async () => {
    service.control.setDelay(300);
    const started = Date.now();
    expect((await get('/v2/publicKeys')).status).to.equal(200);
    expect(Date.now() - started).to.be.at.least(290);
  });

  it('fails with the 5xx it is told to until switched back', async () => {
    service.control.setFailure(503);
    const failed = await get('/v2/publicKeys');
    expect(failed.status).to.equal(503);
    expect(failed.body).to.have.property('error');
    expect(() => service.control.setFailure(404 as never)).to.throw(RangeError);
    service.control.setFailure(false);
    expect((await get('/v2/publicKeys')).status).to.equal(200);
  });

  it('refuses every request with 429 while rate-limit mode is on', async () => {
    service.control.setRateLimited(true);
    const limited = await get('/v2/burn/USDC/fees/0/6');
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.at.least(1);
    expect((await get('/v2/publicKeys')).status).to.equal(429);
    service.control.setRateLimited(false);
    expect((await get('/v2/publicKeys')).status).to.equal(200);
  });

  it('lets a browser call it (CORS)', async () => {
    const res = await fetch(`${service.url}/v2/messages/0`, { method: 'OPTIONS' });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect((await get('/v2/publicKeys')).headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('counts the requests it answered', async () => {
    const before = service.control.requestCount();
    await get('/v2/publicKeys');
    expect(service.control.requestCount()).to.equal(before + 1);
  });
});

describe('attestation service: Circle’s rate limit', () => {
  let chain: AnvilProcess;
  let service: AttestationService;

  before(async () => {
    chain = await startAnvil({ port: await freePort(), chainId: 31_003 });
    service = await startAttestationService({
      chains: [
        {
          name: 'ETH',
          chainId: 31_003,
          cctpDomain: 0,
          rpcUrl: chain.rpcUrl,
          messageTransmitter: '0x81D40F21F12A8F0E3252Bccb954D722d4c464B64',
          tokenMessenger: '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d',
        },
      ],
      attesterKeys: [devnetAccount(2000).privateKey],
      rateLimit: { requestsPerSecond: 5, blockMs: 60_000 },
    });
  });

  after(async () => {
    await service?.stop();
    await chain?.stop();
  });

  it('blocks every request for the block time once a second holds more than the limit', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) statuses.push((await fetch(`${service.url}/v2/publicKeys`)).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const blocked = await fetch(`${service.url}/v2/publicKeys`);
    expect(blocked.status).to.equal(429);
    expect(Number(blocked.headers.get('retry-after'))).to.be.within(55, 60);
    service.control.clearRateLimit();
    expect((await fetch(`${service.url}/v2/publicKeys`)).status).to.equal(200);
  });
});
