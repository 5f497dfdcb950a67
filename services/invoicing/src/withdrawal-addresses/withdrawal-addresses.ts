import { randomUUID } from 'node:crypto';
import { getAddress } from 'ethers';
import type { AddWithdrawalAddressBody, StepUpMethod } from '@stablepay/contracts';
import { AppError, conflict, fieldDetail, isUniqueViolation, notFound } from '@stablepay/platform';
import {
  findLiveAddress,
  findWithdrawalAddress,
  insertWithdrawalAddress,
  listLiveAddresses,
  markAddressRemoved,
} from './withdrawal-addresses-repo.js';
import { lockMerchantWithdrawals } from '../withdrawals/withdrawals-repo.js';
import type { InvoicingContext } from '../context.js';
import type { WithdrawalAddressRecord } from './records.js';
import { isZeroAddress } from '../withdrawals/withdrawal-rules.js';

/** The dashboard user behind an address book change, and how the gateway saw them prove it. */
export interface BookActor {
  userId: string;
  stepUp: StepUpMethod;
}

/**
 * The address in its EIP-55 spelling. A mixed-case address is a checksum claim: one that does not
 * match is a typo, refused rather than trusted (a withdrawal there could be lost).
 */
export const checksummed = (address: string): string => {
  try {
    return getAddress(address);
  } catch {
    throw new AppError('validation', 'Body validation failed', [
      fieldDetail(
        'address',
        'The mixed-case address does not match its checksum (EIP-55)',
        'invalid_checksum',
      ),
    ]);
  }
};

export const listAddressBook = (
  ctx: InvoicingContext,
  merchantId: string,
): Promise<WithdrawalAddressRecord[]> => listLiveAddresses(ctx.db, merchantId);

const eventData = (entry: WithdrawalAddressRecord, actor: BookActor) => ({
  merchantId: entry.merchantId,
  addressId: entry.id,
  address: entry.address,
  label: entry.label,
  userId: actor.userId,
  stepUp: actor.stepUp,
  usableFrom: entry.usableFrom.toISOString(),
});

/**
 * Adds an address, usable after the hold. An address already on the book is a 409 (its label and
 * hold stay as they are); a removed one may be added again and starts a new hold. The unique index
 * decides between two adds of the same address at once.
 */
export const addWithdrawalAddress = async (
  ctx: InvoicingContext,
  merchantId: string,
  body: AddWithdrawalAddressBody,
  actor: BookActor,
): Promise<WithdrawalAddressRecord> => {
  const address = checksummed(body.address);
  if (isZeroAddress(address))
    throw new AppError('validation', 'Body validation failed', [
      fieldDetail('address', 'Tokens sent to the zero address are lost', 'invalid_destination'),
    ]);
  const alreadyListed = () =>
    conflict('The address is already on the withdrawal address book', [
      fieldDetail('address', 'Remove it first to change its label', 'address_already_listed'),
    ]);
  if (await findLiveAddress(ctx.db, merchantId, address)) throw alreadyListed();
  try {
    const entry = await ctx.db.transaction(async (trx) => {
      const added = await insertWithdrawalAddress(trx, {
        id: randomUUID(),
        merchantId,
        address,
        label: body.label,
        userId: actor.userId,
        holdMs: ctx.addressHoldMs,
      });
      await ctx.writeEvent(trx, 'withdrawal_address.added', merchantId, {
        ...eventData(added, actor),
        addedAt: added.createdAt.toISOString(),
      });
      return added;
    });
    ctx.logger.info('withdrawal address added', { addressId: entry.id, usableFrom: entry.usableFrom });
    return entry;
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyListed();
    throw err;
  }
};

/**
 * Removes an entry: from the commit on, no withdrawal goes there. Taken under the merchant's
 * withdrawal lock, so a withdrawal deciding at the same moment either finished before or sees the
 * removal. Removing a removed entry answers it again and announces nothing.
 */
export const removeWithdrawalAddress = async (
  ctx: InvoicingContext,
  merchantId: string,
  id: string,
  actor: BookActor,
): Promise<WithdrawalAddressRecord> => {
  const outcome = await ctx.db.transaction(async (trx) => {
    await lockMerchantWithdrawals(trx, merchantId);
    const removed = await markAddressRemoved(trx, merchantId, id, actor.userId);
    if (!removed) return { entry: await findWithdrawalAddress(trx, merchantId, id), changed: false };
    await ctx.writeEvent(trx, 'withdrawal_address.removed', merchantId, {
      ...eventData(removed, actor),
      removedAt: removed.removedAt!.toISOString(),
    });
    return { entry: removed, changed: true };
  });
  if (!outcome.entry) throw notFound('Withdrawal address');
  if (outcome.changed) {
    ctx.logger.info('withdrawal address removed', { addressId: id });
  }
  return outcome.entry;
};

const destinationRefused = (message: string, detail: string, code: string): AppError =>
  new AppError('unprocessable', message, [fieldDetail('destination_address', detail, code)]);

/**
 * The book's entry a withdrawal may go to, or the refusal saying why not: not on the book (or
 * removed from it), or still in its hold. Called again under the merchant's lock before anything is
 * recorded.
 */
export const approvedDestination = async (
  db: Parameters<typeof findLiveAddress>[0],
  merchantId: string,
  destination: string,
): Promise<WithdrawalAddressRecord> => {
  const entry = await findLiveAddress(db, merchantId, destination);
  if (!entry)
    throw destinationRefused(
      'The destination is not on the withdrawal address book',
      'Add it to the address book in the dashboard; withdrawals go only to approved addresses',
      'destination_not_approved',
    );
  if (!entry.usable)
    throw destinationRefused(
      'The destination is still on hold',
      `usable_from: ${entry.usableFrom.toISOString()}`,
      'destination_on_hold',
    );
  return entry;
};
