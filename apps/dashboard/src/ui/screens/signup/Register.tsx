import { useState } from 'preact/hooks';
import type { Session } from '../../../api/session.js';
import { chainName } from '../../chain-name.js';
import type { Language, Translate } from '../../../i18n.js';
import { Alert, errorText } from '../../common.js';
import { PasswordField, TextField, useFormFields } from '../../form.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { CheckEmail } from './CheckEmail.js';
import type { Currency } from '@stablepay/contracts';
import type { BodyOf } from '../../../api/operations.js';

const CURRENCIES: Currency[] = ['USDC', 'EURC'];
const FIRST_VALUES = { email: '', password: '', merchantName: '', blockchain: 'BASE' };

/** The chains this deployment serves: a merchant elsewhere would never get a wallet. */
const useServedChains = (session: Session): string[] | undefined => {
  const [chains] = useLoad(
    async () => (await session.open('getPublicChains')).data.chains.map((c) => c.name),
    [],
  );
  return chains.state === 'ready' ? chains.data : undefined;
};

/** The chain of the merchant's wallet, among those this deployment serves. */
const ChainSelect = ({
  t,
  chains,
  value,
  onChoose,
}: {
  t: Translate;
  chains: string[];
  value: string;
  onChoose: (chain: string) => void;
}) => (
  <>
    <label for="blockchain">{t('blockchain')}</label>
    <select id="blockchain" name="blockchain" value={value} onChange={(e) => onChoose(e.currentTarget.value)}>
      {chains.map((c) => (
        <option key={c} value={c}>
          {chainName(c)}
        </option>
      ))}
    </select>
  </>
);

/** The tokens the merchant accepts, as checkboxes. */
const CurrencyChoice = ({
  t,
  chosen,
  onChange,
}: {
  t: Translate;
  chosen: Currency[];
  onChange: (next: Currency[]) => void;
}) => (
  <fieldset>
    <legend>{t('currencies')}</legend>
    {CURRENCIES.map((c) => (
      <label key={c} class="inline">
        <input
          type="checkbox"
          checked={chosen.includes(c)}
          onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, c] : chosen.filter((x) => x !== c))}
        />{' '}
        {c}
      </label>
    ))}
  </fieldset>
);

/**
 * Creates the user and its merchant, then asks to follow the e-mailed link. It does not sign in: the
 * gateway answers a registration of an address that already has an account exactly as a new one,
 * and signing in would tell the two apart.
 */
export const Register = ({ session, t, lang }: { session: Session; t: Translate; lang: Language }) => {
  const { values: form, field, set } = useFormFields('', FIRST_VALUES);
  const [currencies, setCurrencies] = useState<Currency[]>(CURRENCIES);
  const [busy, setBusy] = useState(false);
  const chainNames = useServedChains(session) ?? [form.blockchain];
  const [error, setError] = useState<string>();
  const [registered, setRegistered] = useState<string>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { data } = await session.open('register', {
        body: {
          ...form,
          email: form.email.trim(),
          // The select offers only the chains GET /chains lists.
          blockchain: form.blockchain as BodyOf<'register'>['blockchain'],
          acceptedCurrencies: currencies,
          // The account's e-mails, the confirmation first, are written in the language of the page.
          language: lang,
        },
      });
      setRegistered(data.email);
    } catch (err) {
      setError(errorText(t, err));
      setBusy(false);
    }
  };

  if (registered) return <CheckEmail session={session} t={t} email={registered} />;

  return (
    <main id="main" class="narrow">
      <h1>{t('registerTitle')}</h1>
      <form class="card form" onSubmit={submit} noValidate>
        <TextField
          {...field('merchantName')}
          label={t('merchantName')}
          required
          maxLength={100}
          autocomplete="organization"
        />
        <TextField {...field('email')} label={t('email')} type="email" required autocomplete="username" />
        <PasswordField
          {...field('password')}
          purpose="new"
          label={t('password')}
          required
          minLength={12}
          maxLength={128}
          hint={t('passwordHint')}
        />
        <ChainSelect
          t={t}
          chains={chainNames}
          value={form.blockchain}
          onChoose={(blockchain) => set({ blockchain })}
        />
        <CurrencyChoice t={t} chosen={currencies} onChange={setCurrencies} />
        {error && <Alert>{error}</Alert>}
        <button type="submit" disabled={busy}>
          {busy ? t('registering') : t('register')}
        </button>
      </form>
      <p>
        {t('haveAccount')} <a href={href('/')}>{t('signIn')}</a>
      </p>
    </main>
  );
};
