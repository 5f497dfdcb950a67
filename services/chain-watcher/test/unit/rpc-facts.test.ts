import { expect } from 'chai';
import { MalformedRpcAnswer, parseBlock, parseReceipt } from '../../src/chain/rpc-facts.js';
import { classifyRpcError } from '../../src/chain/rpc-errors.js';

const HASH = `0x${'Ab'.repeat(32)}`;

describe('reading raw JSON-RPC answers', () => {
  it('reduces a receipt to status, block and logs', () => {
    const receipt = parseReceipt({
      status: '0x1',
      blockHash: HASH,
      blockNumber: '0x1f',
      logs: [{ address: '0xaa', topics: ['0x01'], data: '0x', logIndex: '0x2' }],
    });
    expect(receipt).to.deep.equal({
      status: 1,
      blockHash: HASH.toLowerCase(),
      blockNumber: 31,
      logs: [{ address: '0xaa', topics: ['0x01'], data: '0x', index: 2, removed: false }],
    });
  });

  it('treats a missing receipt, or one for a transaction not yet in a block, as not found', () => {
    expect(parseReceipt(null)).to.equal(null);
    expect(parseReceipt({ status: '0x1', blockHash: null, blockNumber: null, logs: [] })).to.equal(null);
    expect(parseBlock(null)).to.equal(null);
  });

  it('refuses malformed answers as an RPC failure (another URL is tried), never as a verdict', () => {
    expect(() => parseReceipt({ status: 'yes', blockHash: HASH, blockNumber: '0x1', logs: [] })).to.throw(
      MalformedRpcAnswer,
    );
    expect(() => parseReceipt({ status: '0x1', blockHash: '0x12', blockNumber: '0x1', logs: [] })).to.throw(
      MalformedRpcAnswer,
    );
    expect(() => parseBlock({ number: '0x1', hash: HASH })).to.throw(MalformedRpcAnswer);
    expect(classifyRpcError(new MalformedRpcAnswer('bad'))).to.equal('rpc_error');
    expect(parseBlock({ number: '0x10', hash: HASH, timestamp: '0x5f5e100' })).to.deep.equal({
      number: 16,
      hash: HASH.toLowerCase(),
      timestamp: 100_000_000,
    });
  });

  it('classifies transport failures', () => {
    expect(classifyRpcError({ code: 'ECONNREFUSED' })).to.equal('refused');
    expect(classifyRpcError({ code: 'TIMEOUT' })).to.equal('timeout');
    expect(
      classifyRpcError({
        code: 'SERVER_ERROR',
        info: { responseStatus: '599 CLIENT ESCALATED SERVER ERROR (429 Too Many Requests)' },
      }),
    ).to.equal('rate_limited');
    expect(classifyRpcError({ code: 'SERVER_ERROR', info: { responseStatus: '502 Bad Gateway' } })).to.equal(
      'server_error',
    );
    expect(classifyRpcError({ code: 'CALL_EXCEPTION' })).to.equal(undefined);
  });
});
