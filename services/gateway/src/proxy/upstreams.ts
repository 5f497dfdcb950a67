import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { OwningService } from '@stablepay/contracts';
import type { GatewayConfig } from '../config.js';

export interface Upstream {
  service: OwningService;
  url: URL;
  agent: HttpAgent;
}

export type Upstreams = Map<OwningService, Upstream>;

/** One pooled, keep-alive agent per service behind the gateway. */
export const createUpstreams = (config: GatewayConfig): Upstreams => {
  const urls: Array<[OwningService, string]> = [
    ['payments', config.PAYMENTS_URL],
    ['chain-watcher', config.CHAIN_WATCHER_URL],
    ['refunds', config.REFUNDS_URL],
    ['invoicing', config.INVOICING_URL],
    ['notifier', config.NOTIFIER_URL],
  ];
  const upstreams: Upstreams = new Map();
  for (const [service, raw] of urls) {
    const url = new URL(raw);
    const options = { keepAlive: true, maxSockets: 256, maxFreeSockets: 32 };
    const agent = url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    upstreams.set(service, { service, url, agent });
  }
  return upstreams;
};

/** Closes the pooled connections, at shutdown. */
export const closeUpstreams = (upstreams: Upstreams): void => {
  for (const { agent } of upstreams.values()) agent.destroy();
};
