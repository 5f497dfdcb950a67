import type { GaslessQuote } from '@stablepay/contracts';
// The module path, not the package root: the page bundles this one small file, not every schema.
import { transferAuthorizationTypedData } from '@stablepay/contracts/gasless/authorization';
import { AUTHORIZATION_USED_TOPIC, addressWord } from '../eth/abi.js';
import { getLogs } from '../eth/rpc.js';
import { signTypedData } from '../eth/wallet.js';
import { PayError } from './errors.js';
import { paymentFailed, settlementNow, waitForSettlement } from './settle.js';
import { requireBalance, switchStep } from './steps.js';
import type { PayContext, PaymentOutcome, PayOption, PendingPayment } from './types.js';

/*
 * Paying with one signature (EIP-3009 TransferWithAuthorization): the customer signs the quote's
 * total to the quote's recipient (the merchant's wallet, or the relay's address when the relay
 * bridges it), the gateway checks it and the relay sends it. The customer needs no native gas.
 */

/** Time the customer needs to read the wallet's prompt: a quote closer to its end is fetched again. */
const QUOTE_MARGIN_MS = 15_000;

export const quoteUsable = (quote: Pick<GaslessQuote, 'expiresAt'>, now = Date.now()): boolean =>
  new Date(quote.expiresAt).getTime() - now > QUOTE_MARGIN_MS;

/**
 * What the page knows itself must agree with the quote: the chain and token chosen and, on one
 * chain, the merchant's wallet as recipient. Anything else is not signed.
 */
const checkQuote = (ctx: PayContext, option: PayOption, quote: GaslessQuote): void => {
  const token = option.chain.tokens[option.token]?.toLowerCase();
  const mismatch =
    quote.chainId !== option.chain.chainId ||
    quote.domain.chainId !== option.chain.chainId ||
    quote.domain.verifyingContract.toLowerCase() !== token ||
    quote.token !== option.token ||
    (!option.crossChain && quote.authorization.to.toLowerCase() !== ctx.target.walletAddress);
  if (mismatch) throw new PayError('failed', 'The gasless quote does not match the payment chosen');
};

/** The wallet on the token's chain (its typed-data domain names it), then the one signature. */
const sign = async (ctx: PayContext, option: PayOption, pending: PendingPayment): Promise<void> => {
  const quote = pending.quote!;
  if (!quoteUsable(quote)) throw new PayError('quote_expired', 'The fee quote expired');
  checkQuote(ctx, option, quote);
  const { chain, token } = option;
  await switchStep(ctx, chain);
  const value = BigInt(quote.authorization.value);
  await requireBalance(chain, token, pending.account, value);
  ctx.onStep({ kind: 'sign', state: 'active', chainId: chain.chainId, units: value.toString() });
  const { to, nonce, validBefore } = quote.authorization;
  // validAfter 0: valid at once, whatever the customer's clock says.
  const message = {
    from: pending.account,
    to,
    value,
    validAfter: 0,
    validBefore: Number(validBefore),
    nonce,
  };
  const { name, version, chainId, verifyingContract } = quote.domain;
  const signature = await signTypedData(
    ctx.provider!,
    pending.account,
    transferAuthorizationTypedData({ name, version, chainId, verifyingContract }, message),
  );
  pending.authorization = {
    from: pending.account,
    to,
    value: value.toString(),
    validAfter: '0',
    validBefore,
    nonce,
    signature,
  };
  ctx.save(pending);
  ctx.onStep({ kind: 'sign', state: 'done', chainId: chain.chainId, units: value.toString() });
};

/** POST /payments/create-gasless: idempotent by chain, payer and nonce, so a reload may send it again. */
const record = async (ctx: PayContext, option: PayOption, pending: PendingPayment): Promise<string> => {
  if (pending.paymentId) return pending.paymentId;
  ctx.onStep({ kind: 'record', state: 'active' });
  const { target } = ctx;
  const quote = pending.quote!;
  const created = await ctx.api.createGasless({
    merchantId: target.merchantId,
    ...(target.sessionId ? { sessionId: target.sessionId } : { amount: quote.amount }),
    chainId: option.chain.chainId,
    token: option.token,
    ...(quote.destinationChainId !== null ? { destinationChainId: quote.destinationChainId } : {}),
    authorization: pending.authorization!,
    quote,
    customerEmail: pending.email,
    language: ctx.language,
    ...(target.reference ? { reference: target.reference } : {}),
  });
  pending.paymentId = created.paymentId;
  ctx.save(pending);
  ctx.onStep({ kind: 'record', state: 'done' });
  return created.paymentId;
};

/** The transaction that used the authorization: FiatToken's AuthorizationUsed(from, nonce), whoever sent it. */
const findRelayed = async (option: PayOption, pending: PendingPayment): Promise<string | undefined> => {
  const auth = pending.authorization!;
  const logs = await getLogs(option.chain.rpcUrls, {
    address: option.chain.tokens[option.token]!,
    topics: [AUTHORIZATION_USED_TOPIC, `0x${addressWord(auth.from)}`, auth.nonce.toLowerCase()],
    fromBlock: BigInt(pending.fromBlock),
  }).catch(() => []);
  return logs[0]?.transactionHash.toLowerCase();
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits for the relay's transaction on the customer's chain, shown with its link; a payment the
 * service settles (or fails) before the page sees the log ends the wait too.
 */
const followRelay = async (
  ctx: PayContext,
  option: PayOption,
  pending: PendingPayment,
  paymentId: string,
): Promise<string | undefined> => {
  const { chainId } = option.chain;
  ctx.onStep({ kind: 'relay', state: 'active', chainId });
  for (let delay = 1000; ; delay = Math.min(delay + 500, 3000)) {
    ctx.signal.throwIfAborted();
    const txHash = await findRelayed(option, pending);
    const state = txHash ? 'pending' : await settlementNow(ctx, paymentId);
    if (state === 'failed') throw paymentFailed();
    if (txHash || state === 'completed') {
      ctx.onStep({ kind: 'relay', state: 'done', chainId, txHash });
      return txHash;
    }
    await sleep(delay);
  }
};

/** Signature, record, the relay's transaction, settlement: resumable at each. */
export const payGasless = async (
  ctx: PayContext,
  option: PayOption,
  pending: PendingPayment,
): Promise<PaymentOutcome> => {
  // The relay sends on the customer's chain, also when the merchant's is another: named from the start.
  ctx.onStep({ kind: 'relay', state: 'waiting', chainId: option.chain.chainId });
  if (!pending.authorization) await sign(ctx, option, pending);
  else
    for (const kind of ['switch', 'sign'] as const)
      ctx.onStep({ kind, state: 'done', chainId: option.chain.chainId, units: pending.authorization.value });
  const paymentId = await record(ctx, option, pending);
  const relayed = await followRelay(ctx, option, pending, paymentId);
  ctx.onStep({ kind: 'settle', state: 'active' });
  const outcome = await waitForSettlement(
    ctx,
    paymentId,
    relayed ?? (await findRelayed(option, pending)) ?? '',
  );
  ctx.onStep({ kind: 'settle', state: 'done' });
  const { token, amount, networkFee, cctpFee, feeBearer, total, destinationChainId } = pending.quote!;
  return {
    ...outcome,
    chainId: option.chain.chainId,
    fees: { token, amount, networkFee, cctpFee, feeBearer, total, destinationChainId },
  };
};
