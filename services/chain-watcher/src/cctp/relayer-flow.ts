import type { CctpPaymentRecord } from './cctp-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import type { CctpOutcome } from './burn-rules.js';
import { checkAttestation } from './relayer-attestation.js';
import { checkRelayedBurn } from './relayer-burn.js';
import { advanceRelayMint } from './relayer-mint.js';
import { relayRouteOf } from './relayer-route.js';
import { advanceRelayTransfer } from './relayer-transfer.js';
import { runCctpStep } from './steps.js';

const step = async (ctx: WatcherContext, p: CctpPaymentRecord): Promise<CctpOutcome | undefined> => {
  const route = await relayRouteOf(ctx, p);
  if (!('relay' in route)) return route;
  switch (p.step) {
    case 'burn':
      return checkRelayedBurn(ctx, p, route);
    case 'attestation':
      return checkAttestation(ctx, p, route);
    case 'mint':
      return advanceRelayMint(ctx, p, route);
    case 'transfer':
      return advanceRelayTransfer(ctx, p, route);
    default:
      return undefined;
  }
};

/** One look at a relayer-flow payment: burn → attestation → mint → transfer (see runCctpStep). */
export const advanceRelayerPayment = (ctx: WatcherContext, p: CctpPaymentRecord): Promise<void> =>
  runCctpStep(ctx, p, () => step(ctx, p));
