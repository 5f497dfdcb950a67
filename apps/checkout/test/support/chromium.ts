import { chromium, type Browser } from 'playwright-core';

/**
 * How long a page's waits and actions may take: twice Playwright's 30 s, as a CI machine runs three
 * suites at once, each with its stack, PostgreSQL, RabbitMQ, anvil and a browser, on two cores.
 * A test's own limit (mocha's) still bounds the whole test.
 */
const PAGE_TIMEOUT_MS = 60_000;

/**
 * Debian's Chromium, headless, with nothing reaching out to the network on its own; every context it
 * opens (and the one behind `newPage`) waits up to PAGE_TIMEOUT_MS. The browser suites of the checkout
 * page and of the dashboard both start it here.
 */
export const launchChromium = async (): Promise<Browser> => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    return context;
  };
  return browser;
};
