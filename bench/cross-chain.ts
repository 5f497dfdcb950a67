/**
 * Cross-chain payments (CCTP v2) on the devnet, through the whole stack (PostgreSQL + RabbitMQ),
 * with the attestation service answering without delay:
 *  - burn mined → payment.completed on the bus: bridge kit when the client mints and when the
 *    forwarder does, and the legacy relayer flow (the service mints and transfers);
 *  - the reference in the same run: burn mined → mint mined by the client alone (the chains and the
 *    attestation service, no payment service), and the share of the end-to-end time spent waiting
 *    for the attestation.
 *
 *   npm run bench:cross-chain        (SAMPLES=20 by default)
 */
import amqp from 'amqplib';
import { Contract, JsonRpcProvider, MaxUint256, Wallet, ZeroHash, parseUnits } from 'ethers';
import {
  addressToBytes32,
  fiatTokenAbi,
  messageTransmitterV2Abi,
  tokenMessengerV2Abi,
  type DevnetChain,
} from '@stablepay/devnet';
import { encodeForwardHookData } from '@stablepay/devnet/attestation/index';
import { FREE_PORTS, startStack } from '@stablepay/stack';
import { percentile } from './stats.js';
import { benchBackends } from './backends.js';

const SAMPLES = Number(process.env.SAMPLES ?? 20);

/** A message of Circle's attestation API (the devnet's stand-in answers the same). */
interface AttestedMessage {
  status: string;
  message: string;
  attestation: string;
}

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms`;
};

const main = async () => {
  const { db, amqpUrl, prefix, varDir, release } = await benchBackends();
  const stack = await startStack({
    varDir,
    databaseUrl: db.url,
    amqpUrl,
    amqpPrefix: prefix,
    logLevel: 'error',
    persistChains: false,
    ports: FREE_PORTS,
    env: { RATE_LIMIT_PUBLIC_PER_MINUTE: '100000000', SCRYPT_COST: '10', CCTP_POLL_MS: '50' },
  });
  const conn = await amqp.connect(amqpUrl);
  const providers: JsonRpcProvider[] = [];
  try {
    const completed = new Map<string, () => void>();
    const ch = await conn.createChannel();
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, `${prefix}stablepay.events`, 'payment.completed');
    await ch.consume(
      queue,
      (m) => {
        if (!m) return;
        completed.get(JSON.parse(m.content.toString()).data.payment_id as string)?.();
      },
      { noAck: true },
    );
    const gw = stack.gatewayUrl;
    const call = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(`${gw}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as { data: any };
    };
    const password = 'correct horse battery staple';
    await call('POST', '/auth/register', {
      email: 'bench@example.com',
      password,
      merchantName: 'Bench',
      blockchain: 'BASE',
    });
    // Registration answers "check your e-mail"; the merchant's id comes with the session.
    const login = await call('POST', '/auth/login', { email: 'bench@example.com', password });
    const me = await fetch(`${gw}/auth/me`, {
      headers: { authorization: `Bearer ${login.data.access_token}` },
    });
    const merchantId = ((await me.json()) as any).data.merchant.id as string;
    let wallet: string | undefined;
    while (!wallet) {
      wallet = (await call('GET', `/merchants/${merchantId}/wallet`)).data?.wallet?.address;
      if (!wallet) await new Promise((r) => setTimeout(r, 50));
    }
    const chainOf = (name: string) => stack.devnet.chains.find((c) => c.name === name)!;
    const [eth, base] = [chainOf('ETH'), chainOf('BASE')];
    const signer = (c: DevnetChain, key: string) => {
      const p = new JsonRpcProvider(c.rpcUrl, c.chainId, {
        staticNetwork: true,
        cacheTimeout: -1,
        pollingInterval: 20,
      });
      providers.push(p);
      return new Wallet(key, p);
    };
    const customer = stack.devnet.customers[0]!;
    const onEth = signer(eth, customer.privateKey);
    const onBase = signer(base, customer.privateKey);
    await (
      await new Contract(eth.tokens.USDC, fiatTokenAbi(), onEth).getFunction('approve')(
        eth.cctp.tokenMessenger,
        MaxUint256,
      )
    ).wait();
    const messenger = new Contract(eth.cctp.tokenMessenger, tokenMessengerV2Abi(), onEth);
    const transmitter = new Contract(base.cctp.messageTransmitter, messageTransmitterV2Abi(), onBase);

    const burn = async (hookData?: string, to = wallet!, amount = parseUnits('10', 6)) => {
      const args = [
        amount,
        base.cctpDomain,
        addressToBytes32(to),
        eth.tokens.USDC,
        ZeroHash,
        parseUnits('0.5', 6),
        1000,
      ];
      const tx = hookData
        ? await messenger.getFunction('depositForBurnWithHook')(...args, hookData)
        : await messenger.getFunction('depositForBurn')(...args);
      await tx.wait();
      return { hash: tx.hash as string, minedAt: performance.now() };
    };
    const attested = async (txHash: string) => {
      for (;;) {
        const res = await fetch(
          `${stack.attestation.url}/v2/messages/${eth.cctpDomain}?transactionHash=${txHash}`,
        );
        if (res.status === 200) {
          const m = ((await res.json()) as { messages: AttestedMessage[] }).messages[0];
          if (m?.status === 'complete') return { ...m, at: performance.now() };
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const report = async (
      burnTxHash: string,
      mintTxHash?: string,
      feeQuote?: { merchantReceives: number },
    ) => {
      const created = await call('POST', '/payments/create-public', {
        merchantId,
        txHash: burnTxHash,
        amount: feeQuote ? String(feeQuote.merchantReceives) : '10',
        token: 'USDC',
        chainId: eth.chainId,
        destinationChainId: base.chainId,
        fromAddress: customer.address,
        toAddress: wallet,
        isCrossChain: true,
        ...(feeQuote ? { feeQuote } : { bridgeKit: { burnTxHash, ...(mintTxHash ? { mintTxHash } : {}) } }),
        customerEmail: 'bench@example.com',
      });
      if (!created.data) throw new Error(`create-public refused: ${JSON.stringify(created)}`);
      const id = created.data.paymentId as string;
      return new Promise<number>((resolve) => completed.set(id, () => resolve(performance.now())));
    };

    const clientOnly: number[] = [];
    const clientMint: number[] = [];
    const attestationShare: number[] = [];
    const afterMint: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const b = await burn();
      const a = await attested(b.hash);
      const mint = await transmitter.getFunction('receiveMessage')(a.message, a.attestation);
      await mint.wait();
      const mintedAt = performance.now();
      const done = await report(b.hash, mint.hash as string);
      clientOnly.push(mintedAt - b.minedAt);
      clientMint.push(done - b.minedAt);
      afterMint.push(done - mintedAt);
      attestationShare.push((a.at - b.minedAt) / (done - b.minedAt));
    }
    const forwarded: number[] = [];
    const forwardedShare: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const b = await burn(encodeForwardHookData());
      const donePromise = report(b.hash);
      const a = await attested(b.hash);
      const done = await donePromise;
      forwarded.push(done - b.minedAt);
      forwardedShare.push((a.at - b.minedAt) / (done - b.minedAt));
    }
    const relay = stack.devnet.relayers.BASE!.address;
    const relayed: number[] = [];
    const relayedShare: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const quote = (await call('GET', '/payments/cctp-fee?destinationChain=BASE&productPrice=10')).data;
      const b = await burn(undefined, relay, parseUnits(String(quote.amountToBurn), 6));
      const donePromise = report(b.hash, undefined, quote);
      const a = await attested(b.hash);
      const done = await donePromise;
      relayed.push(done - b.minedAt);
      relayedShare.push((a.at - b.minedAt) / (done - b.minedAt));
    }
    const mean = (v: number[]) => v.reduce((x, y) => x + y, 0) / v.length;
    console.log(`cross-chain ETH → BASE, ${SAMPLES} payments each, attestation delay 0, 1 confirmation`);
    console.log(`  reference: burn mined → mint mined by the client alone     ${summary(clientOnly)}`);
    console.log(`  bridge kit, client mints: burn mined → payment.completed  ${summary(clientMint)}`);
    console.log(`    of which after the mint (verification + completion)     ${summary(afterMint)}`);
    console.log(
      `    share waiting for the attestation                         ${(100 * mean(attestationShare)).toFixed(0)} %`,
    );
    console.log(`  bridge kit, forwarder mints: burn mined → payment.completed ${summary(forwarded)}`);
    console.log(
      `    share waiting for the attestation                         ${(100 * mean(forwardedShare)).toFixed(0)} %`,
    );
    console.log(
      `  relayer flow (mint + transfer by the service): burn mined → payment.completed ${summary(relayed)}`,
    );
    console.log(
      `    share waiting for the attestation                         ${(100 * mean(relayedShare)).toFixed(0)} %`,
    );
  } finally {
    for (const p of providers) p.destroy();
    await conn.close().catch(() => undefined);
    await stack.stop();
    await release();
  }
};

await main();
process.exit(0);
