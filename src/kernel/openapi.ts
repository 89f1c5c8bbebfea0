/**
 * The API describes itself (CONTRACT 15): an OpenAPI 3.1 document made from the route
 * declarations (kernel/routes.ts) at boot, served at GET /api/openapi.json with no credential,
 * with a reference page for people at GET /api/docs (Swagger UI, its files served from the
 * swagger-ui-dist package: no CDN). `npm run openapi` writes the same document to
 * docs/openapi.json.
 *
 * Every operation has its parameters, its request body, and a response for every status it can
 * answer: the success envelope around the route's data schema, pages and documents for routes
 * that answer them, and the failure envelope with the exact error codes of each error status
 * (`errorCodesOf`). Schemas are zod 4's `z.toJSONSchema` (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1); records named with `.meta({ id })` become components.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Core } from '@strapi/strapi';
import type { Credential } from './auth';
import { publicUrl } from './config';
import { declareRoutes, declaredRoutes, errorCodesOf, routeGroup, content, page, type AnyRoute, type Answer, type ContentAnswer, type RawBody } from './routes';

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers?: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

/** The security scheme of each credential kind. */
const SECURITY_SCHEMES: Record<Credential, { name: string; scheme: Record<string, unknown> }> = {
  'api-key': {
    name: 'apiKey',
    scheme: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer qk_...` (POST /api/keys, or `quire login`).' },
  },
  jwt: {
    name: 'jwt',
    scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A users-permissions JWT: `Authorization: Bearer <jwt>` (POST /api/auth/local).' },
  },
  session: {
    name: 'sessionCookie',
    scheme: {
      type: 'apiKey',
      in: 'cookie',
      name: 'quire_session',
      description: 'The browser session set by the CLI login page (httpOnly, a random session id). It counts only when the request has no Authorization header, and on /api only for same-origin requests.',
    },
  },
  oauth: {
    name: 'oauth',
    scheme: {
      type: 'oauth2',
      description: 'OAuth 2.1 access tokens (authorization code with PKCE S256), for agents a person connects to their account.',
      flows: {
        authorizationCode: {
          authorizationUrl: '/oauth/authorize',
          tokenUrl: '/oauth/token',
          refreshUrl: '/oauth/token',
          scopes: { write: 'Read and change articles.', suggest: 'Read, and suggest section edits.', read: 'Read only.' },
        },
      },
    },
  },
  'organization-key': {
    name: 'organizationKey',
    scheme: { type: 'apiKey', in: 'header', name: 'X-Process-Manager-Key', description: 'An organization key (cko_...): every process instance of its organization.' },
  },
  'instance-key': {
    name: 'instanceKey',
    scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A process instance\'s key (ck_...): that instance only.' },
  },
  'instance-key-query': {
    name: 'instanceKeyQuery',
    scheme: { type: 'apiKey', in: 'query', name: 'api_key', description: 'The instance key as a query parameter (never written to logs).' },
  },
  'webhook-signature': {
    name: 'webhookSignature',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'webhook-signature',
      description:
        'Standard Webhooks: `webhook-id`, `webhook-timestamp` (within 5 minutes) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`, space-separated for several), signed with one of the workflow\'s secrets over the exact body.',
    },
  },
  admin: {
    name: 'adminToken',
    scheme: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'The admin panel\'s token of a signed-in admin (Strapi\'s admin authentication); the route\'s RBAC actions are in x-admin-permissions.',
    },
  },
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  303: 'See Other',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** The JSON Schema of a zod schema, its named records hoisted into the components. */
class SchemaWriter {
  readonly components: Record<string, JsonSchema> = {};

  write(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$schema;
    delete json.$defs;
    for (const [name, def] of Object.entries(defs)) {
      const rewritten = rewriteRefs(def) as JsonSchema;
      const existing = this.components[name];
      if (existing && JSON.stringify(existing) !== JSON.stringify(rewritten)) {
        throw new Error(`Two different schemas are named "${name}" (meta id); give one another name.`);
      }
      this.components[name] = rewritten;
    }
    return rewriteRefs(json) as JsonSchema;
  }

  /** The failure envelope with these codes: one component per set of codes ("Failure-not-found"). */
  failure(codes: readonly string[]): JsonSchema {
    const name = `Failure-${codes.join('-or-')}`;
    if (!this.components[name]) this.components[name] = this.write(failureSchema(codes as [string, ...string[]]), 'output');
    return { $ref: `#/components/schemas/${name}` };
  }
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof child === 'string' ? child.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(child);
  }
  return out;
}

const success = (data: z.ZodType) => z.strictObject({ success: z.literal(true), data });

/** The failure envelope with the codes one status can carry. */
export const failureSchema = (codes: readonly [string, ...string[]]) =>
  z.strictObject({
    success: z.literal(false),
    error: z.strictObject({
      code: z.enum(codes),
      message: z.string().describe('What went wrong, for a person or an agent.'),
      nextAction: z.string().optional().describe('What to do next.'),
    }),
  });

/** Koa's ':id' path parameters as OpenAPI's '{id}'. */
export const openApiPath = (koaPath: string) => koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parameters(route: AnyRoute, writer: SchemaWriter): unknown[] {
  const list: unknown[] = [];
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const paramSchema = route.params ? writer.write(route.params, 'input') : { properties: {} };
  const paramProps = (paramSchema.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of names) {
    const schema = { ...(paramProps[name] ?? { type: 'string' }) };
    const description = schema.description;
    delete schema.description;
    list.push({ name, in: 'path', required: true, schema, ...(description ? { description } : {}) });
  }
  if (isZod(route.query)) {
    const query = writer.write(route.query, 'input');
    const required = new Set((query.required ?? []) as string[]);
    for (const [name, property] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
      const schema = { ...property };
      const description = schema.description;
      delete schema.description;
      list.push({ name, in: 'query', required: required.has(name), schema, ...(description ? { description } : {}) });
    }
  }
  for (const [name, description] of Object.entries(route.headers ?? {})) {
    list.push({ name, in: 'header', required: false, schema: { type: 'string' }, description });
  }
  return list;
}

function requestBody(route: AnyRoute, writer: SchemaWriter): unknown {
  if (!route.body) return undefined;
  if (isZod(route.body)) return { required: true, content: { 'application/json': { schema: writer.write(route.body, 'input') } } };
  const raw = route.body as RawBody;
  const schema = raw.schema ? writer.write(raw.schema, 'input') : { type: 'string', contentMediaType: raw.types[0], contentEncoding: 'binary' };
  return { required: raw.required ?? true, description: raw.description, content: Object.fromEntries(raw.types.map((type) => [type, { schema }])) };
}

const headerObjects = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));

function contentResponse(answer: ContentAnswer, writer: SchemaWriter): Record<string, unknown> {
  const response: Record<string, unknown> = { description: answer.description };
  if (answer.types.length) {
    const schema = answer.schema ? writer.write(answer.schema, 'output') : { type: 'string' };
    response.content = Object.fromEntries(answer.types.map((type) => [type, { schema }]));
  }
  if (answer.headers) response.headers = headerObjects(answer.headers);
  return response;
}

function responses(route: AnyRoute, writer: SchemaWriter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(route.responses) as Array<[string, Answer]>) {
    out[status] = isZod(answer)
      ? {
          description: STATUS_TEXT[Number(status)] ?? 'Success',
          ...(route.responseHeaders ? { headers: headerObjects(route.responseHeaders) } : {}),
          content: { 'application/json': { schema: writer.write(success(answer), 'output') } },
        }
      : contentResponse(answer, writer);
  }
  const byStatus = new Map<number, string[]>();
  for (const { code, status } of errorCodesOf(route)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const [status, codes] of byStatus) {
    const declared = route.responses[status] as Answer | undefined;
    if (declared && !isZod(declared) && declared.schema && declared.types.includes('application/json')) {
      // A JSON answer of its own format beside the envelope's errors with the same status (the MCP endpoint's JSON-RPC 400, the body parser's 400): either.
      out[status] = {
        description: `${declared.description} Or ${STATUS_TEXT[status] ?? 'Error'}: ${codes.join(', ')}`,
        content: { 'application/json': { schema: { anyOf: [writer.write(declared.schema, 'output'), writer.failure(codes)] } } },
      };
      continue;
    }
    if (out[status]) throw new Error(`Route ${route.id}: status ${status} is declared both as an answer and as an error.`);
    const response: Record<string, unknown> = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.join(', ')}`,
      content: { 'application/json': { schema: writer.failure(codes) } },
    };
    if (status === 429) response.headers = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string' } } };
    if (status === 412) response.headers = { ETag: { description: 'The ETag of the current version (send it in If-Match after merging, or re-read first).', schema: { type: 'string' } } };
    out[status] = response;
  }
  return out;
}

function security(route: AnyRoute): unknown[] {
  const alternatives = route.credentials.map((kind) => ({ [SECURITY_SCHEMES[kind].name]: [] }));
  return route.auth?.optional ? [{}, ...alternatives] : alternatives;
}

export interface DocumentOptions {
  /** The server's public URL (PUBLIC_URL); left out of the committed docs/openapi.json. */
  serverUrl?: string;
  version: string;
}

const DESCRIPTION = [
  'Quire: a long-form writing back end for AI agents and human editors, on Strapi 5.',
  '',
  'Every route of ours answers `{"success": true, "data": ...}` or `{"success": false, "error": {"code", "message", "nextAction"?}}`.',
  'Articles are ordered lists of sections addressed by anchors (unique prefixes of their ids); the trigger service starts workflows from signed or keyed webhooks.',
  'Each content-api route is a users-permissions action: a role that lacks it gets 403 `permission-denied` (the operation\'s `x-users-permissions-action`).',
].join('\n');

/** The OpenAPI 3.1 document of routes (every declared route of the app, in the server). */
export function openApiDocument(routes: readonly AnyRoute[], options: DocumentOptions): OpenApiDocument {
  const writer = new SchemaWriter();
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  const schemes = new Set<Credential>();
  const ordered = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of routes) for (const tag of route.tags) if (!tags.includes(tag)) tags.push(tag);
  for (const route of ordered) {
    route.credentials.forEach((kind) => schemes.add(kind));
    const operation: Record<string, unknown> = {
      operationId: route.id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [...route.tags],
      security: security(route),
    };
    const params = parameters(route, writer);
    if (params.length) operation.parameters = params;
    const body = requestBody(route, writer);
    if (body) operation.requestBody = body;
    operation.responses = responses(route, writer);
    if (route.action) operation['x-users-permissions-action'] = route.action;
    if (route.admin) operation['x-admin-permissions'] = [...route.admin.actions];
    const key = openApiPath(route.path);
    const method = route.method.toLowerCase();
    if (paths[key]?.[method]) throw new Error(`Two routes are declared for ${route.method} ${route.path}.`);
    paths[key] = { ...paths[key], [method]: operation };
  }
  // OAuth is declared ahead of its routes: the coming OAuth work accepts its tokens on every /api route.
  schemes.add('oauth');
  const securitySchemes = Object.fromEntries(
    [...schemes].sort().map((kind) => [SECURITY_SCHEMES[kind].name, SECURITY_SCHEMES[kind].scheme]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Quire API', version: options.version, description: DESCRIPTION },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: tags.map((name) => ({ name })),
    paths,
    components: { schemas: sortedKeys(writer.components), securitySchemes },
  };
}

const sortedKeys = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

// ---- serving it: /api/openapi.json and the reference page /api/docs ----

export const DOCS_PATH = '/api/docs';
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

/** Only same-origin scripts and styles; inline style attributes are Swagger UI's own. Never framed. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire API reference</title>
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

/** The document of the running server, made once (after every plugin declared its routes). */
export function serverDocument(strapi: Core.Strapi): string {
  let json = documents.get(strapi);
  if (!json) {
    json = JSON.stringify(openApiDocument(declaredRoutes(strapi), { serverUrl: publicUrl(strapi), version: appVersion(strapi.dirs.app.root) }));
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

/** Declares and mounts /api/openapi.json and /api/docs (the app's bootstrap). */
export function mountApiDescription(strapi: Core.Strapi): void {
  declareRoutes(strapi, 'app', Object.values(apiDescriptionRoutes));
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
        ctx.body = DOCS_PAGE;
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
