import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import { Stablepay, WebhookVerificationError, type WebhookEvent } from '@stablepay/node';

export interface Order {
  id: string;
  item: string;
  /** decimal string, as the API takes it: never a float */
  amount: string;
  status: 'awaiting_payment' | 'paid';
  sessionId: string;
  checkoutUrl: string;
  paymentId?: string;
  /** when the session was created and when the paying webhook was verified (ms since the epoch) */
  sessionCreatedAt: number;
  paidAt?: number;
}

export interface ShopOptions {
  stablepay: Stablepay;
  /** The webhook endpoint's secret (`whsec_…`); read at each delivery, so it can be set after start. */
  webhookSecret: () => string;
  /** Where the shop is reached, for the checkout page's return link. */
  publicUrl: string;
}

/**
 * A shop of one page: an order creates a hosted checkout session; the `payment.completed` webhook,
 * once its signature checks out, marks the order paid. Orders live in memory: a real shop keeps
 * them in its database.
 */
export const createShop = (opts: ShopOptions): { app: Express; orders: Map<string, Order> } => {
  const orders = new Map<string, Order>();
  const app = express();

  app.post('/orders', express.json(), async (req, res, next) => {
    try {
      const { item, amount } = req.body as { item: string; amount: string };
      const id = randomUUID();
      const sessionCreatedAt = Date.now();
      const session = await opts.stablepay.checkout.sessions.create(
        {
          amount,
          currency: 'USDC',
          return_url: `${opts.publicUrl}/orders/${id}`,
          metadata: { order_id: id },
        },
        { idempotencyKey: `order-${id}` },
      );
      const order: Order = {
        id,
        item,
        amount,
        status: 'awaiting_payment',
        sessionId: session.id,
        checkoutUrl: session.url,
        sessionCreatedAt,
      };
      orders.set(id, order);
      res.status(201).json(order);
    } catch (err) {
      next(err);
    }
  });

  app.get('/orders/:id', (req, res) => {
    const order = orders.get(req.params.id);
    if (order) res.json(order);
    else res.status(404).json({ error: 'no such order' });
  });

  // The raw body: the signature covers the bytes as sent, not a re-serialised object.
  app.post('/webhooks/stablepay', express.raw({ type: 'application/json' }), async (req, res, next) => {
    let event: WebhookEvent;
    try {
      event = await Stablepay.webhooks.constructEvent(req.body as Buffer, req.headers, opts.webhookSecret());
    } catch (err) {
      if (err instanceof WebhookVerificationError) return void res.status(401).json({ error: err.message });
      return next(err);
    }
    try {
      if (event.event === 'payment.completed') await markPaid(opts.stablepay, orders, event.data.payment_id);
      res.status(204).end();
    } catch (err) {
      next(err); // a 5xx: the platform sends the event again later
    }
  });

  return { app, orders };
};

/**
 * The order whose checkout session this payment completed. The webhook is authentic, but the session
 * link is read from the API, which is the state of record (and repeats are harmless: a paid order
 * stays paid).
 */
const markPaid = async (stablepay: Stablepay, orders: Map<string, Order>, paymentId: string) => {
  for (const order of orders.values()) {
    if (order.status === 'paid') continue;
    const session = await stablepay.checkout.sessions.retrieve(order.sessionId);
    if (session.payment?.id !== paymentId || session.payment.status !== 'completed') continue;
    order.status = 'paid';
    order.paymentId = paymentId;
    order.paidAt = Date.now();
    return;
  }
};
