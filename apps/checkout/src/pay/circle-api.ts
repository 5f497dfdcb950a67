/*
 * The two answers of Circle's attestation API the bridge-kit flow needs: what a fast transfer may
 * cost, and the signed message of a burn. Loaded with the cross-chain flow only.
 */

/** Fast transfer (Circle attests at 1000 confirmations-equivalent "confirmed" rather than finalized). */
export const FAST_FINALITY = 1000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

const base = (attestationUrl: string) => attestationUrl.replace(/\/$/, '');

/**
 * The most Circle may take for a fast transfer on this route: its published rate, rounded up, plus
 * one unit. Without an answer, 1%: the burn is then attested as a standard transfer if that is short.
 */
export const maxFeeFor = async (
  attestationUrl: string,
  src: number,
  dst: number,
  amount: bigint,
): Promise<bigint> => {
  try {
    const res = await fetch(`${base(attestationUrl)}/v2/burn/USDC/fees/${src}/${dst}`);
    const fees = (await res.json()) as Array<{ finalityThreshold: number; minimumFee: number }>;
    const fast = fees.find((f) => f.finalityThreshold <= FAST_FINALITY);
    if (fast) {
      const milliBps = BigInt(Math.round(fast.minimumFee * 1000));
      return (amount * milliBps + 9_999_999n) / 10_000_000n + 1n;
    }
  } catch {
    // fall through to the default
  }
  return amount / 100n;
};

/**
 * The fee a burn of `amount` carries for the merchant to receive `amount`: the most Circle may take
 * on the amount plus that fee (what the cross-chain flow burns, and what the page shows beforehand).
 */
export const burnFeeFor = async (
  attestationUrl: string,
  src: number,
  dst: number,
  amount: bigint,
): Promise<bigint> =>
  maxFeeFor(attestationUrl, src, dst, amount + (await maxFeeFor(attestationUrl, src, dst, amount)));

/** Circle's GET /v2/messages/{sourceDomain}?transactionHash=, polled until the message is signed. */
export const waitForAttestation = async (
  attestationUrl: string,
  sourceDomain: number,
  burnHash: string,
  signal: AbortSignal,
): Promise<{ message: string; attestation: string }> => {
  for (let delay = 1000; ; delay = Math.min(delay * 1.5, 10_000)) {
    signal.throwIfAborted();
    const res = await fetch(
      `${base(attestationUrl)}/v2/messages/${sourceDomain}?transactionHash=${burnHash}`,
    ).catch(() => undefined);
    if (res?.ok) {
      const body = (await res.json()) as {
        messages?: Array<{ status?: string; message?: string; attestation?: string }>;
      };
      const m = body.messages?.[0];
      if (m?.status === 'complete' && m.message && m.attestation && m.attestation !== 'PENDING')
        return { message: m.message, attestation: m.attestation };
    }
    // 404 until the burn is indexed, 429 when asked too often: both mean wait.
    await sleep(res?.status === 429 ? 30_000 : delay, signal);
  }
};
