import { expect } from 'chai';
import { CheckoutSessionId, CreateCheckoutSessionBody, decimalToBaseUnits } from '../../src/index.js';

const ok = (input: object) => {
  const result = CreateCheckoutSessionBody.safeParse({ return_url: 'https://shop.example/done', ...input });
  expect(result.success, JSON.stringify(result.error?.issues)).to.equal(true);
  return result.data!;
};
const fails = (input: object, path: string) => {
  const result = CreateCheckoutSessionBody.safeParse({ return_url: 'https://shop.example/done', ...input });
  expect(result.success).to.equal(false);
  expect(result.error!.issues.map((i) => i.path.join('.'))).to.include(path);
};

describe('CreateCheckoutSessionBody', () => {
  it('applies the defaults: USDC, 1800 s, variable amount', () => {
    const data = ok({});
    expect(data.currency).to.equal('USDC');
    expect(data.expires_in).to.equal(1800);
    expect(data.amount).to.equal(undefined);
  });

  it('accepts amounts as numbers or strings within 0.01..1000000, exactly', () => {
    expect(ok({ amount: 0.01 }).amount).to.equal('0.010000');
    expect(ok({ amount: '1000000' }).amount).to.equal('1000000.000000');
    expect(decimalToBaseUnits(ok({ amount: '0.3' }).amount!)).to.equal(
      decimalToBaseUnits(ok({ amount: 0.1 }).amount!) + decimalToBaseUnits(ok({ amount: 0.2 }).amount!),
    );
    fails({ amount: 0.009 }, 'amount');
    fails({ amount: '1000000.01' }, 'amount');
    fails({ amount: '1.0000001' }, 'amount');
    fails({ amount: 'ten' }, 'amount');
  });

  it('accepts USDC and EURC only', () => {
    expect(ok({ currency: 'EURC' }).currency).to.equal('EURC');
    fails({ currency: 'USDT' }, 'currency');
  });

  it('requires return_url and checks both URLs', () => {
    const result = CreateCheckoutSessionBody.safeParse({});
    expect(result.error!.issues.map((i) => i.path.join('.'))).to.include('return_url');
    fails({ return_url: 'not a url' }, 'return_url');
    fails({ return_url: 'javascript:alert(1)' }, 'return_url');
    fails({ cancel_url: 'ftp://shop.example/cancel' }, 'cancel_url');
    expect(ok({ cancel_url: 'https://shop.example/cancel' }).cancel_url).to.equal(
      'https://shop.example/cancel',
    );
  });

  it('allows up to 5 metadata pairs with bounded keys and values', () => {
    const five = { a: '1', b: '2', c: '3', d: '4', e: '5' };
    expect(ok({ metadata: five }).metadata).to.deep.equal(five);
    fails({ metadata: { ...five, f: '6' } }, 'metadata');
    fails({ metadata: { ['k'.repeat(41)]: 'v' } }, `metadata.${'k'.repeat(41)}`);
    fails({ metadata: { k: 'v'.repeat(501) } }, 'metadata.k');
    fails({ metadata: { k: 1 } }, 'metadata.k');
  });

  it('bounds expires_in to 60..86400 seconds', () => {
    expect(ok({ expires_in: 60 }).expires_in).to.equal(60);
    expect(ok({ expires_in: 86400 }).expires_in).to.equal(86400);
    fails({ expires_in: 59 }, 'expires_in');
    fails({ expires_in: 86401 }, 'expires_in');
    fails({ expires_in: 600.5 }, 'expires_in');
    fails({ expires_in: '600' }, 'expires_in');
  });
});

describe('CheckoutSessionId', () => {
  it('accepts cs_live_ and cs_test_ ids only', () => {
    const uuid = '123e4567-e89b-12d3-a456-426614174000';
    expect(CheckoutSessionId.safeParse(`cs_live_${uuid}`).success).to.equal(true);
    expect(CheckoutSessionId.safeParse(`cs_test_${uuid}`).success).to.equal(true);
    expect(CheckoutSessionId.safeParse(`cs_prod_${uuid}`).success).to.equal(false);
    expect(CheckoutSessionId.safeParse(uuid).success).to.equal(false);
  });
});
