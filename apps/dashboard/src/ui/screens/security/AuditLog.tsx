import { useState } from 'preact/hooks';
import type { AuditAction } from '@stablepay/contracts';
import { formatDateTime } from '../../../format.js';
import type { Messages } from '../../../i18n.js';
import { LoadView, Pager } from '../../common.js';
import { useDashboard } from '../../context.js';
import { useLoad } from '../../use-load.js';
import type { QueryOf } from '../../../api/operations.js';

/** The actions the audit log records, in the filter's order; the compiler checks none is missing. */
export const AUDIT_ACTIONS = [
  'auth.login_succeeded',
  'auth.login_failed',
  'auth.mfa_failed',
  'auth.logout',
  'auth.refresh_reuse_detected',
  'auth.password_changed',
  'auth.totp_enabled',
  'auth.totp_disabled',
  'auth.recovery_codes_regenerated',
  'auth.recovery_code_used',
  'api_key.created',
  'api_key.revoked',
  'refund.created',
  'refund.cancelled',
  'withdrawal.requested',
  'webhook_endpoint.created',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_regenerated',
  'withdrawal_address.added',
  'withdrawal_address.removed',
  'auth.step_up_failed',
  'user.registered',
  'user.email_confirmation_sent',
  'user.email_confirmed',
  'auth.registration_attempted',
] as const satisfies readonly AuditAction[];
type Unlisted = Exclude<AuditAction, (typeof AUDIT_ACTIONS)[number]>;
const everyActionListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyActionListed;
const PAGE = 25;

const actionKey = (action: string) => `audit_${action.replace('.', '_')}` as keyof Messages;

/** Sign-ins, key and secret changes, refunds and withdrawals, newest first, by action, in pages. */
export const AuditLog = ({ round }: { round: number }) => {
  const { session, t, lang } = useDashboard();
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
        <div class="field inline-field">
          <label for="audit-action">{t('auditAction')}</label>
          <select
            id="audit-action"
            value={action}
            onChange={(e) => {
              setAction(e.currentTarget.value);
              setOffset(0);
            }}
          >
            <option value="">{t('any')}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {t(actionKey(a))}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadView loaded={page} t={t} reload={reload}>
        {(p) =>
          p.entries.length === 0 ? (
            <p class="muted">{t('auditEmpty')}</p>
          ) : (
            <>
              <div class="table-wrap">
                <table class="list" data-total={p.total}>
                  <caption class="visually-hidden">{t('auditTitle')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('colDate')}</th>
                      <th scope="col">{t('auditAction')}</th>
                      <th scope="col">{t('auditBy')}</th>
                      <th scope="col">{t('details')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.entries.map((e) => (
                      <tr key={e.id} data-audit-action={e.action}>
                        <td data-label={t('colDate')}>{formatDateTime(e.occurred_at, lang)}</td>
                        <td data-label={t('auditAction')}>{t(actionKey(e.action))}</td>
                        <td data-label={t('auditBy')}>
                          {t(`actor_${e.actor}`)}
                          {e.ip && <span class="muted small-text"> · {e.ip}</span>}
                        </td>
                        <td data-label={t('details')} class="small-text">
                          {Object.entries(e.details)
                            .map(([k, v]) => `${k}: ${String(v)}`)
                            .join(' · ') || '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {p.total > PAGE && (
                <Pager
                  t={t}
                  offset={p.offset}
                  shown={p.entries.length}
                  total={p.total}
                  pageSize={PAGE}
                  onOffset={(o) => setOffset(o)}
                />
              )}
            </>
          )
        }
      </LoadView>
    </section>
  );
};
