import { render } from 'preact';
import { Session } from './api/session.js';
import { loadWords, startingLanguage } from './i18n.js';
import { App } from './ui/App.js';
import './styles.css';

/** The deployment's gateway, from the server's config.json (one build serves every deployment). */
const loadConfig = async (): Promise<{ gatewayUrl: string }> => {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch('config.json', { cache: 'no-store' }).catch(() => undefined);
    if (res?.ok) return (await res.json()) as { gatewayUrl: string };
    await new Promise((r) => setTimeout(r, Math.min(5_000, 250 * 2 ** attempt)));
  }
};

// The words are fetched beside the config, so that the first paint is already in the reader's language.
const [{ gatewayUrl }, words] = await Promise.all([loadConfig(), loadWords(startingLanguage())]);
render(<App session={new Session(gatewayUrl)} words={words} />, document.getElementById('app')!);
