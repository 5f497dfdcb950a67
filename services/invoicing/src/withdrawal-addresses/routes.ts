import { forbidden, ok, type HandlerOf, type InternalClaims } from '@stablepay/platform';
import type { InvoicingContext } from '../context.js';
import {
  addWithdrawalAddress,
  listAddressBook,
  removeWithdrawalAddress,
  type BookActor,
} from './withdrawal-addresses.js';
import { toWithdrawalAddressView } from './views.js';

/** The user and step-up the gateway vouched for (the platform's step-up guard already required them). */
const actorOf = (auth: InternalClaims | undefined): BookActor => {
  if (!auth?.userId || !auth.stepUp) throw forbidden('This action needs a dashboard user who confirmed it');
  return { userId: auth.userId, stepUp: auth.stepUp };
};

/** GET /withdrawal-addresses: entries on the book, oldest first. */
export const listWithdrawalAddressesRoute =
  (ctx: InvoicingContext): HandlerOf<'listWithdrawalAddresses'> =>
  async ({ merchant, res }) => {
    const entries = await listAddressBook(ctx, merchant.merchantId);
    ok(res, { addresses: entries.map(toWithdrawalAddressView) });
  };

/** POST /withdrawal-addresses: 201 with the entry, on hold until `usable_from`. */
export const addWithdrawalAddressRoute =
  (ctx: InvoicingContext): HandlerOf<'addWithdrawalAddress'> =>
  async ({ body, merchant, auth, res }) => {
    const entry = await addWithdrawalAddress(ctx, merchant.merchantId, body, actorOf(auth));
    ok(res, toWithdrawalAddressView(entry), 201);
  };

/** DELETE /withdrawal-addresses/:id: 200 with the removed entry; another merchant's is a 404. */
export const removeWithdrawalAddressRoute =
  (ctx: InvoicingContext): HandlerOf<'removeWithdrawalAddress'> =>
  async ({ params, merchant, auth, res }) => {
    const entry = await removeWithdrawalAddress(ctx, merchant.merchantId, params.id, actorOf(auth));
    ok(res, toWithdrawalAddressView(entry));
  };
