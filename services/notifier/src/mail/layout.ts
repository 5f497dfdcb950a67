/** Escapes text for HTML element content and attribute values. */
export const escapeHtml = (value: string): string =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** A subject is one header line: no line breaks, whatever the data carried. */
export const oneLine = (value: string, max = 200): string =>
  value
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .slice(0, max);

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface MessageContent {
  subject: string;
  heading: string;
  /** Plain sentences; escaped for HTML. */
  intro: string[];
  /** Label and value rows; values are escaped for HTML. Rows with no value are left out. */
  details: Array<[string, string | null | undefined]>;
  outro?: string[];
  /**
   * One link the message asks the reader to follow, shown as a button (http and https only), with
   * the sentence that gives it as text for mail programs that show no button.
   */
  action?: { label: string; url: string; orOpen?: (url: string) => string };
  /** The language the message is written in (the HTML part's `lang`); English when not given. */
  lang?: string;
}

/**
 * Every message is built from data by this one function: the text part as it is, the HTML part
 * with every piece of data escaped. No template ever concatenates merchant or customer data into
 * markup by hand.
 */
export const renderMessage = (c: MessageContent): RenderedEmail => {
  if (c.action && !/^https?:\/\//.test(c.action.url)) throw new Error('an e-mailed link must be http(s)');
  const rows = c.details.filter((r): r is [string, string] => typeof r[1] === 'string' && r[1].length > 0);
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  const text = [
    c.heading,
    '',
    ...c.intro,
    '',
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`),
    ...(c.action ? ['', `${c.action.label}:`, c.action.url] : []),
    ...(c.outro?.length ? ['', ...c.outro] : []),
    '',
    '-- ',
    'StablePay',
  ].join('\n');
  const para = (s: string) => `<p style="margin:0 0 12px">${escapeHtml(s)}</p>`;
  const html = [
    '<!doctype html>',
    `<html lang="${escapeHtml(c.lang ?? 'en')}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5;margin:0;padding:24px">',
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(c.heading)}</h1>`,
    ...c.intro.map(para),
    '<table role="presentation" cellpadding="6" style="border-collapse:collapse;margin:8px 0 16px">',
    ...rows.map(
      ([label, value]) =>
        `<tr><th align="left" style="color:#555;font-weight:normal;padding-right:16px">${escapeHtml(label)}</th>` +
        `<td style="font-family:monospace;word-break:break-all">${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    ...(c.action
      ? [
          `<p style="margin:0 0 16px"><a href="${escapeHtml(c.action.url)}" style="display:inline-block;background:#1f4fd1;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(c.action.label)}</a></p>`,
          para(c.action.orOpen ? c.action.orOpen(c.action.url) : `Or open this address: ${c.action.url}`),
        ]
      : []),
    ...(c.outro ?? []).map(para),
    '<p style="color:#777;font-size:12px;margin-top:24px">StablePay</p>',
    '</body></html>',
  ].join('\n');
  return { subject: oneLine(c.subject), text, html };
};
