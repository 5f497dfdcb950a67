import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Account, Session } from '../api/session.js';
import type { Language, Translate } from '../i18n.js';

export interface Dashboard {
  session: Session;
  account: Account;
  t: Translate;
  lang: Language;
}

export const DashboardContext = createContext<Dashboard | undefined>(undefined);

export const useDashboard = (): Dashboard => {
  const ctx = useContext(DashboardContext);
  if (!ctx) throw new Error('useDashboard outside the signed-in app');
  return ctx;
};
