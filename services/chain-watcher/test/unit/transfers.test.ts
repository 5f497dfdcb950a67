import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { Transaction, Wallet, id, keccak256, toUtf8Bytes, verifyTypedData } from 'ethers';
import { devnetRegistry, type ChainConfig } from '@stablepay/contracts';
import { ConfigError } from '@stablepay/platform';
import {
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  authorizationDomain,
  authorizationNonce,
  encodeTransferWithAuthorization,
} from '../../src/chain/fiat-token.js';
import { deriveMerchantKey, deriveRelayerKey } from '../../src/custody/key-derivation.js';
import { RelayerKeySet, RelayerWallets, parseRelayerKeys } from '../../src/custody/relayer-keys.js';
import { SeedWalletSigner } from '../../src/custody/wallet-signer.js';
import { bump, replacementFees } from '../../src/relayer/fees.js';
import { checkTransferRequest } from '../../src/transfers/rules.js';
import { ChainRpc, RpcUnavailableError, loadChainWatcherConfig } from '../../src/index.js';
import type { WalletRecord } from '../../src/wallets/wallets-repo.js';

const GWEI = 1_000_000_000n;
const config = { INTERNAL_TOKEN_SECRET: 'x'.repeat(32), WALLET_KEK: randomBytes(32).toString('hex') };
const key = () => Wallet.createRandom().privateKey;

describe('outgoing transfers: rules', () => {
  it('derives the EIP-3009 nonce from the idempotency key alone', () => {
    const refundId = randomUUID();
    expect(authorizationNonce(refundId)).to.equal(keccak256(toUtf8Bytes(`stablepay:transfer:${refundId}`)));
    expect(authorizationNonce(refundId)).to.equal(id(`stablepay:transfer:${refundId}`));
    expect(authorizationNonce(refundId)).to.not.equal(authorizationNonce(randomUUID()));
  });

  it('has the merchant wallet sign a transferWithAuthorization that recovers to it on the token domain', async () => {
    const seed = randomBytes(32);
    const signer = new SeedWalletSigner(seed);
    const merchantId = randomUUID();
    const from = await signer.addressOf(merchantId);
    const token = Wallet.createRandom().address;
    const domain = authorizationDomain('USD Coin', 8453, token);
    expect(domain).to.deep.equal({ name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: token });
    const auth = {
      from,
      to: Wallet.createRandom().address,
      value: 1_500_000n,
      validAfter: 0n,
      validBefore: 1_900_000_000n,
      nonce: authorizationNonce('refund-1'),
    };
    const signature = await signer.signTypedData(merchantId, domain, TRANSFER_WITH_AUTHORIZATION_TYPES, {
      ...auth,
    });
    expect(verifyTypedData(domain, TRANSFER_WITH_AUTHORIZATION_TYPES, auth, signature)).to.equal(from);
    expect(encodeTransferWithAuthorization(auth, signature).slice(0, 10)).to.equal('0xe3ee160e');
    signer.wipe();
  });

  it('raises every fee of a replacement by at least 12.5%, or to what the chain asks now', () => {
    const stuck = { maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI, gasPrice: null };
    const calm = { kind: 'eip1559' as const, maxFeePerGas: GWEI, maxPriorityFeePerGas: GWEI / 2n };
    expect(replacementFees(stuck, calm)).to.deep.equal({
      maxFeePerGas: 3_375_000_000n,
      maxPriorityFeePerGas: 1_125_000_000n,
      gasPrice: null,
    });
    const busy = { kind: 'eip1559' as const, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: 2n * GWEI };
    expect(replacementFees(stuck, busy)).to.deep.equal({
      maxFeePerGas: 10n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
      gasPrice: null,
    });
    // Rounded up: 12.5% of 9 wei is 2 wei, not 1.
    expect(bump(9n)).to.equal(11n);
    expect(bump(8n)).to.equal(9n);
    const legacy = { maxFeePerGas: null, maxPriorityFeePerGas: null, gasPrice: 8n * GWEI };
    expect(replacementFees(legacy, calm)).to.deep.equal({
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      gasPrice: 9n * GWEI,
    });
  });

  it('refuses commands that can never be carried out, saying why', () => {
    const chain = devnetRegistry.chains.find((c) => c.name === 'BASE')!;
    const withTokens: ChainConfig = { ...chain, tokens: { USDC: Wallet.createRandom().address } };
    const wallet: WalletRecord = {
      id: randomUUID(),
      merchantId: randomUUID(),
      address: Wallet.createRandom().address,
      blockchain: 'BASE',
      chainId: chain.chainId,
      createdAt: new Date(),
    };
    const req = {
      merchantId: wallet.merchantId,
      blockchain: 'BASE',
      token: 'USDC' as const,
      amount: '1.5',
      toAddress: Wallet.createRandom().address,
    };
    const ok = checkTransferRequest(req, wallet, withTokens);
    expect(ok.ok && ok.units).to.equal(1_500_000n);
    const refusal = (r: ReturnType<typeof checkTransferRequest>) => (r.ok ? 'ok' : r.reason);
    expect(refusal(checkTransferRequest(req, undefined, withTokens))).to.match(/has no wallet/);
    expect(refusal(checkTransferRequest({ ...req, blockchain: 'ETH' }, wallet, withTokens))).to.match(
      /wallet is on BASE, not ETH/,
    );
    expect(refusal(checkTransferRequest(req, wallet, undefined))).to.match(/not served/);
    expect(refusal(checkTransferRequest({ ...req, token: 'EURC' }, wallet, withTokens))).to.match(
      /EURC is not available on BASE/,
    );
    expect(refusal(checkTransferRequest({ ...req, amount: '0' }, wallet, withTokens))).to.match(
      /greater than 0/,
    );
    expect(refusal(checkTransferRequest({ ...req, amount: '0.0000001' }, wallet, withTokens))).to.match(
      /at most 6 decimals/,
    );
    expect(
      refusal(checkTransferRequest({ ...req, toAddress: `0x${'0'.repeat(40)}` }, wallet, withTokens)),
    ).to.match(/zero address/);
  });
});

describe('outgoing transfers: relayer keys', () => {
  it('parses RELAYER_PRIVATE_KEYS without ever repeating a key in an error or a log', () => {
    const secret = key();
    const parsed = parseRelayerKeys(JSON.stringify({ BASE: secret, ETH: secret.slice(2) }));
    expect(parsed).to.be.instanceOf(RelayerKeySet);
    const set = parsed as RelayerKeySet;
    expect(set.chains()).to.deep.equal(['BASE', 'ETH']);
    expect(set.keyOf('ETH')).to.equal(secret);
    for (const shown of [JSON.stringify({ set }), inspect(set), String(set)]) {
      expect(shown).to.not.include(secret.slice(2));
    }
    const broken = `{"BASE": "${secret.slice(2, 40)}`;
    for (const [text, problem] of [
      [broken, /must be a JSON object/],
      ['["0x1"]', /JSON object/],
      [JSON.stringify({ MOON: secret }), /MOON is not a blockchain name/],
      [JSON.stringify({ BASE: secret.slice(0, 40) }), /BASE: not a 32-byte hex private key/],
      [JSON.stringify({ BASE: `0x${'0'.repeat(64)}` }), /not a valid secp256k1/],
    ] as const) {
      const result = parseRelayerKeys(text);
      expect(result).to.be.a('string').that.matches(problem);
      expect(result as string).to.not.include(secret.slice(4, 30));
    }
  });

  it('reports bad relayer keys and keys for chains the registry lacks as configuration errors', () => {
    const fail = (env: Record<string, string>) => {
      try {
        loadChainWatcherConfig({ ...config, ...env });
      } catch (err) {
        expect(err).to.be.instanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      throw new Error('expected a configuration error');
    };
    const secret = key();
    expect(fail({ RELAYER_PRIVATE_KEYS: JSON.stringify({ ARB: secret }) })).to.deep.equal([
      'RELAYER_PRIVATE_KEYS: chain ARB is not in the devnet chain registry',
    ]);
    const problems = fail({ RELAYER_PRIVATE_KEYS: `{"BASE":"${secret}"` });
    expect(problems.join()).to.match(/^RELAYER_PRIVATE_KEYS: must be a JSON object/);
    expect(problems.join()).to.not.include(secret.slice(2));
    const c = loadChainWatcherConfig({ ...config, RELAYER_PRIVATE_KEYS: JSON.stringify({ BASE: secret }) });
    expect(JSON.stringify(c)).to.not.include(secret.slice(2));
    expect(c).to.include({ TRANSFER_STUCK_AFTER_MS: 180_000, TRANSFER_AUTHORIZATION_TTL_MS: 86_400_000 });
  });

  it('reads TRANSFER_CRASH_POINT only when NODE_ENV=test', () => {
    const point = { TRANSFER_CRASH_POINT: 'after_sign' };
    expect(loadChainWatcherConfig({ ...config, ...point, NODE_ENV: 'test' }).TRANSFER_CRASH_POINT).to.equal(
      'after_sign',
    );
    expect(
      loadChainWatcherConfig({ ...config, ...point, NODE_ENV: 'production' }).TRANSFER_CRASH_POINT,
    ).to.equal(undefined);
    expect(loadChainWatcherConfig({ ...config, ...point }).TRANSFER_CRASH_POINT).to.equal(undefined);
  });

  it('takes configured keys first and derives the others from the seed, one per chain, apart from merchant keys', () => {
    const seed = randomBytes(32);
    const secret = key();
    const configured = parseRelayerKeys(JSON.stringify({ BASE: secret })) as RelayerKeySet;
    const relayers = new RelayerWallets(devnetRegistry.chains, configured, seed);
    const byChain = Object.fromEntries(relayers.list().map((r) => [r.blockchain, r]));
    expect(byChain.BASE).to.include({ address: new Wallet(secret).address, source: 'configured' });
    expect(byChain.ETH!.source).to.equal('derived');
    const again = new RelayerWallets(devnetRegistry.chains, undefined, seed);
    expect(again.list().find((r) => r.blockchain === 'ETH')!.address).to.equal(byChain.ETH!.address);
    expect(byChain.ETH!.address).to.not.equal(byChain.MATIC!.address);
    expect(deriveRelayerKey(seed, 'ETH').equals(deriveMerchantKey(seed, 'ETH'))).to.equal(false);
    // Without a seed (a custody provider signs for merchants) only configured chains have a relayer.
    expect(
      new RelayerWallets(devnetRegistry.chains, configured, undefined).list().map((r) => r.blockchain),
    ).to.deep.equal(['BASE']);

    const signed = relayers.sign(byChain.BASE!.chainId, {
      type: 2,
      nonce: 7,
      to: byChain.ETH!.address,
      data: '0x',
      gasLimit: 21_000n,
      maxFeePerGas: GWEI,
      maxPriorityFeePerGas: GWEI,
    });
    const decoded = Transaction.from(signed.serialized);
    expect(decoded.from).to.equal(byChain.BASE!.address);
    expect(decoded).to.include({ nonce: 7, chainId: BigInt(byChain.BASE!.chainId) });
    expect(inspect(relayers) + JSON.stringify({ relayers })).to.not.include(secret.slice(2));
  });
});

describe('outgoing transfers: broadcasting', () => {
  let server: Server;
  let answer: { status?: number; error?: { code: number; message: string } };
  let rpc: ChainRpc;

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const { id: rpcId } = JSON.parse(body) as { id: number };
        if (answer.status) {
          res.statusCode = answer.status;
          return res.end('down');
        }
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: rpcId,
            ...(answer.error ? { error: answer.error } : { result: `0x${'ab'.repeat(32)}` }),
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const chain = devnetRegistry.chains[0]!;
    rpc = new ChainRpc({
      chain: { ...chain, rpcUrls: [`http://127.0.0.1:${(server.address() as AddressInfo).port}`] },
      timeoutMs: 1_000,
    });
  });
  after(async () => {
    rpc.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('tells the node holding the transaction, a taken nonce and a refusal apart; only transport failures are RPC failures', async () => {
    const cases: Array<[string, string]> = [
      ['already known', 'known'],
      ['transaction already imported', 'known'],
      ['ALREADY_EXISTS: already known', 'known'],
      ['nonce too low', 'nonce_taken'],
      ['nonce too low: next nonce 8, tx nonce 7', 'nonce_taken'],
      ['replacement transaction underpriced', 'nonce_taken'],
      ['insufficient funds for gas * price + value', 'rejected'],
      ['max fee per gas less than block base fee', 'rejected'],
    ];
    for (const [message, kind] of cases) {
      answer = { error: { code: -32000, message } };
      expect((await rpc.broadcast('0x02')).kind, message).to.equal(kind);
    }
    answer = {};
    expect(await rpc.broadcast('0x02')).to.deep.equal({ kind: 'accepted' });
    answer = { status: 502 };
    const failure = await rpc.broadcast('0x02').catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(RpcUnavailableError);
  });
});
