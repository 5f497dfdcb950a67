import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDateTime } from '../../../format.js';
import { Alert, LoadView, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { useLoad } from '../../use-load.js';
import { useNow } from '../../use-now.js';
import { AddAddressForm } from './AddAddressForm.js';
import { holdLeft, type WithdrawalAddress } from './address-book.js';
import { MoneyNav } from './MoneyNav.js';
import { stepUpErrorText, useMfaStatus, useStepUp, type MfaStatus } from './StepUp.js';
import { useSubmit } from '../../form.js';

/** The withdrawal address book: where withdrawals may go, each new address after its hold. */
export const WithdrawalAddresses = () => {
  const { session, t } = useDashboard();
  const [book, reload] = useLoad(() => session.call('listWithdrawalAddresses'), []);
  const mfa = useMfaStatus();
  return (
    <>
      <h1>{t('navMoney')}</h1>
      <MoneyNav current="/money/addresses" />
      <section class="card" aria-labelledby="address-book-title">
        <h2 id="address-book-title">{t('addressBookTitle')}</h2>
        <p class="muted">{t('addressBookIntro')}</p>
        <LoadView loaded={book} t={t} reload={reload}>
          {({ addresses }) =>
            addresses.length === 0 ? (
              <p class="muted">{t('noAddresses')}</p>
            ) : (
              <ul class="address-book">
                {addresses.map((a) => (
                  <AddressRow key={a.id} entry={a} mfa={mfa} onChanged={reload} />
                ))}
              </ul>
            )
          }
        </LoadView>
      </section>
      <AddAddressForm mfa={mfa} onAdded={reload} />
    </>
  );
};

const AddressRow = ({
  entry,
  mfa,
  onChanged,
}: {
  entry: WithdrawalAddress;
  mfa: MfaStatus;
  onChanged: () => void;
}) => {
  const { session, t, lang } = useDashboard();
  const onHold = entry.status === 'on_hold';
  const now = useNow(1000, onHold);
  const left = Date.parse(entry.usable_from) - now;
  const stepUp = useStepUp(`remove-${entry.id}`, mfa);
  const [confirming, setConfirming] = useState(false);
  const { busy, error, submit } = useSubmit(stepUpErrorText);
  // The hold has passed here: ask the book (the service's clock decides, not this one), again every
  // few seconds while it still says on hold.
  const lastCheck = useRef(0);
  useEffect(() => {
    if (!onHold || left > 0 || now - lastCheck.current < 3000) return;
    lastCheck.current = now;
    onChanged();
  }, [onHold, now]);

  const remove = async () => {
    await stepUp.run((code) =>
      session.call('removeWithdrawalAddress', { params: { id: entry.id }, mfaCode: code }),
    );
    onChanged();
  };

  return (
    <li data-address-id={entry.id} data-address-status={entry.status}>
      <div class="address-line">
        <strong>{entry.label}</strong> <StatusBadge status={entry.status} t={t} />
        {onHold && (
          <span class="muted" data-usable-in>
            {' '}
            {t('usableIn', { time: holdLeft(left, t) })}
          </span>
        )}
      </div>
      <code data-address>{entry.address}</code>
      <div class="muted small-text">
        {t('addressAddedOn', { date: formatDateTime(entry.created_at, lang) })}
      </div>
      {confirming ? (
        <div class="confirm" role="group" aria-label={t('confirmRemoveAddressLabel', { label: entry.label })}>
          <p>{t('confirmRemoveAddress', { label: entry.label })}</p>
          {stepUp.fields}
          <button
            type="button"
            class="danger"
            disabled={busy || !stepUp.ready}
            onClick={() => void submit(remove)}
          >
            {t('removeAddress')}
          </button>{' '}
          {/* Focus lands on the safe choice, so a stray Enter keeps the address. */}
          <button type="button" class="secondary" autoFocus onClick={() => setConfirming(false)}>
            {t('keepAddress')}
          </button>
        </div>
      ) : (
        <button
          type="button"
          class="secondary small"
          aria-label={t('removeNamed', { label: entry.label })}
          onClick={() => setConfirming(true)}
        >
          {t('remove')}
        </button>
      )}
      {error && <Alert>{error}</Alert>}
    </li>
  );
};
