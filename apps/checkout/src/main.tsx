import { render } from 'preact';
import { pickLanguage } from './i18n.js';
import { App, type Request } from './ui/App.js';
import './styles.css';

const params = new URLSearchParams(window.location.search);
const get = (name: string) => params.get(name) ?? undefined;
const req: Request = {
  sessionId: get('session'),
  merchantId: get('merchant'),
  amount: get('amount'),
  currency: get('currency'),
  email: get('email'),
  reference: get('reference'),
  hostOrigin: get('origin'),
};

render(
  <App req={req} initialLang={pickLanguage(params.get('lang'), navigator.languages ?? [])} />,
  document.getElementById('app')!,
);
