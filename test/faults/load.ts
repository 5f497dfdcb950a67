import { randomUUID } from 'node:crypto';
import { Contract, JsonRpcProvider, MaxUint256, Wallet, ZeroHash, getAddress, parseUnits } from 'ethers';
import { transferAuthorizationTypedData } from '@stablepay/contracts';
import { addressToBytes32, fiatTokenAbi, tokenMessengerV2Abi, type DevnetChain } from '@stablepay/devnet';
import { encodeForwardHookData } from '@stablepay/devnet/attestation/index';
import type { ProcessStack } from '@stablepay/stack';

export interface Merchant {
  merchantId: string;
  key: Record<string, string>;
  bearer: Record<string, string>;
  /** Signs in again: a fresh bearer, for a step-up once the sign-in is no longer recent. */
  signIn: () => Promise<Record<string, string>>;
  wallet: string;
  /** Webhook endpoint paths subscribed to payment.completed. */
  endpoints: string[];
}

export interface PaymentIntent {
  kind: 'same-chain' | 'cross-chain' | 'gasless';
  merchant: Merchant;
  /** The customer's own transaction; '' for a gasless payment, which the relay sends. */
  txHash: string;
  payer: string;
  /** A gasless payment's signed authorization: what the chain's AuthorizationUsed must show once. */
  authorization?: { from: string; to: string; value: bigint; nonce: string };
  paymentId?: string;
  status?: string;
  refundRequested?: boolean;
}

export interface RefundIntent {
  merchant: Merchant;
  paymentId: string;
  payer: string;
  amount: string;
  refundId?: string;
  status?: string;
}

export interface WithdrawalIntent {
  merchant: Merchant;
  destination: string;
  amount: string;
  withdrawalId?: string;
  status?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Statuses the load generator retries: the answer never came or says "not now". */
const retryable = (status: number) => status === 0 || status === 409 || status === 429 || status >= 500;

/**
 * Steady load through the gateway: customers paying merchants on BASE (real devnet transfers) and
 * from ETH over CCTP (burns the devnet's forwarding service mints), refunds of completed payments,
 * and withdrawals. Every write is retried until it is answered, as a careful client does: the same
 * txHash, the same Idempotency-Key, so a retry can never be a second intent.
 */
export class LoadGenerator {
  readonly payments: PaymentIntent[] = [];
  readonly refunds: RefundIntent[] = [];
  readonly withdrawals: WithdrawalIntent[] = [];
  requests = 0;
  /** Failures of the load itself (the chain, not the stack under test), by message. */
  readonly loadErrors = new Map<string, number>();
  readonly answers = new Map<number, number>();
  /** Wallets that hold only USDC on BASE (no native token), one per paying customer. */
  readonly gaslessPayers: Wallet[] = [];
  private running = false;
  private readonly loops: Promise<void>[] = [];
  private readonly providers: JsonRpcProvider[] = [];
  startedAt = 0;
  stoppedAt = 0;

  constructor(
    private readonly stack: ProcessStack,
    private readonly merchants: Merchant[],
  ) {}

  chain(name: string): DevnetChain {
    return this.stack.devnet.chains.find((c) => c.name === name)!;
  }

  provider(c: DevnetChain): JsonRpcProvider {
    const p = new JsonRpcProvider(c.rpcUrl, c.chainId, {
      staticNetwork: true,
      cacheTimeout: -1,
      polling: true,
    });
    p.pollingInterval = 50;
    this.providers.push(p);
    return p;
  }

  async call(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) {
    this.requests++;
    try {
      const res = await fetch(`${this.stack.gatewayUrl}${path}`, {
        method,
        headers: {
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      this.answers.set(res.status, (this.answers.get(res.status) ?? 0) + 1);
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body };
    } catch {
      this.answers.set(0, (this.answers.get(0) ?? 0) + 1);
      return { status: 0, body: undefined as any };
    }
  }

  /** Repeats the same request until it has an answer that is not "retry", for up to `withinMs`. */
  async until(
    method: string,
    path: string,
    opts: { body?: unknown; headers?: Record<string, string> },
    withinMs = 180_000,
  ) {
    const deadline = Date.now() + withinMs;
    for (let delay = 200; ; delay = Math.min(delay * 2, 2_000)) {
      const r = await this.call(method, path, opts);
      if (!retryable(r.status) || Date.now() > deadline) return r;
      await sleep(delay);
    }
  }

  start(customers: Array<{ address: string; privateKey: string }>) {
    this.running = true;
    this.startedAt = Date.now();
    const guarded = (loop: () => Promise<void>) =>
      this.loops.push(
        (async () => {
          while (this.running) {
            try {
              await loop();
            } catch (err) {
              const text = String((err as Error).message ?? err).slice(0, 160);
              this.loadErrors.set(text, (this.loadErrors.get(text) ?? 0) + 1);
              await sleep(1_000);
            }
          }
        })(),
      );
    customers.forEach((c, n) => guarded(() => this.payLoop(c, n)));
    guarded(() => this.refundLoop());
    for (const m of this.merchants) guarded(() => this.withdrawLoop(m));
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
    this.stoppedAt = Date.now();
  }

  close() {
    for (const p of this.providers) p.destroy();
  }

  private async payLoop(customer: { address: string; privateKey: string }, n: number) {
    const base = this.chain('BASE');
    const eth = this.chain('ETH');
    const onBase = new Wallet(customer.privateKey, this.provider(base));
    const onEth = new Wallet(customer.privateKey, this.provider(eth));
    const usdcBase = new Contract(base.tokens.USDC, fiatTokenAbi(), onBase);
    const usdcEth = new Contract(eth.tokens.USDC, fiatTokenAbi(), onEth);
    const messenger = new Contract(eth.cctp.tokenMessenger, tokenMessengerV2Abi(), onEth);
    await (await usdcEth.getFunction('approve')(eth.cctp.tokenMessenger, MaxUint256)).wait();
    const gasless = await this.walletWithOnlyUsdc(usdcBase);
    for (let i = 0; this.running; i++) {
      const merchant = this.merchants[(n + i) % this.merchants.length]!;
      // One payment in five is signed by a wallet without gas and sent by the relay.
      if ((n + i) % 5 === 4) {
        await this.payGasless(gasless, merchant);
        await sleep(150);
        continue;
      }
      // One payment in four crosses from ETH; the rest are paid on the merchant's chain.
      const cross = (n + i) % 4 === 3;
      const intent: PaymentIntent = {
        kind: cross ? 'cross-chain' : 'same-chain',
        merchant,
        txHash: '',
        payer: customer.address,
      };
      let body: Record<string, unknown>;
      if (cross) {
        const tx = await messenger.getFunction('depositForBurnWithHook')(
          parseUnits('5', 6),
          base.cctpDomain,
          addressToBytes32(merchant.wallet),
          eth.tokens.USDC,
          ZeroHash,
          parseUnits('0.5', 6),
          1000,
          encodeForwardHookData(),
        );
        await tx.wait();
        intent.txHash = tx.hash;
        body = {
          merchantId: merchant.merchantId,
          txHash: tx.hash,
          // What the merchant is owed after Circle's fee (at most 0.5) and the forwarding fee: a
          // payment completes only when that much was minted to the wallet.
          amount: '4',
          token: 'USDC',
          chainId: eth.chainId,
          destinationChainId: base.chainId,
          fromAddress: customer.address,
          toAddress: merchant.wallet,
          isCrossChain: true,
          bridgeKit: { burnTxHash: tx.hash },
          customerEmail: 'payer@example.com',
        };
      } else {
        const tx = await usdcBase.getFunction('transfer')(merchant.wallet, parseUnits('20', 6));
        await tx.wait();
        intent.txHash = tx.hash;
        body = {
          merchantId: merchant.merchantId,
          txHash: tx.hash,
          amount: 20,
          expectedAmount: 20,
          token: 'USDC',
          chainId: base.chainId,
          fromAddress: customer.address,
          toAddress: merchant.wallet,
          customerEmail: 'payer@example.com',
        };
      }
      this.payments.push(intent);
      const r = await this.until('POST', '/payments/create-public', { body });
      if (r.status === 200 || r.status === 201) intent.paymentId = r.body.data.paymentId;
      else intent.status = `not accepted: ${r.status} ${JSON.stringify(r.body)}`;
      await sleep(150);
    }
  }

  /**
   * A fresh wallet the customer funds with USDC before its first payment: it never holds the native
   * token, so whatever it pays must go through the relay.
   */
  private async walletWithOnlyUsdc(usdcOfCustomer: Contract): Promise<Wallet> {
    const payer = new Wallet(Wallet.createRandom().privateKey);
    this.gaslessPayers.push(payer);
    await (await usdcOfCustomer.getFunction('transfer')(payer.address, parseUnits('100000', 6))).wait();
    return payer;
  }

  /**
   * A gasless same-chain payment as the checkout page makes it: a quote for 20 USDC (no session: the
   * quote opens a payment intent and names its nonce), one EIP-712 signature, then create-gasless,
   * retried with the same authorization until answered (idempotent by chain, payer and nonce).
   */
  private async payGasless(payer: Wallet, merchant: Merchant) {
    const base = this.chain('BASE');
    const query = new URLSearchParams({
      merchantId: merchant.merchantId,
      chainId: String(base.chainId),
      token: 'USDC',
      amount: '20',
    });
    const q = await this.until('GET', `/payments/gasless-quote?${query}`, {});
    if (q.status !== 200) {
      const text = `gasless quote refused: ${q.status} ${JSON.stringify(q.body).slice(0, 120)}`;
      this.loadErrors.set(text, (this.loadErrors.get(text) ?? 0) + 1);
      return;
    }
    const quote = q.body.data;
    const message = {
      from: payer.address,
      to: quote.authorization.to as string,
      value: BigInt(quote.authorization.value),
      validAfter: 0,
      validBefore: Number(quote.authorization.validBefore),
      nonce: quote.authorization.nonce as string,
    };
    const typed = transferAuthorizationTypedData(quote.domain, message);
    const { EIP712Domain: _domain, ...types } = typed.types;
    const signature = await payer.signTypedData(typed.domain, types, typed.message);
    const intent: PaymentIntent = {
      kind: 'gasless',
      merchant,
      txHash: '',
      payer: payer.address,
      authorization: { from: payer.address, to: message.to, value: message.value, nonce: message.nonce },
    };
    this.payments.push(intent);
    const r = await this.until('POST', '/payments/create-gasless', {
      body: {
        merchantId: merchant.merchantId,
        chainId: base.chainId,
        token: 'USDC',
        authorization: { ...typed.message, signature },
        quote,
        customerEmail: 'no-gas@example.com',
      },
    });
    if (r.status === 200 || r.status === 201) intent.paymentId = r.body.data.paymentId;
    else intent.status = `not accepted: ${r.status} ${JSON.stringify(r.body)}`;
  }

  /** Polls a payment the way a merchant's server would. */
  async paymentStatus(p: PaymentIntent): Promise<string | undefined> {
    const r = await this.call('GET', `/payments/api/${p.paymentId}`, { headers: p.merchant.key });
    return r.status === 200 ? r.body.data.status : undefined;
  }

  private async refundLoop() {
    while (this.running) {
      // Every third same-chain payment gets a partial refund once it has completed.
      const due = this.payments.filter(
        (p, i) => p.kind === 'same-chain' && p.paymentId && !p.refundRequested && i % 3 === 0,
      );
      for (const p of due.slice(0, 4)) {
        if (!this.running) break;
        p.status = await this.paymentStatus(p);
        if (p.status !== 'completed') continue;
        p.refundRequested = true;
        const intent: RefundIntent = {
          merchant: p.merchant,
          paymentId: p.paymentId!,
          payer: p.payer,
          amount: '1',
        };
        this.refunds.push(intent);
        const headers = { ...p.merchant.key, 'idempotency-key': `refund-${p.paymentId}` };
        const body = { paymentId: p.paymentId, amount: '1', reason: 'requested_by_customer' };
        // Its retries back off for minutes after an outage: a long window, as a patient client's.
        for (const deadline = Date.now() + 300_000; ;) {
          const r = await this.until('POST', '/refunds/api/create', { headers, body });
          // The refunds service learns of the payment from payment.completed: 404 until then.
          if (r.status === 404 && Date.now() < deadline) {
            await sleep(500);
            continue;
          }
          if (r.status === 201 || r.status === 200) intent.refundId = r.body.data.id;
          else intent.status = `not accepted: ${r.status} ${JSON.stringify(r.body)}`;
          break;
        }
      }
      await sleep(300);
    }
  }

  /**
   * Puts a destination on the merchant's withdrawal address book (no hold on the devnet), signing in
   * again when the step-up asks for it. A retried add that already went through is a 409.
   */
  private async approve(merchant: Merchant, destination: string): Promise<string | undefined> {
    for (let attempt = 0; ; attempt++) {
      const r = await this.until('POST', '/withdrawal-addresses', {
        headers: merchant.bearer,
        body: { address: destination, label: 'Load' },
      });
      if (r.status === 201 || r.status === 409) return undefined;
      if ((r.status === 401 || r.status === 403) && attempt === 0) {
        merchant.bearer = await merchant.signIn();
        continue;
      }
      return `address not added: ${r.status} ${JSON.stringify(r.body)}`;
    }
  }

  private async withdrawLoop(merchant: Merchant) {
    await sleep(8_000);
    while (this.running) {
      const destination = getAddress(`0x${randomUUID().replace(/-/g, '')}${'0'.repeat(8)}`);
      const notApproved = await this.approve(merchant, destination);
      if (notApproved) {
        this.withdrawals.push({ merchant, destination, amount: '3', status: `not accepted: ${notApproved}` });
        await sleep(2_500);
        continue;
      }
      const headers = { ...merchant.key, 'idempotency-key': `withdraw-${destination}` };
      const body = { amount: '3', currency: 'USDC', destination_address: destination };
      const r = await this.until('POST', '/withdrawals/api/create', { headers, body });
      if (r.status === 201 || r.status === 200) {
        this.withdrawals.push({ merchant, destination, amount: '3', withdrawalId: r.body.data.id });
      } else {
        const status =
          r.status === 422 ? 'refused: 422' : `not accepted: ${r.status} ${JSON.stringify(r.body)}`;
        this.withdrawals.push({ merchant, destination, amount: '3', status });
      }
      await sleep(2_500);
    }
  }
}
