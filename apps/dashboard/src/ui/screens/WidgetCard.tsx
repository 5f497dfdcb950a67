import { useDashboard } from '../context.js';
import { CopyButton } from '../OnChain.js';
import { useLoad } from '../use-load.js';

/** Where a deployment's checkout page lives, when no session shows it yet: to be replaced by hand. */
const PLACEHOLDER_ORIGIN = 'https://checkout.example.com';

/** The button and script tag a shop pastes (the checkout app's README, "The widget"). */
export const widgetSnippet = (merchantId: string, currency: string, checkoutOrigin: string): string =>
  [
    `<button data-stablepay-merchant="${merchantId}" data-amount="12.50" data-currency="${currency}"`,
    `        data-reference="order-1001">Pay 12.50 ${currency}</button>`,
    `<script src="${checkoutOrigin}/widget.js"></script>`,
  ].join('\n');

/**
 * The merchant's public id, which the widget needs, and a snippet ready to paste. The dashboard's
 * config names only the gateway, so the checkout page's origin is read from the newest checkout
 * link's URL; before there is one, the snippet holds a placeholder and says so.
 */
export const WidgetCard = () => {
  const { session, account, t } = useDashboard();
  const [origin] = useLoad(async () => {
    const page = await session.call('listCheckoutSessionsDashboard', { query: { limit: 1 } });
    const url = page.sessions[0]?.url;
    return url ? new URL(url).origin : undefined;
  }, []);
  const known = origin.state === 'ready' ? origin.data : undefined;
  const merchantId = account.merchant.id;
  const snippet = widgetSnippet(
    merchantId,
    account.merchant.accepted_currencies[0] ?? 'USDC',
    known ?? PLACEHOLDER_ORIGIN,
  );
  return (
    <section class="card" aria-labelledby="widget-title">
      <h2 id="widget-title">{t('widgetTitle')}</h2>
      <p class="muted">{t('widgetIntro')}</p>
      <p class="secret-line">
        <span>{t('publicMerchantId')}:</span> <code data-public-merchant-id>{merchantId}</code>{' '}
        <CopyButton value={merchantId} label={t('publicMerchantId')} />
      </p>
      <p id="widget-snippet-label">
        <strong>{t('widgetSnippet')}</strong>
      </p>
      <pre class="snippet" aria-labelledby="widget-snippet-label" data-widget-snippet tabIndex={0}>
        {snippet}
      </pre>
      <CopyButton value={snippet} label={t('widgetSnippet')} />
      {origin.state === 'ready' && !known && <p class="hint">{t('widgetOriginPlaceholder')}</p>}
    </section>
  );
};
