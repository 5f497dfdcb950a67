import { feesJson, messageJson, publicKeysJson, v1AttestationJson, type PendingShape } from './api-json.js';
import { ReattestError, type MessageAttester } from './attester.js';
import type { ChainClient } from './chain-client.js';
import type { ForwardingRelayer } from './forwarder.js';
import type { ApiResponse, IrisRoutes } from './http.js';
import type { ResolvedOptions } from './options.js';
import type { MessageStore } from './store.js';

const error = (status: number, message: string): ApiResponse => ({ status, body: { error: message } });

/** The larger of a configured rate and the on-chain minimum (minFee is in 1/1000 bp). */
const atLeastOnchain = (bps: number, minFee: bigint): number => Math.max(bps, Number(minFee) / 1000);

export interface RouteDeps {
  options: ResolvedOptions;
  clients: ReadonlyMap<number, ChainClient>;
  store: MessageStore;
  attester: MessageAttester;
  relayer: ForwardingRelayer;
  /** How unsigned messages are written (tests switch it); placeholders by default. */
  pendingShape?: () => PendingShape;
}

export const irisRoutes = ({
  options,
  clients,
  store,
  attester,
  relayer,
  pendingShape = () => 'placeholders',
}: RouteDeps): IrisRoutes => ({
  messages(sourceDomain, filter) {
    if (!clients.has(sourceDomain)) return error(400, `Unsupported sourceDomainId ${sourceDomain}`);
    let found = filter.transactionHash
      ? store.byTransaction(sourceDomain, filter.transactionHash)
      : undefined;
    if (filter.nonce) {
      // Circle assigns the nonce when it signs, so only attested messages can be found by nonce.
      const nonce = filter.nonce.toLowerCase();
      found = (found ?? store.all().filter((r) => r.sourceDomain === sourceDomain)).filter(
        (r) => r.attested && r.nonce === nonce,
      );
    }
    if (!found || found.length === 0) return error(404, 'Message not found');
    return { status: 200, body: { messages: found.map((m) => messageJson(m, pendingShape())) } };
  },

  async fees(sourceDomain, destinationDomain, forward) {
    const source = clients.get(sourceDomain);
    if (!source || !clients.has(destinationDomain) || sourceDomain === destinationDomain) {
      return error(400, `Unsupported route ${sourceDomain} to ${destinationDomain}`);
    }
    if (forward) {
      const target = relayer.canForwardTo(destinationDomain);
      if (!target.ok) return error(400, `Forwarding is not available: ${target.reason}`);
    }
    const minFee = await source.minFee();
    const fastBps = options.fastBps(sourceDomain);
    return {
      status: 200,
      body: feesJson({
        fastBps: fastBps === undefined ? undefined : atLeastOnchain(fastBps, minFee),
        standardBps: atLeastOnchain(options.standardBps, minFee),
        forwardFee: forward ? options.forwardFee : undefined,
      }),
    };
  },

  async reattest(nonce) {
    const record = store.all().find((r) => r.nonce === nonce);
    if (!record) return error(404, 'Message not found');
    const source = clients.get(record.sourceDomain) as ChainClient;
    const destination = clients.get(record.destinationDomain);
    try {
      const attested = attester.reattest(record, await source.head(), await destination?.head());
      store.setAttested(record, attested);
    } catch (caught) {
      if (caught instanceof ReattestError) return error(400, caught.message);
      throw caught;
    }
    return { status: 200, body: { message: 'Re-attestation successfully requested for nonce.', nonce } };
  },

  publicKeys: () => ({ status: 200, body: publicKeysJson(options.attesterKeys) }),

  v1Attestation(messageHash) {
    const entry = store.byMessageHash(messageHash);
    if (!entry) return error(404, 'Message hash not found');
    // The hash of a signed message gets that message's own signature; the emitted bytes' hash the current one.
    return { status: 200, body: v1AttestationJson(entry.attestation ?? entry.record.attested?.attestation) };
  },
});
