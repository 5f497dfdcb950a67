import { expect } from 'chai';
import { blockedAddressReason } from '../../src/delivery/ssrf/addresses.js';
import { BlockedAddressError, guardedLookup } from '../../src/delivery/ssrf/guarded-lookup.js';
import {
  UrlRejected,
  checkUrlWithoutDns,
  checkWebhookUrl,
  urlPolicy,
  type ResolvedAddress,
  type Resolver,
} from '../../src/delivery/ssrf/url-policy.js';

const strict = urlPolicy(false);
const insecure = urlPolicy(true);

/** A DNS of our own: names the tests control, nothing from the network. */
const fakeDns =
  (records: Record<string, string[]>): Resolver =>
  async (host) => {
    const list = records[host.toLowerCase()];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const dns = fakeDns({
  localhost: ['127.0.0.1', '::1'],
  'hooks.shop.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.shop.example': ['10.1.2.3'],
  'mixed.shop.example': ['93.184.216.34', '10.0.0.7'],
  'metadata.shop.example': ['169.254.169.254'],
  'v6private.shop.example': ['fd00::1'],
  'mapped.shop.example': ['::ffff:192.168.1.1'],
});

const rejection = async (url: string, policy = strict): Promise<UrlRejected> => {
  try {
    await checkWebhookUrl(url, policy, dns);
  } catch (err) {
    if (err instanceof UrlRejected) return err;
    throw err;
  }
  throw new Error(`${url} was accepted`);
};

describe('SSRF: webhook URLs that must never be called', () => {
  const refused: Array<[string, RegExp]> = [
    ['https://127.0.0.1/hook', /loopback/],
    ['https://2130706433/hook', /loopback/], // decimal
    ['https://0177.0.0.1/hook', /loopback/], // octal
    ['https://0x7f.1/hook', /loopback/], // hex, short form
    ['https://0x7f000001/hook', /loopback/], // hex
    ['https://0x7f.0x0.0x0.0x1/hook', /loopback/], // hex per octet
    ['https://127.1/hook', /loopback/], // short form
    ['https://127.0.0.1./hook', /loopback/], // trailing dot
    ['https://0.0.0.0/hook', /this network/],
    ['https://0/hook', /this network/],
    ['https://10.0.0.1/hook', /private \(10/],
    ['https://172.16.5.4/hook', /private \(172\.16/],
    ['https://172.31.255.255/hook', /private \(172\.16/],
    ['https://192.168.1.1/hook', /private \(192\.168/],
    ['https://169.254.169.254/latest/meta-data/', /link-local, cloud metadata/],
    ['https://100.64.0.1/hook', /CGNAT/],
    ['https://192.0.0.8/hook', /IETF protocol/],
    ['https://192.0.2.1/hook', /documentation/],
    ['https://198.18.0.1/hook', /benchmarking/],
    ['https://198.51.100.7/hook', /documentation/],
    ['https://203.0.113.9/hook', /documentation/],
    ['https://224.0.0.1/hook', /multicast/],
    ['https://240.0.0.1/hook', /reserved/],
    ['https://255.255.255.255/hook', /broadcast/],
    ['https://[::1]/hook', /loopback/],
    ['https://[::]/hook', /unspecified/],
    ['https://[fe80::1]/hook', /link-local/],
    ['https://[fc00::1]/hook', /unique local/],
    ['https://[fd12:3456::1]/hook', /unique local/],
    ['https://[ff02::1]/hook', /multicast/],
    ['https://[2001:db8::1]/hook', /documentation/],
    ['https://[64:ff9b::7f00:1]/hook', /NAT64.*127\.0\.0\.1/],
    ['https://[64:ff9b::a9fe:a9fe]/hook', /NAT64.*169\.254\.169\.254/],
    ['https://[2002:7f00:1::1]/hook', /6to4.*127\.0\.0\.1/],
    ['https://[2002:a00:1::]/hook', /6to4.*10\.0\.0\.1/],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', /Teredo/],
    ['https://[::ffff:127.0.0.1]/hook', /IPv4-mapped 127\.0\.0\.1/],
    ['https://[::ffff:7f00:1]/hook', /IPv4-mapped 127\.0\.0\.1/],
    ['https://[::ffff:a9fe:a9fe]/hook', /IPv4-mapped 169\.254\.169\.254/],
    ['https://[::ffff:10.0.0.1]/hook', /IPv4-mapped 10\.0\.0\.1/],
    ['https://[::127.0.0.1]/hook', /IPv4-compatible/],
    ['https://[fec0::1]/hook', /site-local/],
    ['https://[100::1]/hook', /discard/],
    ['https://localhost/hook', /resolves to a non-public address: loopback/],
    ['https://LOCALHOST:8443/hook', /resolves to a non-public address: loopback/],
    ['https://internal.shop.example/hook', /private \(10/],
    ['https://mixed.shop.example/hook', /private \(10/], // one private answer among public ones
    ['https://metadata.shop.example/hook', /cloud metadata/],
    ['https://v6private.shop.example/hook', /unique local/],
    ['https://mapped.shop.example/hook', /IPv4-mapped 192\.168\.1\.1/],
  ];

  it(`refuses ${refused.length} forms of internal addresses`, async () => {
    expect(refused.length).to.be.at.least(25);
    for (const [url, reason] of refused) {
      const err = await rejection(url);
      expect(err.code, url).to.equal('blocked_address');
      expect(err.message, url).to.match(reason);
    }
  });

  it('refuses plain HTTP, credentials, unresolvable hosts and junk', async () => {
    expect((await rejection('http://hooks.shop.example/hook')).code).to.equal('insecure_url');
    expect((await rejection('ftp://hooks.shop.example/hook')).code).to.equal('insecure_url');
    expect((await rejection('https://user:pw@hooks.shop.example/hook')).code).to.equal('url_credentials');
    expect((await rejection('https://nowhere.shop.example/hook')).code).to.equal('unresolvable_host');
    expect((await rejection('not a url')).code).to.equal('invalid_url');
  });

  it('accepts public addresses and names', async () => {
    for (const url of [
      'https://hooks.shop.example/hook',
      'https://hooks.shop.example:8443/a/b?c=d',
      'https://93.184.216.34/hook',
      'https://8.8.8.8/hook',
      'https://172.32.0.1/hook', // just outside 172.16/12
      'https://100.128.0.1/hook', // just outside 100.64/10
      'https://[2606:4700:4700::1111]/hook',
      'https://[::ffff:8.8.8.8]/hook',
    ]) {
      await checkWebhookUrl(url, strict, dns);
    }
  });

  it('with ALLOW_INSECURE_WEBHOOKS lets only loopback and http:// through', async () => {
    await checkWebhookUrl('http://127.0.0.1:8080/hook', insecure, dns);
    await checkWebhookUrl('https://localhost/hook', insecure, dns);
    await checkWebhookUrl('https://[::1]/hook', insecure, dns);
    expect((await rejection('https://10.0.0.1/hook', insecure)).code).to.equal('blocked_address');
    expect((await rejection('https://169.254.169.254/', insecure)).code).to.equal('blocked_address');
    expect((await rejection('https://internal.shop.example/', insecure)).code).to.equal('blocked_address');
  });

  it('judges IP literals without DNS (the check made before every request)', () => {
    expect(() => checkUrlWithoutDns('https://0x7f.1/', strict)).to.throw(UrlRejected, /loopback/);
    expect(checkUrlWithoutDns('https://internal.shop.example/', strict).hostname).to.equal(
      'internal.shop.example',
    );
  });

  it('classifies addresses as the resolver returns them', () => {
    expect(blockedAddressReason('127.0.0.1', strict)).to.match(/loopback/);
    expect(blockedAddressReason('127.0.0.1', insecure)).to.equal(undefined);
    expect(blockedAddressReason('::ffff:127.0.0.1', insecure)).to.equal(undefined);
    expect(blockedAddressReason('fe80::1%eth0', strict)).to.match(/link-local/);
    expect(blockedAddressReason('8.8.8.8', strict)).to.equal(undefined);
    expect(blockedAddressReason('not-an-ip', strict)).to.equal('not an IP address');
  });
});

describe('SSRF: the connect-time lookup hook', () => {
  const lookupOf = (records: Record<string, string[]>, policy = strict) =>
    guardedLookup(policy, fakeDns(records));

  const call = (lookup: ReturnType<typeof lookupOf>, host: string, options: Record<string, unknown>) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      lookup(host, options, (err, address, family) => resolve({ err, address, family })),
    );

  it('refuses a name when any address is not public (checking all of them, as Node 20 asks)', async () => {
    const lookup = lookupOf({ 'rebind.example': ['93.184.216.34', '127.0.0.1'] });
    const { err } = await call(lookup, 'rebind.example', { all: true });
    expect(err).to.be.instanceOf(BlockedAddressError);
    expect(err!.message).to.match(/loopback/);
  });

  it('hands the socket exactly the addresses it checked', async () => {
    const lookup = lookupOf({ 'ok.example': ['93.184.216.34', '2606:4700::1'] });
    const all = await call(lookup, 'ok.example', { all: true });
    expect(all.err).to.equal(null);
    expect(all.address).to.deep.equal([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
    const one = await call(lookup, 'ok.example', { family: 6 });
    expect([one.address, one.family]).to.deep.equal(['2606:4700::1', 6]);
  });

  it('passes resolver failures through', async () => {
    const { err } = await call(lookupOf({}), 'missing.example', { all: true });
    expect(err?.code).to.equal('ENOTFOUND');
  });
});
