import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { PaymentListQuery } from '@stablepay/contracts';
import { likePattern } from '../../src/payments/payments-repo.js';
import {
  IN_PROGRESS_STATUSES,
  PAYMENT_TRANSITIONS,
  statusesLeadingTo,
} from '../../src/payments/payment-machine.js';
import { toPaymentQuery } from '../../src/payments/payment-queries.js';

describe('payment state machine', () => {
  it('has no way out of completed or failed', () => {
    expect(PAYMENT_TRANSITIONS.completed).to.deep.equal([]);
    expect(PAYMENT_TRANSITIONS.failed).to.deep.equal([]);
  });

  it('completes or fails only from a status still under way', () => {
    expect(statusesLeadingTo('completed').sort()).to.deep.equal([...IN_PROGRESS_STATUSES].sort());
    expect(statusesLeadingTo('failed').sort()).to.deep.equal([...IN_PROGRESS_STATUSES].sort());
    expect(statusesLeadingTo('pending')).to.deep.equal([]);
    expect(statusesLeadingTo('minted_pending_transfer')).to.deep.equal(['ready_to_mint']);
  });
});

describe('payment list query', () => {
  const merchantId = randomUUID();
  const parse = (q: Record<string, string>) => toPaymentQuery(merchantId, PaymentListQuery.parse(q));

  it('defaults to newest first, 50 per page', () => {
    expect(parse({})).to.deep.equal({
      merchantId,
      currency: undefined,
      search: undefined,
      sortBy: 'created_at',
      sortDirection: 'desc',
      limit: 50,
      offset: 0,
    });
  });

  it('turns bare dates into whole UTC days and keeps datetimes exact', () => {
    const q = parse({ startDate: '2025-03-01', endDate: '2025-03-31' });
    expect(q.createdAtLeast!.toISOString()).to.equal('2025-03-01T00:00:00.000Z');
    expect(q.createdBefore!.toISOString()).to.equal('2025-04-01T00:00:00.000Z');
    const t = parse({
      startDate: '2025-03-01T10:00:00Z',
      endDate: '2025-03-01T12:00:00+02:00',
      since: '2025-02-01T00:00:00Z',
    });
    expect(t.createdAtLeast!.toISOString()).to.equal('2025-03-01T10:00:00.000Z');
    expect(t.createdAtMost!.toISOString()).to.equal('2025-03-01T10:00:00.000Z');
    expect(t.createdAfter!.toISOString()).to.equal('2025-02-01T00:00:00.000Z');
  });

  it('maps status=pending to every in-progress status', () => {
    expect(parse({ status: 'pending' }).statuses).to.deep.equal(IN_PROGRESS_STATUSES);
    expect(parse({ status: 'failed' }).statuses).to.deep.equal(['failed']);
  });

  it('escapes LIKE wildcards in search terms', () => {
    expect(likePattern('50%_off\\')).to.equal('%50\\%\\_off\\\\%');
  });
});
