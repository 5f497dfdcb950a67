import { useState } from 'preact/hooks';
import type { AuditAction } from '@stablepay/contracts';
import { formatDateTime, formatMoney } from '../../../format.js';
import type { Messages, Translate } from '../../../i18n.js';
import { useDashboard } from '../../context.js';
import { ChoiceField } from '../../filters.js';
import { DataTable, PagedList, pagingOf, type Column } from '../../list.js';
import { useLoad } from '../../use-load.js';
import type { QueryOf, ResponseOf } from '../../../api/operations.js';

type Entry = ResponseOf<'listAuditLog'>['entries'][number];

/**
 * The words for each action the audit log records, in the filter's order. Typed by the contracts'
 * list rather than copied from it: an action added there and not named here does not compile.
 */
const ACTION_LABELS: Record<AuditAction, keyof Messages> = {
  'auth.login_succeeded': 'audit_auth_login_succeeded',
  'auth.login_failed': 'audit_auth_login_failed',
  'auth.mfa_failed': 'audit_auth_mfa_failed',
  'auth.logout': 'audit_auth_logout',
  'auth.refresh_reuse_detected': 'audit_auth_refresh_reuse_detected',
  'auth.password_changed': 'audit_auth_password_changed',
  'auth.totp_enabled': 'audit_auth_totp_enabled',
  'auth.totp_disabled': 'audit_auth_totp_disabled',
  'auth.recovery_codes_regenerated': 'audit_auth_recovery_codes_regenerated',
  'auth.recovery_code_used': 'audit_auth_recovery_code_used',
  'api_key.created': 'audit_api_key_created',
  'api_key.revoked': 'audit_api_key_revoked',
  'refund.created': 'audit_refund_created',
  'refund.cancelled': 'audit_refund_cancelled',
  'withdrawal.requested': 'audit_withdrawal_requested',
  'webhook_endpoint.created': 'audit_webhook_endpoint_created',
  'webhook_endpoint.deleted': 'audit_webhook_endpoint_deleted',
  'webhook_endpoint.secret_regenerated': 'audit_webhook_endpoint_secret_regenerated',
  'withdrawal_address.added': 'audit_withdrawal_address_added',
  'withdrawal_address.removed': 'audit_withdrawal_address_removed',
  'auth.step_up_failed': 'audit_auth_step_up_failed',
  'user.registered': 'audit_user_registered',
  'user.email_confirmation_sent': 'audit_user_email_confirmation_sent',
  'user.email_confirmed': 'audit_user_email_confirmed',
  'auth.registration_attempted': 'audit_auth_registration_attempted',
  'merchant.settings_updated': 'audit_merchant_settings_updated',
  'merchant.logo_updated': 'audit_merchant_logo_updated',
  'merchant.logo_removed': 'audit_merchant_logo_removed',
};
const ACTIONS = Object.keys(ACTION_LABELS) as AuditAction[];

/**
 * Who acted, as a reader names them. The entry says only the kind of actor, not which user: a
 * merchant has one dashboard user, so a user's entry is the signed-in account's.
 */
const whoActed = (e: Entry, t: Translate, email: string): string => {
  const keyName = e.details.apiKeyName ?? e.details.name;
  if (e.actor === 'user') return email;
  if (e.actor === 'api_key')
    return typeof keyName === 'string' ? t('whoApiKey', { name: keyName }) : t('whoAnApiKey');
  return t('whoSystem');
};

/** One entry as a sentence: who did what, to what ("owner@shop.example revoked an API key."). */
export const auditSentence = (e: Entry, t: Translate, lang: string, email: string): string => {
  const d = e.details;
  const text = (v: unknown) => (v === undefined || v === null ? '—' : String(v));
  const sentence = t(`auditSentence_${e.action.replace('.', '_')}` as keyof Messages, {
    who: whoActed(e, t, email),
    email: text(d.email),
    name: text(d.name),
    url: text(d.url),
    label: text(d.label ?? d.address),
    address: text(d.destinationAddress),
    money:
      typeof d.amount === 'string' && typeof d.currency === 'string'
        ? formatMoney(d.amount, d.currency, lang)
        : '—',
  });
  // "The API key …" starts a sentence with a capital; an e-mail address stays as it is written.
  return sentence.startsWith(email) ? sentence : sentence.charAt(0).toUpperCase() + sentence.slice(1);
};
const PAGE = 25;

// Under the sentence, the record's ids and values as stored: what an investigation looks up.
const columns = (t: Translate, lang: string, email: string): Column<Entry>[] => [
  { label: t('colDate'), cell: (e) => formatDateTime(e.occurred_at, lang) },
  {
    label: t('auditWhat'),
    cell: (e) => {
      const raw = Object.entries(e.details)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join(' · ');
      // One element, so that a phone's stacked row keeps the sentence and its details together.
      return (
        <div>
          {auditSentence(e, t, lang, email)}
          {raw && <div class="muted small-text">{raw}</div>}
        </div>
      );
    },
  },
  {
    label: t('auditFrom'),
    cell: (e) => (
      <span>
        {t(`actor_${e.actor}`)}
        {e.ip && <span class="muted small-text"> · {e.ip}</span>}
      </span>
    ),
  },
];

/** Sign-ins, key and secret changes, refunds and withdrawals, newest first, by action, in pages. */
export const AuditLog = ({ round }: { round: number }) => {
  const { session, account, t, lang } = useDashboard();
  const [action, setAction] = useState('');
  const [offset, setOffset] = useState(0);
  const [page, reload] = useLoad(() => {
    const query = { limit: PAGE, offset, action: action || undefined } as QueryOf<'listAuditLog'>;
    return session.call('listAuditLog', { query });
  }, [action, offset, round]);

  return (
    <section class="card" aria-labelledby="audit-title">
      <div class="card-head">
        <h2 id="audit-title">{t('auditTitle')}</h2>
        <ChoiceField
          id="audit-action"
          label={t('auditAction')}
          value={action}
          options={ACTIONS.map((a) => ({ value: a, label: t(ACTION_LABELS[a]) }))}
          onChoose={(next) => {
            setAction(next);
            setOffset(0);
          }}
          inline
        />
      </div>
      <PagedList
        loaded={page}
        reload={reload}
        paging={(p) => pagingOf(p, p.entries)}
        onOffset={setOffset}
        empty={<p class="muted">{t('auditEmpty')}</p>}
        pagedOnly
      >
        {(p) => (
          <DataTable
            caption={t('auditTitle')}
            columns={columns(t, lang, account.user.email)}
            rows={p.entries}
            rowKey={(e) => e.id}
            rowProps={(e) => ({ 'data-audit-action': e.action })}
            total={p.total}
          />
        )}
      </PagedList>
    </section>
  );
};
