import { bind, open, RESULT_EVENT } from './loader.js';

/** The script-tag build: `window.StablepayCheckout.open(...)`, and buttons bound once the page is read. */
const api = { open, bind, RESULT_EVENT };
(window as unknown as { StablepayCheckout: typeof api }).StablepayCheckout = api;
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => bind());
else bind();
