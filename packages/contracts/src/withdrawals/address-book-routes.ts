import { created, ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import {
  AddWithdrawalAddressBody,
  WithdrawalAddressIdParams,
  WithdrawalAddressListResponse,
  WithdrawalAddressResponse,
} from './address-book.js';

const book = {
  service: 'invoicing',
  tags: ['Withdrawals'],
  extension: true,
  auth: 'jwt',
} as const;

const STEP_UP =
  'Needs a step-up: with two-factor sign-in on, a current authenticator code in `X-Mfa-Code`; ' +
  'otherwise a sign-in within the last 10 minutes (403 `reauthentication_required`: sign in again). ' +
  'Written to the audit log and announced to the merchant by e-mail.';

/** The withdrawal address book (dashboard only: API keys get 403). */
export const withdrawalAddressRoutes = routeTable([
  {
    ...book,
    operationId: 'listWithdrawalAddresses',
    method: 'get',
    path: '/withdrawal-addresses',
    summary: 'The withdrawal address book: addresses on hold and active, oldest first',
    description:
      'Every address withdrawals may go to, with its label, chain and status: `on_hold` until its hold ends (the time is given), then `active`. Removed addresses are not listed. Dashboard only: an API key cannot read or change the book.',
    responses: ok('Address book', WithdrawalAddressListResponse),
  },
  {
    ...book,
    operationId: 'addWithdrawalAddress',
    method: 'post',
    path: '/withdrawal-addresses',
    stepUp: true,
    summary: 'Add an address withdrawals may go to, after the hold',
    description:
      'The address becomes usable at `usable_from` (now + the hold, 24 hours by default). An address ' +
      'already on the book is a 409; a removed one can be added again, with a new hold. ' +
      STEP_UP,
    request: { body: AddWithdrawalAddressBody },
    responses: created('Added (on hold)', WithdrawalAddressResponse),
  },
  {
    ...book,
    operationId: 'removeWithdrawalAddress',
    method: 'delete',
    path: '/withdrawal-addresses/:id',
    stepUp: true,
    summary: 'Remove an address from the book: no withdrawal goes there any more',
    description: `Removing an entry that is already removed answers it again. ${STEP_UP}`,
    request: { params: WithdrawalAddressIdParams },
    responses: ok('Removed', WithdrawalAddressResponse),
  },
]);
