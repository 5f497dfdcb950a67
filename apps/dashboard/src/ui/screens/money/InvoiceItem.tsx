import { useEffect, useState } from 'preact/hooks';
import { saveFile } from '../../../csv.js';
import { formatAmount, formatDateTime } from '../../../format.js';
import type { Messages } from '../../../i18n.js';
import { Alert, StatusBadge, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { href } from '../../router.js';
import type { Invoice } from './types.js';

/**
 * One invoice: its amounts and tax, its PDF shown in the page or downloaded (fetched with the
 * bearer token, so never through a URL a browser would open on its own), and rectification.
 */
export const InvoiceItem = ({
  invoice: inv,
  all,
  onChanged,
}: {
  invoice: Invoice;
  all: Invoice[];
  onChanged: () => void;
}) => {
  const { session, t, lang } = useDashboard();
  const [pdfUrl, setPdfUrl] = useState<string>();
  const [rectifying, setRectifying] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => () => pdfUrl && URL.revokeObjectURL(pdfUrl), [pdfUrl]);
  const numberOf = (id: string | null) => all.find((i) => i.id === id)?.invoice_number;
  const money = (v: string) => `${formatAmount(v, lang)} ${inv.currency}`;

  const pdf = async (mode: 'view' | 'download') => {
    setError(undefined);
    try {
      const blob = await session.download('getInvoicePdf', { params: { id: inv.id }, query: { mode } });
      if (mode === 'download') return saveFile(`${inv.invoice_number}.pdf`, 'application/pdf', blob);
      setPdfUrl(URL.createObjectURL(new Blob([blob], { type: 'application/pdf' })));
    } catch (err) {
      setError(errorText(t, err));
    }
  };

  return (
    <li data-invoice-id={inv.id} data-invoice-status={inv.status}>
      <div class="invoice-head">
        <h3>
          {inv.invoice_number} <StatusBadge status={inv.status} t={t} />
        </h3>
        <span class="muted small-text">{formatDateTime(inv.issued_at, lang)}</span>
      </div>
      <dl class="details compact">
        <dt>{t('withdrawnAmount')}</dt>
        <dd>{money(inv.gross_amount)}</dd>
        <dt>{t('serviceFee')}</dt>
        <dd>
          {money(inv.service_fee)}{' '}
          <span class="muted">
            ({t('vatIncluded', { rate: formatAmount(inv.tax_rate, lang), vat: money(inv.tax_amount) })};{' '}
            {formatAmount(inv.service_fee_eur, lang)} EUR)
          </span>
        </dd>
        <dt>{t('netAmount')}</dt>
        <dd>{money(inv.net_amount)}</dd>
        <dt>{t('taxCase')}</dt>
        <dd>{t(`taxCase_${inv.tax_case}` as keyof Messages)}</dd>
        <dt>{t('withdrawal')}</dt>
        <dd>
          <a href={href(`/money/withdrawals/${inv.withdrawal_id}`)}>{t('seeWithdrawal')}</a>
        </dd>
        {inv.rectifies_invoice_id && (
          <>
            <dt>{t('rectifies')}</dt>
            <dd>{numberOf(inv.rectifies_invoice_id) ?? inv.rectifies_invoice_id}</dd>
          </>
        )}
        {inv.rectified_by_invoice_id && (
          <>
            <dt>{t('rectifiedBy')}</dt>
            <dd>{numberOf(inv.rectified_by_invoice_id) ?? inv.rectified_by_invoice_id}</dd>
          </>
        )}
      </dl>
      <div class="actions">
        {pdfUrl ? (
          <button type="button" class="secondary small" onClick={() => setPdfUrl(undefined)}>
            {t('closePdf')}
            <span class="visually-hidden"> {inv.invoice_number}</span>
          </button>
        ) : (
          <button type="button" class="secondary small" onClick={() => void pdf('view')}>
            {t('viewPdf')}
            <span class="visually-hidden"> {inv.invoice_number}</span>
          </button>
        )}
        <button type="button" class="secondary small" onClick={() => void pdf('download')}>
          {t('downloadPdf')}
          <span class="visually-hidden"> {inv.invoice_number}</span>
        </button>
        {inv.status === 'issued' && !rectifying && (
          <button type="button" class="secondary small" onClick={() => setRectifying(true)}>
            {t('rectifyEllipsis')}
            <span class="visually-hidden"> {inv.invoice_number}</span>
          </button>
        )}
      </div>
      {error && <Alert>{error}</Alert>}
      {pdfUrl && (
        <iframe class="pdf" src={pdfUrl} title={t('pdfOf', { number: inv.invoice_number })} data-pdf-viewer />
      )}
      {rectifying && (
        <RectifyForm
          invoice={inv}
          onCancel={() => setRectifying(false)}
          onDone={() => {
            setRectifying(false);
            onChanged();
          }}
        />
      )}
    </li>
  );
};

const RectifyForm = ({
  invoice,
  onCancel,
  onDone,
}: {
  invoice: Invoice;
  onCancel: () => void;
  onDone: () => void;
}) => {
  const { session, t } = useDashboard();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const id = `rectify-${invoice.id}`;
  return (
    <form
      class="form confirm"
      noValidate
      aria-label={t('rectifyLabel', { number: invoice.invoice_number })}
      onSubmit={async (e) => {
        e.preventDefault();
        if (!reason.trim() || reason.trim().length > 500) return setError(t('rectifyReasonInvalid'));
        setBusy(true);
        setError(undefined);
        try {
          await session.call('rectifyInvoice', {
            params: { id: invoice.id },
            body: { reason: reason.trim() },
          });
          onDone();
        } catch (err) {
          setError(errorText(t, err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <p>{t('rectifyIntro')}</p>
      <label for={id}>{t('rectifyReason')}</label>
      <textarea
        id={id}
        rows={2}
        maxLength={500}
        value={reason}
        onInput={(e) => setReason(e.currentTarget.value)}
      />
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button type="submit" class="danger" disabled={busy}>
          {t('rectify')}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t('keepInvoice')}
        </button>
      </div>
    </form>
  );
};
