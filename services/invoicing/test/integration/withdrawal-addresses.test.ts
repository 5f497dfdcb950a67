import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { getAddress } from 'ethers';
import {
  WithdrawalAddressAddedData,
  WithdrawalAddressListResponse,
  WithdrawalAddressRemovedData,
  WithdrawalAddressResponse,
} from '@stablepay/contracts';
import { waitFor, type EventObserver } from '@stablepay/platform/testing';
import { randomAddress, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

const HOUR = 3_600_000;

describe('the withdrawal address book and its hold (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let observer: EventObserver;

  before(async () => {
    h = await startHarness({ WITHDRAWAL_ADDRESS_HOLD: '24h' });
    observer = await h.observe(['withdrawal_address.*', 'transfer.requested']);
  });
  after(async () => {
    await observer?.close();
    await h?.close();
  });

  const userId = randomUUID();
  const asUser = (m: TestMerchant, method: string, path: string, body?: unknown, stepUp = true) =>
    h.call(method, path, {
      merchantId: m.merchantId,
      caller: 'user',
      userId,
      ...(stepUp && { stepUp: 'mfa' as const }),
      body,
    });
  const add = async (m: TestMerchant, address: string, label = 'Cold wallet') => {
    const res = await asUser(m, 'POST', '/withdrawal-addresses', { address, label });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return WithdrawalAddressResponse.parse(res.body).data;
  };
  const withdrawTo = (m: TestMerchant, destination: string) =>
    h.as(m, 'POST', '/withdrawals/api/create', {
      amount: '10',
      currency: 'USDC',
      destination_address: destination,
    });
  /** As if the address had been added a day ago: its hold has just passed. */
  const endHold = (id: string) =>
    h
      .db('withdrawal_addresses')
      .where({ id })
      .update({
        created_at: h.db.raw(`now() - interval '1 day 1 second'`),
        usable_from: h.db.raw(`now() - interval '1 second'`),
      });

  it('adds an address on hold for 24 hours, in its checksummed spelling, and announces it', async () => {
    const m = h.merchant();
    const lower = randomAddress();
    const before = Date.now();
    const entry = await add(m, lower, '  Cold wallet  ');
    expect(entry).to.include({ address: getAddress(lower), label: 'Cold wallet', status: 'on_hold' });
    expect(entry.removed_at).to.equal(null);
    const hold = Date.parse(entry.usable_from) - Date.parse(entry.created_at);
    expect(hold).to.equal(24 * HOUR);
    expect(Date.parse(entry.created_at)).to.be.within(before - 2000, Date.now() + 2000);

    const event = await waitFor(async () =>
      observer.messages.find((e) => e.type === 'withdrawal_address.added' && e.data.addressId === entry.id),
    );
    expect(WithdrawalAddressAddedData.parse(event.data)).to.deep.equal({
      merchantId: m.merchantId,
      addressId: entry.id,
      address: entry.address,
      label: 'Cold wallet',
      userId,
      stepUp: 'mfa',
      usableFrom: entry.usable_from,
      addedAt: entry.created_at,
    });

    const list = await asUser(m, 'GET', '/withdrawal-addresses', undefined, false);
    expect(WithdrawalAddressListResponse.parse(list.body).data.addresses).to.deep.equal([entry]);
    // Another merchant's book is its own.
    const other = h.merchant();
    expect((await asUser(other, 'GET', '/withdrawal-addresses')).body.data.addresses).to.deep.equal([]);
  });

  it('refuses bad addresses (400), an address already listed in any spelling (409), keys and unconfirmed users (403)', async () => {
    const m = h.merchant();
    const address = getAddress(randomAddress());
    await add(m, address);

    const bad = async (body: Record<string, unknown>, path: string, code?: string) => {
      const res = await asUser(m, 'POST', '/withdrawal-addresses', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.success).to.equal(false);
      expect(res.body.details[0].path).to.equal(path);
      if (code) expect(res.body.details[0].code).to.equal(code);
    };
    await bad({ address: '0x1234', label: 'x' }, 'address');
    await bad({ address: randomAddress(), label: '' }, 'label');
    await bad({ address: randomAddress(), label: 'x'.repeat(101) }, 'label');
    // One line: the label goes into e-mail subjects.
    await bad({ address: randomAddress(), label: 'Cold\r\nBcc: thief@example.com' }, 'label');
    // One character's case changed: the checksum catches the typo.
    const typo = address.replace(/[a-f]/, (c) => c.toUpperCase());
    await bad({ address: typo, label: 'x' }, 'address', 'invalid_checksum');
    await bad(
      { address: '0x0000000000000000000000000000000000000000', label: 'x' },
      'address',
      'invalid_destination',
    );

    for (const spelling of [address, address.toLowerCase(), `0x${address.slice(2).toUpperCase()}`]) {
      const dup = await asUser(m, 'POST', '/withdrawal-addresses', { address: spelling, label: 'Again' });
      expect(dup.status).to.equal(409);
      expect(dup.body.details[0]).to.include({ path: 'address', code: 'address_already_listed' });
    }

    const key = await h.as(m, 'POST', '/withdrawal-addresses', { address: randomAddress(), label: 'k' });
    expect(key.status).to.equal(403);
    expect((await h.as(m, 'GET', '/withdrawal-addresses')).status).to.equal(403);
    const unconfirmed = await asUser(
      m,
      'POST',
      '/withdrawal-addresses',
      { address: randomAddress(), label: 'u' },
      false,
    );
    expect(unconfirmed.status).to.equal(403);
    expect(unconfirmed.body.details[0].code).to.equal('step_up_required');
    const [entry] = (await asUser(m, 'GET', '/withdrawal-addresses')).body.data.addresses;
    const removeUnconfirmed = await asUser(
      m,
      'DELETE',
      `/withdrawal-addresses/${entry.id}`,
      undefined,
      false,
    );
    expect(removeUnconfirmed.status).to.equal(403);
    expect(await h.db('withdrawal_addresses').where({ merchant_id: m.merchantId })).to.have.length(1);
  });

  it('lets one of many simultaneous adds of an address through', async () => {
    const m = h.merchant();
    const address = randomAddress();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => asUser(m, 'POST', '/withdrawal-addresses', { address, label: 'Race' })),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409, 409, 409]);
  });

  it('sends withdrawals only to an address whose hold has passed, and never after it is removed', async () => {
    const m = h.merchant({ USDC: '1000' });
    const stranger = randomAddress();
    let res = await withdrawTo(m, stranger);
    expect(res.status).to.equal(422);
    expect(res.body).to.deep.include({
      success: false,
      error: 'The destination is not on the withdrawal address book',
    });
    expect(res.body.details[0]).to.include({ path: 'destination_address', code: 'destination_not_approved' });

    const entry = await add(m, randomAddress());
    res = await withdrawTo(m, entry.address.toLowerCase());
    expect(res.status).to.equal(422);
    expect(res.body.error).to.equal('The destination is still on hold');
    expect(res.body.details[0]).to.deep.equal({
      path: 'destination_address',
      code: 'destination_on_hold',
      message: `usable_from: ${entry.usable_from}`,
    });
    // The dashboard's twin answers the same.
    res = await h.as(
      m,
      'POST',
      '/withdrawals',
      { currency: 'USDC', destination_address: entry.address },
      'jwt',
    );
    expect(res.body.details[0].code).to.equal('destination_on_hold');
    // Refused while the wallet cannot even be read: the book decides first.
    h.balances.failing = true;
    try {
      expect((await withdrawTo(m, stranger)).body.details[0].code).to.equal('destination_not_approved');
    } finally {
      h.balances.failing = false;
    }
    expect(await h.db('withdrawals').where({ merchant_id: m.merchantId })).to.have.length(0);

    await endHold(entry.id);
    const listed = (await asUser(m, 'GET', '/withdrawal-addresses')).body.data.addresses;
    expect(listed[0]).to.include({ id: entry.id, status: 'active' });
    // Any spelling of an approved address: the withdrawal records the book's.
    res = await withdrawTo(m, entry.address.toLowerCase());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data.destination_address).to.equal(entry.address);
    const net = await waitFor(async () =>
      observer.messages.find(
        (e) =>
          e.type === 'transfer.requested' && e.data.idempotencyKey === `withdrawal:${res.body.data.id}:net`,
      ),
    );
    expect(net.data.toAddress).to.equal(entry.address);

    const removed = await asUser(m, 'DELETE', `/withdrawal-addresses/${entry.id}`);
    expect(removed.status).to.equal(200);
    expect(WithdrawalAddressResponse.parse(removed.body).data).to.include({
      id: entry.id,
      status: 'removed',
    });
    expect(removed.body.data.removed_at).to.be.a('string');
    res = await withdrawTo(m, entry.address);
    expect(res.status).to.equal(422);
    expect(res.body.details[0].code).to.equal('destination_not_approved');
    expect(await h.db('withdrawals').where({ merchant_id: m.merchantId })).to.have.length(1);
    expect((await asUser(m, 'GET', '/withdrawal-addresses')).body.data.addresses).to.deep.equal([]);

    // Added again: a new entry, with a new hold.
    const again = await add(m, entry.address, 'Back');
    expect(again.id).to.not.equal(entry.id);
    expect(again.status).to.equal('on_hold');
  });

  it('removes an entry once: a second removal answers it again and announces nothing; another merchant gets 404', async () => {
    const m = h.merchant();
    const entry = await add(m, randomAddress(), 'Old');
    const first = await asUser(m, 'DELETE', `/withdrawal-addresses/${entry.id}`);
    const second = await asUser(m, 'DELETE', `/withdrawal-addresses/${entry.id}`);
    expect(second.status).to.equal(200);
    expect(second.body.data).to.deep.equal(first.body.data);
    const removedEvents = () =>
      observer.messages.filter(
        (e) => e.type === 'withdrawal_address.removed' && e.data.addressId === entry.id,
      );
    const event = await waitFor(async () => removedEvents()[0]);
    expect(WithdrawalAddressRemovedData.parse(event.data)).to.include({
      merchantId: m.merchantId,
      address: entry.address,
      label: 'Old',
      userId,
      stepUp: 'mfa',
      removedAt: first.body.data.removed_at,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(removedEvents()).to.have.length(1);

    const other = h.merchant();
    const foreign = await asUser(other, 'DELETE', `/withdrawal-addresses/${entry.id}`);
    expect(foreign.status).to.equal(404);
    expect(foreign.body).to.deep.equal({
      success: false,
      error: 'Withdrawal address not found',
      details: [],
    });
    expect((await asUser(m, 'DELETE', `/withdrawal-addresses/${randomUUID()}`)).status).to.equal(404);
    expect((await asUser(m, 'DELETE', '/withdrawal-addresses/nope')).status).to.equal(400);
  });
});
