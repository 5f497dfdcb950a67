import { useDashboard } from '../../context.js';
import { href } from '../../router.js';

const TABS = [
  { path: '/money', label: 'withdrawalsTitle' },
  { path: '/money/addresses', label: 'addressBookTitle' },
  { path: '/money/invoices', label: 'invoicesTitle' },
  { path: '/money/billing', label: 'billingTitle' },
] as const;

/** The screens of "Withdrawals & invoices". */
export const MoneyNav = ({ current }: { current: (typeof TABS)[number]['path'] }) => {
  const { t } = useDashboard();
  return (
    <nav class="subnav" aria-label={t('navMoney')}>
      <ul>
        {TABS.map((tab) => (
          <li key={tab.path}>
            <a href={href(tab.path)} aria-current={tab.path === current ? 'page' : undefined}>
              {t(tab.label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
};
