/**
 * The API describes itself (CONTRACT 15): an OpenAPI 3.1 document made from the route
 * declarations (kernel/routes). Every operation has its parameters, its request body, and a
 * response for every status it can answer: the success envelope around the route's data
 * schema, pages and documents for routes that answer them, and the failure envelope with the
 * exact error codes of each error status (`errorCodesOf`). Each credential kind a route
 * accepts is the security scheme its plugin registered with it.
 */
import { z } from 'zod';
import type { SecurityScheme } from '../auth';
import { errorCodesOf, type AnyRoute, type Answer, type ContentAnswer, type RawBody } from '../routes';
import { SchemaWriter, success, type JsonSchema } from './schema-writer';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers?: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

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
  for (const [name, spec] of Object.entries(route.headers ?? {})) {
    list.push({ name, in: 'header', required: false, schema: { type: 'string' }, description: typeof spec === 'string' ? spec : spec.description });
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

function schemeOf(schemes: Readonly<Record<string, SecurityScheme>>, kind: string): SecurityScheme {
  const found = schemes[kind];
  if (!found) throw new Error(`The credential "${kind}" has no security scheme (its plugin registers one with it).`);
  return found;
}

function security(route: AnyRoute, schemes: Readonly<Record<string, SecurityScheme>>): unknown[] {
  const alternatives = route.credentials.map((kind) => ({ [schemeOf(schemes, kind).name]: [] }));
  return route.auth?.optional ? [{}, ...alternatives] : alternatives;
}

export interface DocumentOptions {
  /** The server's public URL (PUBLIC_URL); left out of the committed docs/openapi.json. */
  serverUrl?: string;
  version: string;
  /** The app's title and description (info). */
  info: { title: string; description: string };
  /** The security scheme of each credential kind the routes accept (what the plugins register with each). */
  schemes: Readonly<Record<string, SecurityScheme>>;
}

/** The OpenAPI 3.1 document of routes (every declared route of the app, in the server). */
export function openApiDocument(routes: readonly AnyRoute[], options: DocumentOptions): OpenApiDocument {
  const writer = new SchemaWriter();
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  const schemes = new Set<string>();
  const ordered = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const route of routes) for (const tag of route.tags) if (!tags.includes(tag)) tags.push(tag);
  for (const route of ordered) {
    route.credentials.forEach((kind) => schemes.add(kind));
    const operation: Record<string, unknown> = {
      operationId: route.id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [...route.tags],
      security: security(route, options.schemes),
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
  const securitySchemes = Object.fromEntries([...schemes].sort().map((kind) => [schemeOf(options.schemes, kind).name, schemeOf(options.schemes, kind).scheme]));
  return {
    openapi: '3.1.0',
    info: { title: options.info.title, version: options.version, description: options.info.description },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: tags.map((name) => ({ name })),
    paths,
    components: { schemas: sortedKeys(writer.components), securitySchemes },
  };
}

const sortedKeys = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
