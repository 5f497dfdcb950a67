import { useEffect, useState } from 'preact/hooks';
import { saveFile } from '../../../csv.js';
import { formatAmount, formatDateTime, formatMoney } from '../../../format.js';
import type { Messages, Translate } from '../../../i18n.js';
import { Alert, StatusBadge, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { DetailList, type Detail } from '../../detail.js';
import { useSubmit } from '../../form.js';
import { href } from '../../router.js';
import type { Invoice } from './types.js';

/** The amounts and tax of an invoice, its withdrawal, and the invoices it rectifies or is rectified by. */
const invoiceDetails = (inv: Invoice, all: Invoice[], t: Translate, lang: string): Array<Detail | false> => {
  const numberOf = (id: string) => all.find((i) => i.id === id)?.invoice_number ?? id;
  const money = (v: string) => formatMoney(v, inv.currency, lang);
  return [
    { label: t('withdrawnAmount'), value: money(inv.gross_amount) },
    {
      label: t('serviceFee'),
      value: (
        <>
          {money(inv.service_fee)}{' '}
          <span class="muted">
            ({t('vatIncluded', { rate: formatAmount(inv.tax_rate, lang), vat: money(inv.tax_amount) })};{' '}
            {formatMoney(inv.service_fee_eur, 'EUR', lang)})
          </span>
        </>
      ),
    },
    { label: t('netAmount'), value: money(inv.net_amount) },
    { label: t('taxCase'), value: t(`taxCase_${inv.tax_case}` as keyof Messages) },
    {
      label: t('withdrawal'),
      value: <a href={href(`/money/withdrawals/${inv.withdrawal_id}`)}>{t('seeWithdrawal')}</a>,
    },
    !!inv.rectifies_invoice_id && { label: t('rectifies'), value: numberOf(inv.rectifies_invoice_id) },
    !!inv.rectified_by_invoice_id && {
      label: t('rectifiedBy'),
      value: numberOf(inv.rectified_by_invoice_id),
    },
  ];
};

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
      <DetailList compact items={invoiceDetails(inv, all, t, lang)} />
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
  const { busy, error, onSubmit } = useSubmit();
  const id = `rectify-${invoice.id}`;
  const rectify = async () => {
    await session.call('rectifyInvoice', { params: { id: invoice.id }, body: { reason: reason.trim() } });
    onDone();
  };
  return (
    <form
      class="form confirm"
      noValidate
      aria-label={t('rectifyLabel', { number: invoice.invoice_number })}
      onSubmit={onSubmit(rectify, () =>
        !reason.trim() || reason.trim().length > 500 ? t('rectifyReasonInvalid') : undefined,
      )}
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
