import { z } from 'zod';
import { envPort } from '@stablepay/platform';

const urlList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ })));

/** The checkout page's deployment: the only things it learns at run time. */
export const checkoutConfigSchema = z.object({
  PORT: envPort.default(8081),
  HOST: z.string().default('0.0.0.0'),
  /** The gateway's public URL, as customers' browsers reach it. */
  GATEWAY_URL: z.url({ protocol: /^https?$/ }),
  /**
   * Further origins the page may connect to: the RPC endpoints of the chains in GET /chains and the
   * attestation API the cross-chain flow polls. Nothing else is allowed by the page's CSP.
   */
  CONNECT_SRC: urlList.default([]),
  /**
   * Origins of shop pages that may open the widget without a checkout session (the widget framed by
   * any other page is refused). A session-bound widget needs no entry: its return and cancel URLs name
   * the shop's origin.
   */
  WIDGET_ORIGINS: urlList.default([]),
  /** The gateway as this server reaches it, when GATEWAY_URL (the browsers' address) is not reachable from here. */
  GATEWAY_INTERNAL_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The built app (default: apps/checkout/dist beside this server). */
  CHECKOUT_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
});
