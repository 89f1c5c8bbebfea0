/**
 * The stages a declared route runs after its guard (kernel/routes/handle.ts), whatever the door:
 * its declared headers parsed into the input, its access rules, then its handler, chosen by the
 * caller's scope on a suggestible route. And the page kit's one send (kernel/page-kit.ts).
 */
import { z } from 'zod';
import { ApiError, permissionDenied } from '../../src/kernel/errors';
import { pageController } from '../../src/kernel/page-kit';
import { controller, header, routeGroup, type AccessRule } from '../../src/kernel/routes';

const group = routeGroup('demo', { credentials: ['api-key'] as const, userCredentials: ['api-key'] });

const onlyOwnNotes: AccessRule = {
  name: 'only notes of your own',
  check({ params, caller }) {
    if (params.id !== `user-${(caller as { userId: number }).userId}`) throw permissionDenied('Not yours.', 'Use your own id.');
  },
};

const routes = group('notes', 'Notes', {
  write: {
    method: 'PATCH',
    path: '/api/notes/:id',
    summary: 'write',
    params: z.object({ id: z.string() }),
    body: z.strictObject({ text: z.string(), dryRun: z.boolean().optional() }),
    headers: { 'If-Match': 'The ETag.', 'X-Count': header('A count.', z.coerce.number().int().optional()) },
    suggestible: { unless: ({ body }) => Boolean((body as { dryRun?: boolean }).dryRun) },
    rules: [onlyOwnNotes],
    responses: { 200: z.object({ by: z.string() }), 202: z.object({ by: z.string() }) },
  },
});

const caller = (scope: 'write' | 'suggest') => ({ kind: 'user', credential: 'api-key', userId: 7, scope });

function context(params: Record<string, string>, body: unknown, headers: Record<string, string>, scope: 'write' | 'suggest') {
  const out: Record<string, string> = {};
  return {
    method: 'PATCH',
    path: `/api/notes/${params.id}`,
    params,
    query: {},
    request: { headers, body },
    state: { caller: caller(scope) },
    status: 404,
    body: undefined as unknown,
    set: (name: string, value: string) => (out[name] = value),
    out,
  };
}

const seen: unknown[] = [];
const actions = controller(routes, {
  write: {
    apply: ({ headers }) => {
      seen.push(headers);
      return { by: 'apply' };
    },
    suggest: () => ({ by: 'suggest' }),
  },
});

async function failure(run: Promise<unknown>) {
  try {
    await run;
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.code}: ${error.message}`;
    throw error;
  }
  return 'no failure';
}

describe('the pipeline after the guard', () => {
  it('gives the handler the headers the route declares, parsed (text, or by their schema), and nothing else', async () => {
    seen.length = 0;
    const ctx = context({ id: 'user-7' }, { text: 'x' }, { 'if-match': '"a"', 'x-count': '3', 'x-other': 'no' }, 'write');
    await actions.write(ctx);
    expect(ctx.status).toBe(200);
    expect(seen).toEqual([{ 'If-Match': '"a"', 'X-Count': 3 }]);
    expect(await failure(actions.write(context({ id: 'user-7' }, { text: 'x' }, { 'x-count': 'many' }, 'write')))).toMatch(/^400 invalid-argument: X-Count/);
  });

  it('runs the route\'s access rules before its handler', async () => {
    seen.length = 0;
    expect(await failure(actions.write(context({ id: 'user-8' }, { text: 'x' }, {}, 'write')))).toBe('403 permission-denied: Not yours.');
    expect(seen).toEqual([]);
  });

  it('serves a suggest credential with the suggest handler, except the calls the route says write nothing', async () => {
    const suggested = context({ id: 'user-7' }, { text: 'x' }, {}, 'suggest');
    await actions.write(suggested);
    expect(suggested.body).toEqual({ success: true, data: { by: 'suggest' } });
    const dryRun = context({ id: 'user-7' }, { text: 'x', dryRun: true }, {}, 'suggest');
    await actions.write(dryRun);
    expect(dryRun.body).toEqual({ success: true, data: { by: 'apply' } });
    const written = context({ id: 'user-7' }, { text: 'x' }, {}, 'write');
    await actions.write(written);
    expect(written.body).toEqual({ success: true, data: { by: 'apply' } });
  });

  it('refuses a suggestible route given one handler for every scope', async () => {
    const lone = controller(routes, { write: (() => ({ by: 'apply' })) as never });
    await expect(lone.write(context({ id: 'user-7' }, { text: 'x' }, {}, 'write'))).rejects.toThrow(/suggestible/);
  });
});

describe('the page kit', () => {
  const pages = routeGroup('demo', { credentials: [] as const })('page', 'Pages', {
    show: { method: 'GET', path: '/page', summary: 'a page', query: z.object({ q: z.string() }), responses: {} },
  });
  const strapi = { log: { error: jest.fn() }, config: { get: () => 'http://127.0.0.1:1337' } } as never;

  function pageContext(query: Record<string, unknown>) {
    const headers: Record<string, string> = {};
    return { method: 'GET', path: '/page', query, request: { body: undefined, ip: '::1' }, state: {}, status: 404, body: undefined as unknown, headers, set: (n: string, v: string) => (headers[n] = v) };
  }

  it('reads the query leniently with the route\'s schema, and answers once with the CSP of its nonce', async () => {
    let nonce = '';
    const actions = pageController(strapi, pages, { csrf: { cookie: 'c', path: '/page', label: 'l' }, failure: (page) => ({ status: 500, html: `failed ${page.nonce}` }) }, {
      show: async ({ query }, page) => {
        nonce = page.nonce;
        page.send(200, `q=${query.q ?? '(none)'}`);
      },
    });
    const ctx = pageContext({ q: ['a', 'b'] });
    await actions.show(ctx);
    expect(ctx.body).toBe('q=(none)');
    expect(ctx.headers['Content-Security-Policy']).toContain(`style-src 'nonce-${nonce}'`);
    expect(ctx.headers['Cache-Control']).toBe('no-store');
  });

  it('a page answered twice is a failure, and whatever fails is answered with the failure page', async () => {
    const actions = pageController(strapi, pages, { csrf: { cookie: 'c', path: '/page', label: 'l' }, failure: (page) => ({ status: 500, html: `failed ${page.nonce}` }) }, {
      show: async (_input, page) => {
        page.send(200, 'one');
        page.send(200, 'two');
      },
    });
    const ctx = pageContext({});
    await actions.show(ctx);
    expect(ctx.status).toBe(500);
    const nonce = /^failed (.+)$/.exec(String(ctx.body))![1];
    expect(ctx.headers['Content-Security-Policy']).toContain(`style-src 'nonce-${nonce}'`);
  });
});
