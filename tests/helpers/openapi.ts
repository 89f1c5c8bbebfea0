/**
 * The server never answers outside its own description: every answer of a route of ours that
 * a test receives (through supertest, a CLI subprocess or a browser) is checked against the
 * server's OpenAPI document, the route's schema for that status, with ajv (JSON Schema
 * 2020-12, OpenAPI 3.1's dialect) and ajv-formats.
 *
 * startApp (helpers/strapi.ts) puts `validationMiddleware` in front of every other middleware
 * of the app it boots; a mismatch is recorded there and fails the test that made the call (the
 * `afterEach` below, registered by every test file that boots an app).
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Document = { paths: Record<string, Record<string, any>>; components: unknown };

interface Template {
  path: string;
  pattern: RegExp;
  literals: number;
}

const DOCUMENT_ID = 'https://quire.test/openapi.json';
const pointer = (...parts: Array<string | number>) => parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const mediaType = (contentType: string | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

/** Checks answers against one OpenAPI document. */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly templates: Template[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    private readonly document: Document,
    /** True for paths the server answers in its envelope although no route is declared there (unknown routes). */
    private readonly enveloped: (path: string) => boolean,
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...(document as object), $id: DOCUMENT_ID });
    this.templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.split('/').map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`),
        literals: path.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      .sort((a, b) => b.literals - a.literals);
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${ref}` });
      this.compiled.set(ref, validate);
    }
    return validate;
  }

  /** The document's path template and operation for a request, if a route of ours is declared there. */
  operationOf(method: string, path: string): { template: string; operation: any } | undefined {
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    for (const template of this.templates) {
      if (template.pattern.test(path) && this.document.paths[template.path][verb]) {
        return { template: template.path, operation: this.document.paths[template.path][verb] };
      }
    }
    return undefined;
  }

  /** Why an answer does not match the document, or null when it does (or is not an answer of ours). */
  check(answer: { method: string; path: string; status: number; contentType?: string; body: unknown }): string | null {
    const { method, path, status } = answer;
    if (method === 'OPTIONS') return null;
    const where = `${method} ${path} answered ${status}`;
    const found = this.operationOf(method, path);
    if (!found) {
      if (!this.enveloped(path)) return null;
      // An unknown route (or method) under our prefixes: the failure envelope all the same.
      return this.checkFailure(where, answer);
    }
    const response = found.operation.responses[String(status)];
    if (!response) return `${where}, a status ${found.template} does not declare (it declares ${Object.keys(found.operation.responses).join(', ')}).`;
    const types = Object.keys(response.content ?? {});
    const type = mediaType(answer.contentType);
    if (method === 'HEAD' || status === 304 || !types.length) {
      return !types.length && answer.body != null && answer.body !== '' ? `${where} with a body, where the document declares none.` : null;
    }
    if (!types.includes(type)) return `${where} as ${type || 'no content type'}, where the document declares ${types.join(' or ')}.`;
    if (type !== 'application/json') return null;
    return this.checkJson(where, answer, pointer('paths', found.template, method.toLowerCase(), 'responses', String(status), 'content', type, 'schema'));
  }

  private readonly failure = this.ajv.compile({
    type: 'object',
    properties: {
      success: { const: false },
      error: {
        type: 'object',
        properties: { code: { type: 'string' }, message: { type: 'string' }, nextAction: { type: 'string' } },
        required: ['code', 'message'],
        additionalProperties: false,
      },
    },
    required: ['success', 'error'],
    additionalProperties: false,
  });

  private checkFailure(where: string, answer: { body: unknown; contentType?: string }): string | null {
    if (mediaType(answer.contentType) !== 'application/json') return `${where} (no route is declared there) as ${answer.contentType}, not the failure envelope.`;
    return this.failure(answer.body) ? null : `${where} (no route is declared there) with ${JSON.stringify(answer.body)?.slice(0, 300)}, not the failure envelope.`;
  }

  private checkJson(where: string, answer: { body: unknown }, ref: string): string | null {
    let body = answer.body;
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      try {
        body = JSON.parse(String(body));
      } catch {
        return `${where} with a body that is not JSON.`;
      }
    }
    const validate = this.validator(ref);
    if (validate(body)) return null;
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    return `${where} outside its description (#/${ref}): ${problems.join('; ')}\n  body: ${JSON.stringify(body)?.slice(0, 600)}`;
  }
}

/** Mismatches seen since the last check, across the apps of this test file. */
const mismatches: string[] = [];

/** The Koa middleware that checks every answer of the app, recording mismatches. */
export function validationMiddleware(validator: () => ResponseValidator) {
  return async (ctx, next) => {
    await next();
    const body = ctx.body;
    // Streams (files served from disk by other plugins) are not answers of ours, nor are the
    // answers of another plugin's routes (the upload plugin's /api/upload/files...).
    if (body && typeof body === 'object' && typeof body.pipe === 'function') return;
    const route = ctx.state.route;
    if (route && !route.declaration && route.info?.pluginName && !['quire', 'triggers'].includes(route.info.pluginName)) return;
    try {
      const problem = validator().check({ method: ctx.method, path: ctx.path, status: ctx.status, contentType: ctx.response.get('Content-Type'), body });
      if (problem) mismatches.push(problem);
    } catch (error) {
      mismatches.push(`${ctx.method} ${ctx.path}: the answer could not be checked: ${(error as Error).stack}`);
    }
  };
}

/** Throws when the server answered outside its description since the last call. */
export function assertNoMismatches(): void {
  if (!mismatches.length) return;
  const found = mismatches.splice(0);
  throw new Error(`The server answered outside its OpenAPI document:\n- ${found.join('\n- ')}`);
}

afterEach(() => assertNoMismatches());
afterAll(() => assertNoMismatches());
