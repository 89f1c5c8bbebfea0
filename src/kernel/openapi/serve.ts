/**
 * Serving the API description: GET /api/openapi.json (no credential) and a reference page for
 * people at GET /api/docs (Swagger UI, its files served from the swagger-ui-dist package: no
 * CDN). `npm run openapi` writes the same document to docs/openapi.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Core } from '@strapi/strapi';
import { registeredSchemes } from '../auth';
import { publicUrl } from '../config';
import { content, declareRoutes, declaredRoutes, page, routeGroup } from '../routes';
import { openApiDocument, type DocumentOptions } from './document';


export const DOCS_PATH = '/api/docs';
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

/** Only same-origin scripts and styles; inline style attributes are Swagger UI's own. Never framed. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const docsPage = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

const DOCS_INIT = `window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
  });
});
`;

const docsRoute = routeGroup('app', { credentials: [] });
/** The routes of the description itself (declared like any other, so they are described too). */
export const apiDescriptionRoutes = docsRoute('openapi', 'API description', {
  document: {
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'This document: the OpenAPI 3.1 description of every route',
    responses: { 200: content(['application/json'], 'The OpenAPI document.', z.looseObject({ openapi: z.literal('3.1.0') })) },
  },
  page: {
    method: 'GET',
    path: DOCS_PATH,
    summary: 'A reference page of this document, for people',
    responses: { 200: page('Swagger UI, served from this server.') },
  },
  asset: {
    method: 'GET',
    path: `${DOCS_PATH}/:file`,
    summary: 'A file of the reference page (script, style sheet)',
    params: z.object({ file: z.enum(['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) }),
    responses: { 200: content(['text/css', 'application/javascript'], 'The file.') },
  },
});

const documents = new WeakMap<object, string>();
const infoByApp = new WeakMap<object, DocumentOptions['info']>();

/** The document of the running server, made once (after every plugin declared its routes). */
export function serverDocument(strapi: Core.Strapi): string {
  let json = documents.get(strapi);
  if (!json) {
    const info = infoByApp.get(strapi);
    if (!info) throw new Error('The API description is not mounted (mountApiDescription in the app\'s bootstrap).');
    json = JSON.stringify(
      openApiDocument(declaredRoutes(strapi), { serverUrl: publicUrl(strapi), version: appVersion(strapi.dirs.app.root), info, schemes: registeredSchemes(strapi) }),
    );
    documents.set(strapi, json);
  }
  return json;
}

/** The app's version (its package.json), the document's info.version. */
export function appVersion(appRoot: string): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(appRoot, 'package.json'), 'utf8')).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function pageHeaders(ctx) {
  ctx.set('Content-Security-Policy', DOCS_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
}

/** Declares and mounts /api/openapi.json and /api/docs (the app's bootstrap), with the app's title and description. */
export function mountApiDescription(strapi: Core.Strapi, info: DocumentOptions['info']): void {
  infoByApp.set(strapi, info);
  declareRoutes(strapi, 'app', Object.values(apiDescriptionRoutes));
  const pageHtml = docsPage(info.title);
  const assetBodies = new Map<string, Buffer>();
  const asset = (file: string): Buffer => {
    let body = assetBodies.get(file);
    if (!body) {
      body = file === 'init.js' ? Buffer.from(DOCS_INIT) : fs.readFileSync(path.join(SWAGGER_DIR, file));
      assetBodies.set(file, body);
    }
    return body;
  };
  strapi.server.routes([
    {
      method: 'GET',
      path: apiDescriptionRoutes.document.path,
      handler: (ctx) => {
        ctx.type = 'application/json; charset=utf-8';
        ctx.set('Cache-Control', 'no-cache');
        ctx.set('Access-Control-Allow-Origin', '*');
        ctx.body = serverDocument(strapi);
      },
      config: { auth: false },
    },
    {
      method: 'GET',
      path: apiDescriptionRoutes.page.path,
      handler: (ctx) => {
        pageHeaders(ctx);
        ctx.set('Cache-Control', 'no-cache');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = pageHtml;
      },
      config: { auth: false },
    },
    {
      method: 'GET',
      path: apiDescriptionRoutes.asset.path,
      handler: (ctx, next) => {
        const file = String(ctx.params.file);
        const type = file === 'init.js' ? 'application/javascript; charset=utf-8' : ASSETS[file];
        if (!type) return next();
        pageHeaders(ctx);
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.type = type;
        ctx.body = asset(file);
      },
      config: { auth: false },
    },
  ] as never);
}
