import { expect } from 'chai';
import { defineTransitions, nextStatuses, statusesLeadingTo } from '../../src/state-machine/transitions.js';

type Status = 'requested' | 'processing' | 'completed' | 'failed';
const statuses: Status[] = ['requested', 'processing', 'completed', 'failed'];
const table = defineTransitions<Status, 'submit' | 'confirm' | 'fail' | 'note'>({
  submit: { from: ['requested'], to: 'processing' },
  confirm: { from: ['requested', 'processing'], to: 'completed' },
  fail: { from: ['requested', 'processing'], to: 'failed' },
  note: { from: ['processing'], to: 'processing' },
});

describe('transitions table', () => {
  it('lists the statuses that lead to a status', () => {
    expect(statusesLeadingTo(table, 'completed')).to.deep.equal(['requested', 'processing']);
    expect(statusesLeadingTo(table, 'requested')).to.deep.equal([]);
  });

  it('gives each status its next statuses, final ones none and self-loops left out', () => {
    expect(nextStatuses(table, statuses)).to.deep.equal({
      requested: ['processing', 'completed', 'failed'],
      processing: ['completed', 'failed'],
      completed: [],
      failed: [],
    });
  });
});
