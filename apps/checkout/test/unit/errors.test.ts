import { expect } from 'chai';
import { GaslessRefusalCode } from '@stablepay/contracts';
import { ApiError } from '../../src/api.js';
import { walletError } from '../../src/eth/wallet.js';
import { LANGUAGES, translator, type Language, type Messages } from '../../src/i18n.js';
import { payError, PayError } from '../../src/pay/errors.js';
import { problemText } from '../../src/ui/problems.js';

const vars = {
  amount: '9.50',
  token: 'USDC',
  chain: 'BASE',
  payChain: 'BASE',
  native: 'ETH',
  merchant: 'Shop',
};
const catalogues = {} as Record<Language, Messages>;
const tr = (lang: Language) => translator(catalogues[lang]);
const say = (err: unknown, lang: Language = 'en') => problemText(payError(err), tr(lang), vars);

/** What an EIP-1193 provider throws: an Error with a numeric code. */
const providerError = (code: number, message: string) => Object.assign(new Error(message), { code });

/** Runs fn with console.error captured, as payError logs what it cannot name. */
const capturingConsole = <T>(fn: () => T): { result: T; logged: unknown[] } => {
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void logged.push(...args);
  try {
    return { result: fn(), logged };
  } finally {
    console.error = original;
  }
};

describe('checkout error mapping: one plain sentence per problem', () => {
  before(async () => {
    for (const lang of Object.keys(LANGUAGES) as Language[]) catalogues[lang] = await LANGUAGES[lang]();
  });

  it('has every sentence in en, de, fr, es and it, each with the same placeholders as the English', () => {
    expect(Object.keys(LANGUAGES)).to.have.members(['en', 'de', 'fr', 'es', 'it']);
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const lang of Object.keys(LANGUAGES) as Language[]) {
      for (const [key, english] of Object.entries(catalogues.en) as Array<[keyof Messages, string]>) {
        const text = catalogues[lang][key];
        expect(text, `${lang}.${key}`).to.be.a('string').and.not.equal('');
        expect(placeholders(text), `${lang}.${key}`).to.deep.equal(placeholders(english));
      }
    }
  });

  it('a wallet rejection (4001) is the customer saying no, whatever the wallet calls it', () => {
    expect(payError(walletError(providerError(4001, 'User rejected the request.'))).problem).to.equal(
      'rejected',
    );
    expect(
      payError(walletError(new Error('MetaMask Tx Signature: User denied transaction signature.'))).problem,
    ).to.equal('rejected');
    expect(say(walletError(providerError(4001, 'x')))).to.equal(tr('en')('errRejected'));
  });

  it('a wrong or unknown network, and a typed-data domain of another chain, are the wrong network', () => {
    for (const err of [
      providerError(4902, 'Unrecognized chain ID "0x2105".'),
      providerError(4901, 'The provider is disconnected from the specified chain.'),
      providerError(-32603, 'Provided chainId "8453" must match the active chainId "1"'),
    ])
      expect(payError(walletError(err)).problem, err.message).to.equal('wrong_network');
    expect(say(walletError(providerError(4902, 'x')))).to.contain('BASE');
  });

  it("a transfer without gas becomes the sentence that offers the signature, never the node's words", () => {
    for (const message of [
      'insufficient funds for intrinsic transaction cost (transaction="0x02f8b1827a69", info={ "error": { "code": -32000 } }, code=INSUFFICIENT_FUNDS, version=6.17.0)',
      'insufficient funds for gas * price + value: have 0 want 1400000000000000',
    ]) {
      const err = walletError(providerError(-32000, message));
      expect(payError(err).problem).to.equal('gas');
      for (const lang of Object.keys(LANGUAGES) as Language[]) {
        const text = say(err, lang);
        expect(text, lang).to.not.match(/insufficient|0x02f8|\{/i);
        expect(text, lang).to.contain('ETH').and.contain('USDC').and.contain('BASE');
      }
    }
    expect(say(walletError(providerError(-32000, 'insufficient funds for gas')))).to.contain(
      'Pay with a signature',
    );
  });

  it('every refusal code of the gateway has a sentence of what to do, in every language', () => {
    for (const lang of Object.keys(LANGUAGES) as Language[]) {
      const t = tr(lang);
      for (const code of GaslessRefusalCode.options) {
        const err = new ApiError(422, 'Authorization refused', code, 'authorization');
        const problem = payError(err);
        const expected = { payer_rate_limited: 'rate_limited', quote_expired: 'quote_expired' } as Record<
          string,
          string
        >;
        expect(problem.problem, code).to.equal(expected[code] ?? 'refused');
        if (problem.problem === 'refused') expect(problem.vars.code).to.equal(code);
        const text = problemText(problem, t, vars);
        expect(text, `${lang} ${code}`).to.not.equal(t('errFailed'));
        expect(text, `${lang} ${code}`).to.not.contain(code).and.not.match(/[{}]/);
      }
    }
  });

  it('a relay low on gas (503) says when to come back, from Retry-After', () => {
    const err = new ApiError(503, 'Relay low on gas', 'relay_low_on_gas', undefined, 300);
    expect(say(err)).to.contain('5 min');
    expect(say(new ApiError(503, 'x', 'relay_low_on_gas'))).to.contain('1 min');
  });

  it("a plain 429 or the payer's limit is a rate limit; the merchant's spent relay budget is that refusal", () => {
    expect(say(new ApiError(429, 'Slow down', 'payer_rate_limited', undefined, 60))).to.contain('1 min');
    expect(payError(new ApiError(429, 'Too many requests', undefined, undefined, 120)).problem).to.equal(
      'rate_limited',
    );
    expect(say(new ApiError(429, 'Too many requests', undefined, undefined, 120))).to.contain('2 min');
    const spent = payError(new ApiError(429, 'Budget spent', 'relay_gas_budget_spent'));
    expect(spent.problem).to.equal('refused');
    expect(problemText(spent, tr('en'), vars)).to.contain('Send a transaction');
  });

  it('session answers keep their own sentences', () => {
    expect(payError(new ApiError(409, 'Session expired', 'session_expired')).problem).to.equal(
      'session_expired',
    );
    expect(payError(new ApiError(409, 'Session used', 'session_used')).problem).to.equal('session_complete');
  });

  it('anything unknown gets the generic sentence; the raw message goes to the console only', () => {
    const raw = new Error('execution reverted: 0x08c379a0 (data="0xdeadbeef", code=CALL_EXCEPTION)');
    const { result, logged } = capturingConsole(() => say(raw));
    expect(result).to.equal(tr('en')('errFailed'));
    expect(result).to.not.contain('0x');
    expect(logged).to.include(raw);
    const api = capturingConsole(() => say(new ApiError(400, 'Request validation failed', 'invalid_string')));
    expect(api.result).to.equal(tr('en')('errFailed'));
    const wallet = capturingConsole(() =>
      say(walletError(providerError(-32603, 'Internal JSON-RPC error.'))),
    );
    expect(wallet.result).to.equal(tr('en')('errFailed'));
  });

  it('a problem already named passes through unchanged', () => {
    const named = new PayError('quote_expired', 'The fee quote expired');
    expect(payError(named)).to.equal(named);
    expect(say(named)).to.equal(tr('en')('errQuoteExpired'));
  });
});
