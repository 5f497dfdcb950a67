import { render } from 'preact';
import { loadMessages, pickLanguage } from './i18n.js';
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

const lang = pickLanguage(params.get('lang'), navigator.languages ?? []);
// The customer's catalogue first (English is built in): the page never shows in one language, then another.
void loadMessages(lang).then((messages) =>
  render(<App req={req} initialLang={lang} initialMessages={messages} />, document.getElementById('app')!),
);
