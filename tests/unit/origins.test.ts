/**
 * Which browser origins may call a route that checks Origin (src/kernel/origins.ts, the MCP
 * endpoint): PUBLIC_URL's and CORS_ORIGINS' (as the strapi::cors middleware is configured).
 */
import { allowedOrigins, refuseForeignOrigin } from '../../src/kernel/origins';
import { ApiError } from '../../src/kernel/errors';

const strapiWith = (url: string, cors?: unknown) => ({
  config: {
    get: (path: string) =>
      path === 'server.url' ? url : path === 'middlewares' ? ['strapi::logger', ...(cors === undefined ? [] : [{ name: 'strapi::cors', config: { origin: cors } }])] : undefined,
  },
});

function refusal(strapi: ReturnType<typeof strapiWith>, origin: string | undefined): ApiError | null {
  try {
    refuseForeignOrigin(strapi, origin);
    return null;
  } catch (error) {
    return error as ApiError;
  }
}

it('allows PUBLIC_URL\'s origin and the CORS origins, as origins', () => {
  const strapi = strapiWith('https://quire.example.com/base/', ['https://app.example.com', 'http://localhost:5173']);
  expect([...allowedOrigins(strapi)]).toEqual(['https://quire.example.com', 'https://app.example.com', 'http://localhost:5173']);
  expect([...allowedOrigins(strapiWith('https://quire.example.com', 'https://a.example,https://b.example'))]).toEqual(['https://quire.example.com', 'https://a.example', 'https://b.example']);
  expect([...allowedOrigins(strapiWith('https://quire.example.com'))]).toEqual(['https://quire.example.com']);
});

it('passes requests without Origin and from allowed origins; refuses the rest with 403 permission-denied', () => {
  const strapi = strapiWith('https://quire.example.com', ['https://app.example.com']);
  expect(refusal(strapi, undefined)).toBeNull();
  expect(refusal(strapi, 'https://quire.example.com')).toBeNull();
  expect(refusal(strapi, 'https://APP.example.com')).toBeNull();
  for (const origin of ['https://evil.example', 'http://quire.example.com', 'https://quire.example.com:8443', 'null', '', 'garbage']) {
    const error = refusal(strapi, origin);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toEqual(expect.objectContaining({ code: 'permission-denied', status: 403 }));
    expect(error!.message).toContain(JSON.stringify(origin));
    expect(error!.nextAction).toContain('CORS_ORIGINS');
  }
});

it('quotes a long Origin only in part', () => {
  const error = refusal(strapiWith('https://quire.example.com'), `https://${'a'.repeat(500)}.example`);
  expect(error!.message.length).toBeLessThan(400);
});
