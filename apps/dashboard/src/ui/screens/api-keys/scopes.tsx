import type { ApiKeyScope } from '@stablepay/contracts';
import type { Messages } from '../../../i18n.js';
import { useDashboard } from '../../context.js';

/**
 * Every scope a key can hold, in the API's order. Written out here rather than imported, so the
 * page does not carry the contracts' schemas; `UnlistedScopes` turns a scope added there and missing
 * here into a type error.
 */
export const SCOPES = [
  'payments:read',
  'checkout:write',
  'checkout:read',
  'refunds:write',
  'refunds:read',
  'webhooks:write',
  'webhooks:read',
  'balance:read',
  'invoices:read',
  'withdrawals:read',
  'withdrawals:write',
  'ledger:read',
] as const satisfies readonly ApiKeyScope[];
type NoneLeft<T extends never> = T;
export type UnlistedScopes = NoneLeft<Exclude<ApiKeyScope, (typeof SCOPES)[number]>>;

/** The one scope never given by default: a key holding it can send the wallet's funds away. */
export const WITHDRAW: ApiKeyScope = 'withdrawals:write';
/** What a key created without a choice holds (the API's default set). */
export const STANDARD: readonly ApiKeyScope[] = SCOPES.filter((s) => s !== WITHDRAW);

export const isStandard = (scopes: readonly string[]): boolean =>
  scopes.length === STANDARD.length && STANDARD.every((s) => scopes.includes(s));

const labelOf = (scope: ApiKeyScope) => `scope_${scope.replace(':', '_')}` as keyof Messages;

export type Access = { kind: 'standard' } | { kind: 'restricted'; scopes: ApiKeyScope[] };

/**
 * What a new key may do: the standard set (preselected), or only the scopes ticked. Requesting
 * withdrawals is never ticked for the merchant, and a warning says what it allows once it is.
 */
export const ScopeChoice = ({ access, onChange }: { access: Access; onChange: (a: Access) => void }) => {
  const { t } = useDashboard();
  const ticked = access.kind === 'restricted' ? access.scopes : [];
  const toggle = (scope: ApiKeyScope, on: boolean) =>
    onChange({
      kind: 'restricted',
      scopes: SCOPES.filter((s) => (s === scope ? on : ticked.includes(s))),
    });
  return (
    <fieldset class="scope-choice">
      <legend>{t('keyAccess')}</legend>
      <label class="inline">
        <input
          type="radio"
          name="key-access"
          checked={access.kind === 'standard'}
          onChange={() => onChange({ kind: 'standard' })}
          aria-describedby="key-standard-hint"
        />{' '}
        {t('keyStandard')}
      </label>
      <p id="key-standard-hint" class="hint">
        {t('keyStandardHint')}
      </p>
      <label class="inline">
        <input
          type="radio"
          name="key-access"
          checked={access.kind === 'restricted'}
          onChange={() => onChange({ kind: 'restricted', scopes: [] })}
        />{' '}
        {t('keyRestricted')}
      </label>
      {access.kind === 'restricted' && (
        <div class="scope-grid" role="group" aria-label={t('keyScopes')}>
          {SCOPES.map((scope) => (
            <label key={scope} class={scope === WITHDRAW ? 'scope-option risky' : 'scope-option'}>
              <input
                type="checkbox"
                value={scope}
                checked={ticked.includes(scope)}
                onChange={(e) => toggle(scope, e.currentTarget.checked)}
              />{' '}
              <span>
                {t(labelOf(scope))} <code>{scope}</code>
              </span>
            </label>
          ))}
        </div>
      )}
      {ticked.includes(WITHDRAW) && (
        <p class="alert warn" role="note">
          {t('withdrawScopeWarning')}
        </p>
      )}
    </fieldset>
  );
};

/** A key's scopes in its listing: "Standard", or each scope, requesting withdrawals marked. */
export const ScopeSummary = ({ scopes }: { scopes: readonly string[] }) => {
  const { t } = useDashboard();
  if (isStandard(scopes)) return <span class="scope-tag">{t('keyStandardShort')}</span>;
  return (
    <ul class="scope-tags" aria-label={t('keyScopes')}>
      {SCOPES.filter((s) => scopes.includes(s)).map((scope) => (
        <li
          key={scope}
          class={scope === WITHDRAW ? 'scope-tag risky' : 'scope-tag'}
          title={t(labelOf(scope))}
        >
          {scope}
        </li>
      ))}
    </ul>
  );
};
