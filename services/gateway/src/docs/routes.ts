import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildOpenApiDocument } from '@stablepay/contracts';
import { Router, type Request } from 'express';
import type { CorsHandlers } from '../perimeter/cors.js';
import { docsSecurityHeaders } from '../perimeter/security-headers.js';

const require = createRequire(import.meta.url);
const swaggerUiDir = (require('swagger-ui-dist/absolute-path.js') as () => string)();

/** The only files of swagger-ui-dist served (its own index and petstore initializer are not). */
const ASSETS = new Set([
  'swagger-ui.css',
  'index.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
]);

const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Stablecoin Payments API</title>
    <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css" />
    <link rel="stylesheet" type="text/css" href="/docs/index.css" />
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="/docs/swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

// External file, not an inline script, so the page runs under script-src 'self'.
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

const serverUrl = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/** `/openapi.json` (servers = the address the client used) and the swagger-ui explorer at `/docs`. */
export const docsRouter = (cors: CorsHandlers): Router => {
  const router = Router();
  const document = buildOpenApiDocument();

  router.get('/openapi.json', cors.forRoute('open'), (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json({ ...document, servers: [{ url: serverUrl(req) }] });
  });

  const docs = Router();
  docs.use(docsSecurityHeaders());
  docs.get(['/', '/index.html'], (_req, res) => {
    res.type('html').send(PAGE);
  });
  docs.get('/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').send(INITIALIZER);
  });
  docs.get('/:asset', (req, res, next) => {
    const asset = String(req.params.asset);
    if (!ASSETS.has(asset)) return next();
    res.sendFile(join(swaggerUiDir, asset), { maxAge: '1d' });
  });
  router.use('/docs', docs);
  return router;
};
