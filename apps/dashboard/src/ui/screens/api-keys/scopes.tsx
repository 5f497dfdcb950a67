import type { ApiKeyScope } from '@stablepay/contracts';
import type { Messages } from '../../../i18n.js';
import { useDashboard } from '../../context.js';
import { RadioOption } from '../../form.js';

/**
 * The words for each scope a key can hold, in the API's order. Typed by the contracts' list rather
 * than copied from it (the page does not carry the contracts' schemas): a scope added there and not
 * named here does not compile.
 */
const SCOPE_LABELS: Record<ApiKeyScope, keyof Messages> = {
  'payments:read': 'scope_payments_read',
  'checkout:write': 'scope_checkout_write',
  'checkout:read': 'scope_checkout_read',
  'refunds:write': 'scope_refunds_write',
  'refunds:read': 'scope_refunds_read',
  'webhooks:write': 'scope_webhooks_write',
  'webhooks:read': 'scope_webhooks_read',
  'balance:read': 'scope_balance_read',
  'invoices:read': 'scope_invoices_read',
  'withdrawals:read': 'scope_withdrawals_read',
  'withdrawals:write': 'scope_withdrawals_write',
  'ledger:read': 'scope_ledger_read',
  'settings:read': 'scope_settings_read',
  'settings:write': 'scope_settings_write',
};
export const SCOPES = Object.keys(SCOPE_LABELS) as ApiKeyScope[];

/** The one scope never given by default: a key holding it can send the wallet's funds away. */
export const WITHDRAW: ApiKeyScope = 'withdrawals:write';
/** What a key created without a choice holds (the API's default set). */
export const STANDARD: readonly ApiKeyScope[] = SCOPES.filter((s) => s !== WITHDRAW);

export const isStandard = (scopes: readonly string[]): boolean =>
  scopes.length === STANDARD.length && STANDARD.every((s) => scopes.includes(s));

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
      <RadioOption
        name="key-access"
        checked={access.kind === 'standard'}
        onChoose={() => onChange({ kind: 'standard' })}
        describedBy="key-standard-hint"
      >
        {t('keyStandard')}
      </RadioOption>
      <p id="key-standard-hint" class="hint">
        {t('keyStandardHint')}
      </p>
      <RadioOption
        name="key-access"
        checked={access.kind === 'restricted'}
        onChoose={() => onChange({ kind: 'restricted', scopes: [] })}
      >
        {t('keyRestricted')}
      </RadioOption>
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
                {t(SCOPE_LABELS[scope])} <code>{scope}</code>
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
          title={t(SCOPE_LABELS[scope])}
        >
          {scope}
        </li>
      ))}
    </ul>
  );
};
