import { accentColorReadable } from '@stablepay/contracts/merchants/accent-color';
import { useEffect } from 'preact/hooks';
import type { MerchantBranding } from '../pay/types.js';

/**
 * The branding of a session's or a merchant's public view. The logo's URL is the gateway's own
 * (relative to it), never a third party's; a colour that white text would not read on is ignored,
 * whatever the API said, and the page keeps its own.
 */
export const brandingOf = (
  gatewayUrl: string,
  view: { logo_url?: string | null; accent_color?: string | null },
): MerchantBranding => ({
  logoUrl: view.logo_url ? new URL(view.logo_url, gatewayUrl).href : undefined,
  accentColor: view.accent_color && accentColorReadable(view.accent_color) ? view.accent_color : undefined,
});

const PRODUCT_ICON = '/favicon.svg';

/** The tab's icon: the merchant's logo, or the product's own icon served beside the page. */
const setFavicon = (href: string) => {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  link.removeAttribute('type');
  link.href = href;
};

/**
 * Puts the merchant's branding on the page while it shows their payment: the tab title, the
 * favicon and the accent colour of the primary button and links (a CSS custom property set
 * through the CSSOM, which the page's CSP allows).
 */
export const useBranding = (title: string, branding: MerchantBranding | undefined) => {
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    setFavicon(branding?.logoUrl ?? PRODUCT_ICON);
    const root = document.documentElement.style;
    if (branding?.accentColor) root.setProperty('--accent', branding.accentColor);
    else root.removeProperty('--accent');
  }, [branding?.logoUrl, branding?.accentColor]);
};
