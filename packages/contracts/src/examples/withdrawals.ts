import type { ExampleTable } from './example.js';
import { byId, ok, page, sample } from './objects.js';

const request = {
  body: {
    amount: sample.amount,
    currency: 'USDC',
    blockchain: 'ETH',
    destination_address: sample.merchantWallet,
  },
};

const withdrawal = {
  id: sample.id,
  amount: sample.amount,
  fee: sample.amount,
  net_amount: sample.amount,
  currency: 'USDC',
  blockchain: 'ETH',
  destination_address: sample.merchantWallet,
  status: 'requested',
  tx_hash: sample.txHash,
  fee_tx_hash: sample.otherHash,
  failure_reason: null,
  invoice_id: sample.id,
  created_at: sample.at,
  completed_at: sample.at,
};

const address = {
  id: sample.id,
  address: sample.merchantWallet,
  label: 'Treasury (hardware wallet)',
  status: 'on_hold',
  created_at: sample.at,
  usable_from: sample.at,
  removed_at: sample.at,
};

/** The API-key routes and the dashboard's own answer with the same withdrawal. */
const create = { request, responses: { 201: ok(withdrawal) } };
const list = { responses: { 200: ok(page('withdrawals', withdrawal)) } };
const get = { request: byId(), responses: { 200: ok(withdrawal) } };

export const withdrawalsExamples: ExampleTable = {
  createWithdrawalApi: create,
  listWithdrawalsApi: list,
  getWithdrawalApi: get,
  createWithdrawal: create,
  listWithdrawals: list,
  getWithdrawal: get,
  listWithdrawalAddresses: { responses: { 200: ok({ addresses: [address] }) } },
  addWithdrawalAddress: {
    request: { body: { address: address.address, label: address.label } },
    responses: { 201: ok(address) },
  },
  removeWithdrawalAddress: { request: byId(), responses: { 200: ok(address) } },
};
