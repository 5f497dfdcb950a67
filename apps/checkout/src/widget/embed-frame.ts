/**
 * Runs in embed.html, the checkout inside the widget's frame. It tells the shop's page, and only it,
 * how tall the page is (the loader fits the frame to it) and that the customer pressed Escape (keys
 * pressed inside the frame never reach the shop's page). `?origin=` names that page; the checkout's
 * server lets no other origin frame this document, so the messages cannot go to anyone else.
 */
const hostOrigin = (): string | undefined => {
  const named = new URLSearchParams(window.location.search).get('origin');
  try {
    return named ? new URL(named).origin : undefined;
  } catch {
    return undefined;
  }
};

const host = hostOrigin();
if (host && host !== 'null' && window.parent !== window) {
  const tell = (message: Record<string, unknown>) =>
    window.parent.postMessage({ source: 'stablepay-checkout', ...message }, host);
  const app = document.getElementById('app');
  if (app)
    new ResizeObserver(() => tell({ type: 'resize', height: app.getBoundingClientRect().height })).observe(
      app,
    );
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented) tell({ type: 'close' });
  });
}
