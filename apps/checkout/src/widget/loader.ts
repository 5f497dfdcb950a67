/**
 * The embeddable payment widget: one script tag on a merchant's page. It opens the checkout page in
 * an overlay iframe for a merchant and an amount (fixed, entered by the customer, or read from the
 * page's cart total), and reports the result through a callback, a promise and a DOM event. It holds
 * no payment code itself: all of that loads inside the iframe, from the checkout origin.
 */

export interface WidgetOptions {
  /**
   * The merchant's public id (`<prefix>_live_<uuid>`). Without a session, the checkout frames only for
   * the shop origins its deployment lists (WIDGET_ORIGINS).
   */
  merchantId?: string;
  /**
   * A checkout session your server created (`cs_…`): the customer pays it, and the checkout frames
   * only for the origin of its return_url or cancel_url. Its amount and currency are the session's.
   */
  sessionId?: string;
  /** Decimal amount; absent: the customer enters it. */
  amount?: string | number;
  currency?: 'USDC' | 'EURC';
  /** Prefills the receipt e-mail. */
  email?: string;
  /** The merchant's own reference (an order number), stored with the payment. */
  reference?: string;
  /** en, de, fr, es or it; default: the customer's browser language. */
  lang?: string;
  /** Where the checkout page is served; default: where this script was loaded from. */
  checkoutUrl?: string;
  onResult?(result: WidgetResult): void;
}

export interface WidgetResult {
  status: 'completed' | 'cancelled' | 'error';
  paymentId?: string;
  txHash?: string;
  error?: string;
}

export const RESULT_EVENT = 'stablepay:result';

const loadedFrom =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;

/** One of the overlay's elements, with its attributes (the `data-stablepay-*` markers among them) and style. */
const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  css: Partial<CSSStyleDeclaration>,
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  Object.assign(el.style, css);
  return el;
};

/** embed.html of the checkout origin, with the payment's options in its query. */
const embedUrl = (options: WidgetOptions): URL => {
  const base = new URL('./', options.checkoutUrl ?? loadedFrom ?? window.location.href);
  const url = new URL('embed.html', base);
  const params: Record<string, string | undefined> = {
    session: options.sessionId,
    merchant: options.sessionId ? undefined : options.merchantId,
    amount: options.amount === undefined || options.amount === '' ? undefined : String(options.amount),
    currency: options.currency,
    email: options.email,
    reference: options.reference,
    lang: options.lang,
    // The page's origin: the checkout lets only it frame the payment, and answers only to it.
    origin: window.location.origin,
  };
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  return url;
};

/** Until the page inside tells its height. */
const INITIAL_HEIGHT = '28rem';

/**
 * The modal overlay: a dimmed backdrop holding the checkout frame, as tall as the page inside it (up
 * to the viewport), and the one close control just above the frame's corner.
 */
const createOverlay = (url: URL) => {
  const overlay = element(
    'div',
    { role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Payment', 'data-stablepay-overlay': '' },
    {
      position: 'fixed',
      inset: '0',
      zIndex: '2147483647',
      background: 'rgba(15, 23, 42, 0.55)',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      padding: '3rem 1rem 1rem',
    },
  );
  const box = element(
    'div',
    {},
    { position: 'relative', width: 'min(30rem, 100%)', maxHeight: '100%', display: 'flex' },
  );
  const frame = element(
    'iframe',
    { src: url.href, title: 'Payment', allow: 'clipboard-write' },
    {
      width: '100%',
      height: INITIAL_HEIGHT,
      maxHeight: 'calc(100vh - 4rem)',
      border: '0',
      borderRadius: '0.75rem',
      background: '#f3f5f9',
      boxShadow: '0 10px 40px rgba(0,0,0,0.35)',
    },
  );
  const close = element(
    'button',
    { type: 'button', 'aria-label': 'Close', 'data-stablepay-close': '' },
    {
      position: 'absolute',
      bottom: '100%',
      right: '0',
      width: '2.5rem',
      height: '2.5rem',
      fontSize: '2rem',
      lineHeight: '1',
      color: '#fff',
      background: 'transparent',
      border: '0',
      cursor: 'pointer',
    },
  );
  close.textContent = '×';
  box.append(frame, close);
  overlay.append(box);
  return { overlay, frame, close };
};

/**
 * Opens the overlay; the result event is dispatched once, on `target`, bubbling (a button of bind()
 * tells its element, from where the event reaches the document).
 */
const openFor = (options: WidgetOptions, target: EventTarget): Promise<WidgetResult> => {
  const url = embedUrl(options);
  const previousFocus = document.activeElement as HTMLElement | null;
  const { overlay, frame, close } = createOverlay(url);
  document.body.append(overlay);
  frame.focus();

  return new Promise<WidgetResult>((resolve) => {
    let settled = false;
    const finish = (result: WidgetResult, delayMs = 0) => {
      if (settled) return;
      settled = true;
      window.removeEventListener('message', onMessage);
      document.removeEventListener('keydown', onKey);
      setTimeout(() => {
        overlay.remove();
        previousFocus?.focus?.();
      }, delayMs);
      options.onResult?.(result);
      target.dispatchEvent(new CustomEvent(RESULT_EVENT, { detail: result, bubbles: true }));
      resolve(result);
    };
    const onMessage = (e: MessageEvent) => {
      // Only the frame this call opened, from the checkout origin, may answer.
      if (e.origin !== url.origin || e.source !== frame.contentWindow) return;
      const data = e.data as { source?: string; type?: string; height?: unknown } & WidgetResult;
      if (data?.source !== 'stablepay-checkout') return;
      if (data.type === 'resize' && typeof data.height === 'number' && data.height > 0)
        frame.style.height = `${Math.ceil(data.height)}px`;
      // Escape pressed inside the frame, whose keys this page never sees.
      else if (data.type === 'close') finish({ status: 'cancelled' });
      else if (data.type === 'result' && data.status === 'completed')
        finish({ status: 'completed', paymentId: data.paymentId, txHash: data.txHash }, 1500);
      else if (data.type === 'result' && data.status === 'cancelled') finish({ status: 'cancelled' });
      else if (data.type === 'error') finish({ status: 'error', error: data.error }, 3000);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') finish({ status: 'cancelled' });
    };
    close.addEventListener('click', () => finish({ status: 'cancelled' }));
    window.addEventListener('message', onMessage);
    document.addEventListener('keydown', onKey);
  });
};

/** Opens the payment overlay; resolves once the customer has paid, cancelled or the page failed. */
export const open = (options: WidgetOptions): Promise<WidgetResult> => openFor(options, document);

/**
 * Script-tag use: every element with `data-stablepay-merchant` opens the widget when clicked, with
 * `data-amount` (fixed), `data-amount-from` (a CSS selector of an element or input holding the cart
 * total) or neither (the customer enters it), and `data-currency`, `data-reference`, `data-email`;
 * or with `data-stablepay-session`, a checkout session your server created.
 * The `stablepay:result` event is dispatched once, on that element, and bubbles to the document.
 */
export const bind = (root: ParentNode = document): void => {
  root.querySelectorAll<HTMLElement>('[data-stablepay-merchant],[data-stablepay-session]').forEach((el) => {
    if (el.dataset.stablepayBound) return;
    el.dataset.stablepayBound = 'true';
    el.addEventListener('click', (e) => {
      e.preventDefault();
      const d = el.dataset;
      const source = d.amountFrom ? document.querySelector<HTMLElement>(d.amountFrom) : null;
      const amount =
        d.amount ??
        (source
          ? ((source as HTMLInputElement).value ?? source.textContent ?? '').trim() || undefined
          : undefined);
      void openFor(
        {
          merchantId: d.stablepayMerchant,
          sessionId: d.stablepaySession,
          amount,
          currency: d.currency as WidgetOptions['currency'],
          reference: d.reference,
          email: d.email,
          lang: d.lang,
        },
        el,
      );
    });
  });
};
