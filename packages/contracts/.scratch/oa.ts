import { buildOpenApiDocument } from '../src/index.js';
const t = Date.now();
const doc = buildOpenApiDocument({ serverUrl: 'http://localhost:8080' });
console.error('ms', Date.now() - t, Object.keys(doc.components.schemas).length);
console.log(JSON.stringify(doc, null, 1));
