// Prints the gzipped size of what a customer downloads: the page (index.html and what it loads at
// start), the widget's loader, and the cross-chain chunk that loads only when needed.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const assets = readdirSync(join(dist, 'assets')).map((f) => `assets/${f}`);
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = assets.filter((f) => html.includes(f.replace('assets/', '')));
const lazy = assets.filter((f) => !initial.includes(f));
const sum = (files) => files.reduce((n, f) => n + gz(f), 0);
const sizes = {
  page: { files: ['index.html', ...initial], gzipBytes: gz('index.html') + sum(initial) },
  widgetLoader: { files: ['widget.js'], gzipBytes: gz('widget.js') },
  lazy: Object.fromEntries(lazy.map((f) => [f, gz(f)])),
};
sizes.widget = {
  description: 'widget.js + embed.html and what it loads at start (the cross-chain chunk excluded)',
  gzipBytes: sizes.widgetLoader.gzipBytes + sizes.page.gzipBytes,
};
writeFileSync(join(dist, 'sizes.json'), JSON.stringify(sizes, null, 2));
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `checkout: page ${kb(sizes.page.gzipBytes)} gzip, widget ${kb(sizes.widget.gzipBytes)} gzip, lazy ${lazy
    .map((f) => `${f} ${kb(gz(f))}`)
    .join(', ')}`,
);
