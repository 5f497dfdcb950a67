import { existsSync, readFileSync } from 'node:fs';
import { confirmEmailFromMail } from './mail-links.js';

export interface DemoMerchant {
  id: string;
  apiKey: string;
  email: string;
  password: string;
}

const DEMO = {
  email: 'demo@merchant.local',
  password: 'demo-merchant-password',
  merchantName: 'Demo Shop',
  blockchain: 'BASE',
  acceptedCurrencies: ['USDC', 'EURC'],
} as const;

const json = async (
  res: Response,
): Promise<{ success: boolean; data?: Record<string, unknown>; error?: string }> =>
  (await res.json()) as { success: boolean; data?: Record<string, unknown>; error?: string };

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const signIn = async (gatewayUrl: string) =>
  json(await post(`${gatewayUrl}/auth/login`, { email: DEMO.email, password: DEMO.password }));

/**
 * Makes sure the demo merchant exists, has its address confirmed and a working API key, using only
 * the public API (the same calls a merchant makes): sign in, or register and sign in; confirm the
 * address with the link from the stack's mail directory; create a key unless the stored one works.
 */
export const ensureDemoMerchant = async (
  gatewayUrl: string,
  devnetFile: string,
  mailDir: string | undefined,
): Promise<DemoMerchant> => {
  const previous = existsSync(devnetFile)
    ? (JSON.parse(readFileSync(devnetFile, 'utf8')) as { merchant?: Partial<DemoMerchant> }).merchant
    : undefined;

  // Signing in first: registering an address that has an account would e-mail its owner a warning.
  let login = await signIn(gatewayUrl);
  if (!login.success) {
    const registered = await post(`${gatewayUrl}/auth/register`, DEMO);
    if (registered.status !== 201) {
      throw new Error(`demo registration failed: ${registered.status} ${(await json(registered)).error}`);
    }
    login = await signIn(gatewayUrl);
  }
  if (!login.success || !login.data) throw new Error(`demo login failed: ${login.error}`);
  const bearer = { authorization: `Bearer ${String(login.data.access_token)}` };
  const me = await json(await fetch(`${gatewayUrl}/auth/me`, { headers: bearer }));
  const merchant = (me.data?.merchant ?? {}) as { id?: string };
  if (!merchant.id) throw new Error('demo merchant has no id');
  const user = (me.data?.user ?? {}) as { email_confirmed?: boolean };
  if (!user.email_confirmed && mailDir) await confirmEmailFromMail(gatewayUrl, mailDir, DEMO.email);
  else if (!user.email_confirmed)
    console.warn(`The demo merchant awaits confirmation: follow the link e-mailed to ${DEMO.email}`);

  if (previous?.apiKey) {
    const probe = await fetch(`${gatewayUrl}/payments/api/list?limit=1`, {
      headers: { 'x-api-key': previous.apiKey },
    });
    if (probe.status === 200) {
      return { id: merchant.id, apiKey: previous.apiKey, email: DEMO.email, password: DEMO.password };
    }
  }
  const created = await json(await post(`${gatewayUrl}/api-keys`, { name: 'Demo key' }, bearer));
  if (!created.success || !created.data) throw new Error(`demo API key failed: ${created.error}`);
  return { id: merchant.id, apiKey: String(created.data.key), email: DEMO.email, password: DEMO.password };
};
