import { expect } from 'chai';
import { LOGO_BODY_LIMIT } from '@stablepay/contracts';
import { jpegHeader, scriptedSvg, solidPng, webpHeader } from '@stablepay/platform/testing/images';
import {
  STRONG_PASSWORD,
  accountEmails,
  bearer,
  call,
  closedPortUrl,
  confirmEmail,
  createKey,
  signUp,
  startTestGateway,
  uniqueEmail,
  type Account,
  type TestGateway,
} from './harness.js';

/**
 * The merchant's settings (name, accent colour, logo, who bears a gasless payment's network fee):
 * read and changed from the dashboard and with a key holding the settings scopes, every change
 * announced (merchant.settings_updated) and audited in its transaction, the logo checked from its
 * bytes and served by the gateway itself.
 */
describe('gateway: merchant settings', () => {
  let gw: TestGateway;
  let a: Account;
  let b: Account;

  before(async () => {
    gw = await startTestGateway(await closedPortUrl());
    a = await signUp(gw.url, 'Acme Coffee');
    b = await signUp(gw.url, 'Bistro Beta');
  });
  after(async () => {
    await gw?.close();
  });

  const put = (who: Account, body: unknown) =>
    call(gw.url, 'PUT', '/merchant-settings', { body, headers: bearer(who.accessToken) });
  const upload = (who: Account, image: Buffer | string) =>
    call(gw.url, 'PUT', '/merchant-settings/logo', {
      body: { image: typeof image === 'string' ? image : image.toString('base64') },
      headers: bearer(who.accessToken),
    });
  const merchantIdOf = async (who: Account): Promise<string> =>
    (await gw.db('users').where({ id: who.userId }).first()).merchant_id;
  const settingsEvents = async (who: Account) =>
    (await gw
      .db('outbox')
      .where({ type: 'merchant.settings_updated' })
      .whereRaw(`envelope->'data'->>'merchantId' = ?`, [await merchantIdOf(who)])
      .orderBy('created_at')) as Array<{ envelope: { data: Record<string, unknown> } }>;
  const auditOf = async (who: Account, action: string) =>
    gw
      .db('audit_log')
      .where({ merchant_id: await merchantIdOf(who), action })
      .orderBy('id');
  const fieldsOf = (res: { body: { details: Array<{ path: string; code: string }> } }) =>
    res.body.details.map((d) => `${d.path}:${d.code}`);

  it('answers the settings of a new merchant: its name, nothing chosen', async () => {
    const res = await call(gw.url, 'GET', '/merchant-settings', { headers: bearer(a.accessToken) });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({
      name: 'Acme Coffee',
      accent_color: null,
      logo: null,
      network_fee_bearer: null,
      language: null,
      updated_at: null,
    });
  });

  it("keeps the merchant's language: the registration's, then the one chosen; refuses any other", async () => {
    const email = uniqueEmail();
    const reg = await call(gw.url, 'POST', '/auth/register', {
      body: {
        email,
        password: STRONG_PASSWORD,
        merchantName: 'Kaffeerösterei',
        blockchain: 'BASE',
        language: 'de',
      },
    });
    expect(reg.status).to.equal(201);
    // The confirmation e-mail is asked for in the language the page was in.
    const [confirmation] = await accountEmails(gw.db, email);
    expect(confirmation).to.include({ kind: 'email_confirmation', language: 'de' });
    const created = await gw
      .db('outbox')
      .where({ type: 'merchant.created' })
      .whereRaw(`envelope->'data'->>'email' = ?`, [email])
      .first();
    expect(created.envelope.data.language).to.equal('de');
    await confirmEmail(gw.url, gw.db, email);
    const login = await call(gw.url, 'POST', '/auth/login', { body: { email, password: STRONG_PASSWORD } });
    const headers = bearer(login.body.data.access_token);
    const read = async () => (await call(gw.url, 'GET', '/merchant-settings', { headers })).body.data;
    expect((await read()).language).to.equal('de');

    const chosen = await call(gw.url, 'PUT', '/merchant-settings', { body: { language: 'fr' }, headers });
    expect(chosen.status).to.equal(200);
    expect(chosen.body.data).to.include({ language: 'fr', name: 'Kaffeerösterei' });
    for (const language of ['pt', 'FR', 'fr-FR', '', 3]) {
      const res = await call(gw.url, 'PUT', '/merchant-settings', { body: { language }, headers });
      expect(res.status, String(language)).to.equal(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['language']);
    }
    expect((await read()).language).to.equal('fr');
    const events = await gw
      .db('outbox')
      .where({ type: 'merchant.settings_updated' })
      .whereRaw(`envelope->'data'->>'merchantId' = ?`, [created.envelope.data.merchantId]);
    expect(
      events.map((e: { envelope: { data: { language: string } } }) => e.envelope.data.language),
    ).to.deep.equal(['fr']);
    const cleared = await call(gw.url, 'PUT', '/merchant-settings', { body: { language: null }, headers });
    expect(cleared.body.data.language).to.equal(null);

    // A registration without a language is in English; one with another is refused.
    const bad = await call(gw.url, 'POST', '/auth/register', {
      body: {
        email: uniqueEmail(),
        password: STRONG_PASSWORD,
        merchantName: 'X',
        blockchain: 'BASE',
        language: 'xx',
      },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).to.include('language');
  });

  it('changes the fields given, announces the settings whole and records who changed what', async () => {
    const res = await put(a, {
      name: 'Acme Roasters',
      accent_color: '#0B5FFF',
      network_fee_bearer: 'merchant',
    });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({
      name: 'Acme Roasters',
      accent_color: '#0b5fff',
      network_fee_bearer: 'merchant',
    });
    const kept = await put(a, { network_fee_bearer: null });
    expect(kept.body.data).to.include({
      name: 'Acme Roasters',
      accent_color: '#0b5fff',
      network_fee_bearer: null,
    });

    const events = (await settingsEvents(a)).map((e) => e.envelope.data);
    expect(events.map((e) => e.version)).to.deep.equal([1, 2]);
    expect(events[1]).to.deep.include({
      name: 'Acme Roasters',
      accentColor: '#0b5fff',
      logoUrl: null,
      networkFeeBearer: null,
    });
    const [first] = await auditOf(a, 'merchant.settings_updated');
    expect(first.user_id).to.equal(a.userId);
    expect(first.details).to.deep.include({
      fields: 'name,accent_color,network_fee_bearer',
      merchantName: 'Acme Roasters',
      accentColor: '#0b5fff',
      networkFeeBearer: 'merchant',
    });
    const me = await call(gw.url, 'GET', '/auth/me', { headers: bearer(a.accessToken) });
    expect(me.body.data.merchant.name).to.equal('Acme Roasters');
  });

  it('refuses a name with bidirectional controls, as registration does, naming the field', async () => {
    for (const control of ['\u202E', '\u2066', '\u2069', '\u202A']) {
      const res = await put(a, { name: `Shop ${control}gnp.exe` });
      expect(res.status).to.equal(400);
      expect(res.body.success).to.equal(false);
      expect(res.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['name']);
    }
    expect((await put(a, { name: '   ' })).status).to.equal(400);
    expect(
      (
        await gw
          .db('merchants')
          .where({ id: await merchantIdOf(a) })
          .first()
      ).name,
    ).to.equal('Acme Roasters');
  });

  it('refuses a colour that is not #rrggbb or that white text cannot be read on (WCAG AA 4.5:1)', async () => {
    for (const accent_color of ['red', '#fff', '#12345g', '#ffff00', '#22c55e', '#3b82f6']) {
      const res = await put(a, { accent_color });
      expect(res.status, accent_color).to.equal(400);
      expect(res.body.details[0].path, accent_color).to.equal('accent_color');
    }
    // #2563eb reads 5.2:1 under white: accepted.
    expect((await put(a, { accent_color: '#2563eb' })).status).to.equal(200);
    expect((await put(a, {})).status).to.equal(400);
    expect((await put(a, { name: 'X', colour: '#000000' })).status).to.equal(400);
  });

  it('stores a PNG logo and serves it itself: its type, nosniff, no active content, ETag', async () => {
    const png = solidPng(64, 32, '#0b5fff');
    const res = await upload(a, png);
    expect(res.status, res.text).to.equal(200);
    const logo = res.body.data.logo;
    expect(logo).to.include({ content_type: 'image/png', width: 64, height: 32, bytes: png.length });
    expect(logo.url).to.match(new RegExp(`^/merchants/${a.merchantPublicId}/logo\\?v=[0-9a-f]{16}$`));

    const served = await fetch(`${gw.url}${logo.url}`);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-type')).to.equal('image/png');
    expect(served.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(served.headers.get('content-security-policy')).to.match(/^default-src 'none'/);
    expect(served.headers.get('cache-control')).to.equal('public, max-age=300');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).to.equal(true);
    const etag = served.headers.get('etag')!;
    expect(etag).to.match(/^"[0-9a-f]{32}"$/);
    const again = await fetch(`${gw.url}${logo.url}`, { headers: { 'if-none-match': etag } });
    expect(again.status).to.equal(304);

    const [audit] = await auditOf(a, 'merchant.logo_updated');
    expect(audit.details).to.include({ contentType: 'image/png', width: 64, height: 32 });
    const last = (await settingsEvents(a)).at(-1)!.envelope.data;
    expect(last.logoUrl).to.equal(logo.url);
    const info = await call(gw.url, 'GET', `/merchants/${a.merchantPublicId}/info`);
    expect(info.body.data).to.include({ logo_url: logo.url, accent_color: '#2563eb' });
  });

  it('reads JPEG and WebP sizes from their headers', async () => {
    const jpeg = await upload(a, jpegHeader(300, 120));
    expect(jpeg.status).to.equal(200);
    expect(jpeg.body.data.logo).to.include({ content_type: 'image/jpeg', width: 300, height: 120 });
    const webp = await upload(a, webpHeader(512, 512));
    expect(webp.status).to.equal(200);
    expect(webp.body.data.logo).to.include({ content_type: 'image/webp', width: 512, height: 512 });
    const served = await fetch(`${gw.url}${webp.body.data.logo.url}`);
    expect(served.headers.get('content-type')).to.equal('image/webp');
  });

  it('refuses SVG, bytes of another kind, a damaged header, oversize files and images over 1024 pixels', async () => {
    const before = (await call(gw.url, 'GET', '/merchant-settings', { headers: bearer(a.accessToken) })).body
      .data;
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const damaged = solidPng(10, 10).subarray(0, 20);
    const oversize = Buffer.concat([solidPng(16, 16), Buffer.alloc(256 * 1024)]);
    const cases: Array<[Buffer | string, string]> = [
      [scriptedSvg(), 'image:svg_not_allowed'],
      [Buffer.from('\uFEFF  <svg xmlns="http://www.w3.org/2000/svg"/>'), 'image:svg_not_allowed'],
      [gif, 'image:unsupported_image_type'],
      [Buffer.from('%PDF-1.7 not an image'), 'image:unsupported_image_type'],
      [damaged, 'image:image_unreadable'],
      [solidPng(2000, 10), 'image:image_dimensions_too_large'],
      [jpegHeader(100, 1025), 'image:image_dimensions_too_large'],
      [oversize, 'image:too_big'],
      ['data:image/png;base64,AAAA', 'image:invalid_format'],
    ];
    for (const [image, expected] of cases) {
      const res = await upload(a, image);
      expect(res.status, expected).to.equal(400);
      expect(fieldsOf(res), expected).to.deep.equal([expected]);
    }
    const huge = await upload(a, 'A'.repeat(LOGO_BODY_LIMIT + 10));
    expect(huge.status, huge.text).to.equal(413);
    const after = (await call(gw.url, 'GET', '/merchant-settings', { headers: bearer(a.accessToken) })).body
      .data;
    expect(after.logo).to.deep.equal(before.logo);
  });

  it('keeps each merchant to its own settings and logo', async () => {
    const mine = await call(gw.url, 'GET', '/merchant-settings', { headers: bearer(b.accessToken) });
    expect(mine.body.data).to.include({ name: 'Bistro Beta', accent_color: null, logo: null });
    expect((await fetch(`${gw.url}/merchants/${b.merchantPublicId}/logo`)).status).to.equal(404);
    await upload(b, solidPng(8, 8, '#000000'));
    const aLogo = (await call(gw.url, 'GET', '/merchant-settings', { headers: bearer(a.accessToken) })).body
      .data.logo;
    expect(aLogo.content_type).to.equal('image/webp');
    expect((await fetch(`${gw.url}/merchants/nobody/logo`)).status).to.equal(404);
  });

  it('admits a key only with the settings scopes, and names the key in the audit log', async () => {
    const reader = await createKey(gw.url, a, 'reader', ['payments:read']);
    const refused = await call(gw.url, 'GET', '/merchant-settings/api', {
      headers: { 'x-api-key': reader.key },
    });
    expect(refused.status).to.equal(403);
    expect(refused.body.details[0].code).to.equal('insufficient_scope');
    const readOnly = await createKey(gw.url, a, 'settings reader', ['settings:read']);
    const seen = await call(gw.url, 'GET', '/merchant-settings/api', {
      headers: { 'x-api-key': readOnly.key },
    });
    expect(seen.status).to.equal(200);
    expect(seen.body.data.name).to.equal('Acme Roasters');
    const write = await call(gw.url, 'PUT', '/merchant-settings/api', {
      body: { network_fee_bearer: 'customer' },
      headers: { 'x-api-key': readOnly.key },
    });
    expect(write.status).to.equal(403);

    const writer = await createKey(gw.url, a, 'shop admin', ['settings:write']);
    const changed = await call(gw.url, 'PUT', '/merchant-settings/api', {
      body: { network_fee_bearer: 'customer' },
      headers: { 'x-api-key': writer.key },
    });
    expect(changed.status).to.equal(200);
    expect(changed.body.data.network_fee_bearer).to.equal('customer');
    const last = (await auditOf(a, 'merchant.settings_updated')).at(-1);
    expect(last.api_key_id).to.equal(writer.id);
    expect(last.user_id).to.equal(null);
    expect(last.details).to.include({ apiKeyName: 'shop admin', networkFeeBearer: 'customer' });
    // A key never reaches the dashboard's path, nor a token the key's.
    expect(
      (await call(gw.url, 'GET', '/merchant-settings', { headers: { 'x-api-key': writer.key } })).status,
    ).to.equal(401);
  });

  it('removes the logo: the URL answers 404 and the removal is audited once', async () => {
    const res = await call(gw.url, 'DELETE', '/merchant-settings/logo', { headers: bearer(a.accessToken) });
    expect(res.status).to.equal(200);
    expect(res.body.data.logo).to.equal(null);
    expect((await fetch(`${gw.url}/merchants/${a.merchantPublicId}/logo`)).status).to.equal(404);
    await call(gw.url, 'DELETE', '/merchant-settings/logo', { headers: bearer(a.accessToken) });
    expect(await auditOf(a, 'merchant.logo_removed')).to.have.length(1);
    expect((await settingsEvents(a)).at(-1)!.envelope.data.logoUrl).to.equal(null);
  });
});
