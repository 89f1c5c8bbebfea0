import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { signIn } from '../helpers/cli-login';
import {
  expectInert,
  frameBombGif,
  MALICIOUS_SVGS,
  NOT_SVG,
  pixelBombPng,
  pngOfSize,
  sampleImage,
  SAMPLE_SVG,
  type RasterType,
} from '../helpers/images';

let app: TestApp;
let alice: TestUser;
let aliceKey: string;
let publicUrl: string;
const created: string[] = []; // stored file hashes, removed after the run

const RASTER: Array<[RasterType, string]> = [
  ['image/png', 'png'],
  ['image/jpeg', 'jpg'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
  ['image/avif', 'avif'],
];
const STORED_NAME = /^\/uploads\/[0-9a-f]{32}\.(png|jpg|gif|webp|avif|svg)$/;

beforeAll(async () => {
  // A low pixel limit makes a small animation a "bomb" without building a huge one.
  app = await startApp({ UPLOAD_MAX_PIXELS: '1000000' });
  alice = await registerUser(app, 'alice');
  aliceKey = await createKey(app, alice);
  publicUrl = app.strapi.config.get('server.url');
});

afterAll(async () => {
  if (app) {
    const files = await app.strapi.db.query('plugin::upload.file').findMany({ where: { hash: { $in: created } } });
    for (const file of files) await app.strapi.plugin('upload').service('upload').remove(file);
    await app.close();
  }
});

function upload(body: Buffer | string, type?: string, filename?: string, credential = aliceKey) {
  let req = app.http.post('/api/upload').set(bearer(credential));
  if (type) req = req.set('Content-Type', type);
  if (filename !== undefined) req = req.set('x-filename', filename);
  return req.send(Buffer.isBuffer(body) ? body : Buffer.from(body));
}

/** Checks a 201 answer, fetches the file back from its URL and returns the answer's data and the served bytes. */
async function uploaded(res: { status: number; body: any }) {
  expect([res.status, res.body?.success]).toEqual([201, true]);
  const data = res.body.data;
  expect(Object.keys(data).sort()).toEqual(['height', 'mime', 'name', 'size', 'url', 'width']);
  expect(data.url.startsWith(`${publicUrl}/uploads/`)).toBe(true);
  const { pathname } = new URL(data.url);
  expect(pathname).toMatch(STORED_NAME);
  created.push(path.basename(pathname).replace(/\.\w+$/, ''));
  const served = await app.http.get(pathname).buffer(true).parse((r, done) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => done(null, Buffer.concat(chunks)));
  });
  expect(served.status).toBe(200);
  expect(served.headers['x-content-type-options']).toBe('nosniff');
  expect(served.headers['content-security-policy']).toMatch(/sandbox/);
  expect(served.headers['content-type']).toContain(data.mime);
  expect(served.body.length).toBe(data.size);
  return { data, served: served.body as Buffer, headers: served.headers };
}

/** Sends a body with chunked transfer encoding (no Content-Length at all). */
async function chunkedUpload(total: number, type: string): Promise<{ status: number; body: any }> {
  const server = app.strapi.server.httpServer as http.Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const png = await pngOfSize(total);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/upload', method: 'POST', headers: { ...bearer(aliceKey), 'content-type': type, 'transfer-encoding': 'chunked' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      },
    );
    req.on('error', reject);
    for (let i = 0; i < png.length; i += 100_000) req.write(png.subarray(i, i + 100_000));
    req.end();
  });
}

describe('POST /api/upload: accepted images', () => {
  it.each(RASTER)('hosts a %s at an absolute URL and serves the same bytes back', async (type, ext) => {
    const bytes = await sampleImage(type);
    const { data, served } = await uploaded(await upload(bytes, type, `cover photo.${ext}`));
    expect(data).toMatchObject({ name: `cover photo.${ext}`, mime: type, size: bytes.length, width: 320, height: 200 });
    expect(data.url.endsWith(`.${ext}`)).toBe(true);
    expect(served.equals(bytes)).toBe(true);
  });

  it('hosts a sanitised SVG, served with a sandboxing CSP', async () => {
    const { data, served, headers } = await uploaded(await upload(SAMPLE_SVG, 'image/svg+xml', 'diagram.svg'));
    expect(data).toMatchObject({ name: 'diagram.svg', mime: 'image/svg+xml', width: 120, height: 80 });
    expect(served.toString()).toContain('>Quire</text>');
    expect(headers['content-security-policy']).toBe("default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox");
  });

  it('accepts the browser session (JWT as Bearer, and the quire_session cookie of the login page)', async () => {
    const png = await sampleImage('image/png', 20, 20);
    await uploaded(await upload(png, 'image/png', 'a.png', alice.jwt));
    const agent = await signIn(app, alice);
    const res = await agent.post('/api/upload').set('Content-Type', 'image/png').send(png);
    await uploaded(res);
  });

  it('stores the file in the Media Library, owned by the caller, under a generated name', async () => {
    const bytes = await sampleImage('image/webp', 1100, 850); // wider than every responsive breakpoint, under the pixel limit
    const { data } = await uploaded(await upload(bytes, 'image/webp', 'owned.webp'));
    const hash = path.basename(new URL(data.url).pathname, '.webp');
    const row = await app.strapi.db.query('plugin::upload.file').findOne({ where: { hash }, populate: ['folder'] });
    expect(row).toMatchObject({ name: 'owned.webp', hash, ext: '.webp', mime: 'image/webp', userId: alice.id, provider: 'local' });
    expect(row.folder?.name).toMatch(/^API Uploads/);
    expect(row.formats?.thumbnail?.url).toMatch(/^\/uploads\/thumbnail_[0-9a-f]{32}\.webp$/);
    expect(Object.keys(row.formats)).toEqual(['thumbnail']); // no responsive copies for API uploads
    // the owner column is private: Strapi's own upload API never shows it
    const sanitized = await app.strapi.contentAPI.sanitize.output(row, app.strapi.getModel('plugin::upload.file'));
    expect(sanitized).not.toHaveProperty('userId');
  });

  it('accepts exactly 4,500,000 bytes, with a Content-Length and without one', async () => {
    const png = await pngOfSize(4_500_000);
    const { data, served } = await uploaded(await upload(png, 'image/png', 'big.png'));
    expect(data.size).toBe(4_500_000);
    expect(served.equals(png)).toBe(true);
    await uploaded(await chunkedUpload(4_500_000, 'image/png'));
  });

  it('never lets x-filename become a path', async () => {
    const png = await sampleImage('image/png', 10, 10);
    const names: Array<[string, string]> = [
      ['../../etc/passwd', 'passwd.png'],
      ['..\\..\\..\\windows\\win.ini', 'win.ini.png'],
      ['/etc/hosts', 'hosts.png'],
      ['%2e%2e%2f%2e%2e%2fconfig%2fserver.ts', 'server.ts.png'],
      ['....//....//public/index.html', 'index.html.png'],
      ['..', 'image.png'],
      ['C:\\temp\\x.png', 'x.png'],
      ['<script>alert(1)</script>.png', 'script.png'],
      [`${'n'.repeat(400)}.png`, `${'n'.repeat(200)}.png`],
    ];
    for (const [header, expected] of names) {
      const { data } = await uploaded(await upload(png, 'image/png', header));
      expect([header, data.name]).toEqual([header, expected]);
    }
    const { data } = await uploaded(await upload(png, 'image/png'));
    expect(data.name).toBe('image.png');
    expect(fs.existsSync(path.join(__dirname, '..', '..', 'public', 'passwd.png'))).toBe(false);
  });
});

describe('POST /api/upload: refusals', () => {
  it('needs a credential', async () => {
    const res = await app.http.post('/api/upload').set('Content-Type', 'image/png').send(await sampleImage('image/png'));
    expectFailure(res, 401, 'unauthenticated');
  });

  it('refuses a missing or unaccepted Content-Type, naming it', async () => {
    const png = await sampleImage('image/png');
    expect(expectFailure(await upload(png, undefined), 400, 'invalid-argument').message).toMatch(/Content-Type/);
    for (const type of ['image/bmp', 'image/tiff', 'text/plain', 'application/octet-stream', 'image/jpg']) {
      const error = expectFailure(await upload(png, type), 400, 'invalid-argument');
      expect([type, error.message]).toEqual([type, expect.stringContaining(type)]);
      expect(error.nextAction).toMatch(/image\/png, image\/jpeg, image\/gif, image\/webp, image\/avif, image\/svg\+xml/);
    }
    // the upload plugin's multipart route at this path is gone: a form is just another refused type
    const form = await app.http.post('/api/upload').set(bearer(aliceKey)).attach('files', png, 'a.png');
    expect(expectFailure(form, 400, 'invalid-argument').message).toMatch(/multipart\/form-data/);
    const json = await app.http.post('/api/upload').set(bearer(aliceKey)).send({ files: 'x' });
    expect(expectFailure(json, 400, 'invalid-argument').message).toMatch(/application\/json/);
  });

  it('refuses an empty body', async () => {
    const error = expectFailure(await upload(Buffer.alloc(0), 'image/png'), 400, 'invalid-argument');
    expect(error.message).toMatch(/empty/);
  });

  it('refuses one byte over 4,500,000, whatever Content-Length says or when there is none', async () => {
    const png = await pngOfSize(4_500_001);
    expect(expectFailure(await upload(png, 'image/png'), 400, 'invalid-argument').message).toContain('4,500,000 bytes');
    const chunked = await chunkedUpload(4_500_001, 'image/png');
    expect(expectFailure(chunked, 400, 'invalid-argument').message).toContain('4,500,000 bytes');
    const huge = await app.http.post('/api/upload').set(bearer(aliceKey)).set('Content-Type', 'image/png').send(Buffer.alloc(12_000_000));
    expect(expectFailure(huge, 400, 'invalid-argument').message).toContain('4,500,000 bytes');
    // the server is still fine afterwards
    await uploaded(await upload(await sampleImage('image/png', 8, 8), 'image/png'));
  });

  it('refuses content that does not match the declared type, saying which', async () => {
    const jpeg = await sampleImage('image/jpeg');
    const cases: Array<[Buffer | string, string, RegExp]> = [
      [jpeg, 'image/png', /not a PNG image .* image\/jpeg/],
      [await sampleImage('image/png'), 'image/webp', /not a WebP image .* image\/png/],
      [await sampleImage('image/gif'), 'image/avif', /not a AVIF image .* image\/gif/],
      ['<html><script>alert(1)</script></html>', 'image/gif', /not a GIF image/],
      ['GIF89a<script>alert(1)</script>', 'image/gif', /not a valid image/],
      [jpeg, 'image/svg+xml', /UTF-8|well-formed/],
      [Buffer.concat([jpeg.subarray(0, 200)]), 'image/jpeg', /not a valid image/],
    ];
    for (const [body, type, message] of cases) {
      const error = expectFailure(await upload(body, type), 400, 'invalid-argument');
      expect([type, error.message]).toEqual([type, expect.stringMatching(message)]);
    }
  });

  it('refuses compressed bodies', async () => {
    const res = await upload(await sampleImage('image/png'), 'image/png', 'a.png').set('Content-Encoding', 'gzip');
    expect(expectFailure(res, 400, 'invalid-argument').message).toMatch(/Content-Encoding gzip/);
  });

  it.each(Object.entries(NOT_SVG))('refuses an SVG that is not well-formed: %s', async (_name, svg) => {
    expectFailure(await upload(svg, 'image/svg+xml'), 400, 'invalid-argument');
  });

  it('refuses pixel bombs, and keeps serving', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="50000" height="50000"><rect width="1" height="1"/></svg>';
    const bombs: Array<[Buffer | string, string]> = [
      [await pixelBombPng(), 'image/png'],
      [await frameBombGif(30, 200), 'image/gif'], // 30 frames of 40,000 pixels: 1.2 million in all
      [svg, 'image/svg+xml'],
    ];
    for (const [body, type] of bombs) {
      const error = expectFailure(await upload(body, type), 400, 'invalid-argument');
      expect([type, error.message]).toEqual([type, expect.stringContaining('1,000,000 pixels')]);
    }
    await uploaded(await upload(await sampleImage('image/png', 8, 8), 'image/png'));
  });
});

describe('POST /api/upload: storage failure', () => {
  it('answers 500 internal without detail when the provider fails, and leaves no file record', async () => {
    const provider = app.strapi.plugin('upload').provider;
    const original = provider.uploadStream;
    provider.uploadStream = async () => {
      throw new Error('EACCES: permission denied, open /srv/secret/uploads');
    };
    const before = await app.strapi.db.query('plugin::upload.file').count();
    try {
      const res = await upload(await sampleImage('image/png'), 'image/png', 'fails.png');
      const error = expectFailure(res, 500, 'internal');
      expect(error.message).toBe('The image could not be stored.');
      expect(JSON.stringify(res.body)).not.toMatch(/EACCES|secret/);
    } finally {
      provider.uploadStream = original;
    }
    expect(await app.strapi.db.query('plugin::upload.file').count()).toBe(before);
  });
});

describe('POST /api/upload: hostile SVG', () => {
  it('stores every hostile SVG inert, and serves it sandboxed', async () => {
    for (const [name, svg] of Object.entries(MALICIOUS_SVGS)) {
      const res = await upload(svg, 'image/svg+xml', `${name}.svg`);
      const { served, headers } = await uploaded(res);
      expectInert(served.toString());
      expect([name, headers['content-security-policy']]).toEqual([name, expect.stringContaining('sandbox')]);
    }
  });
});

describe("the upload plugin's own image processing", () => {
  it('is held to the same pixel limit (Media Library uploads do not go through our route)', async () => {
    const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'quire-bomb-'));
    const filepath = path.join(dir, 'bomb.png');
    fs.writeFileSync(filepath, await pixelBombPng(2000));
    try {
      const attempt = app.strapi
        .plugin('upload')
        .service('upload')
        .upload({ data: {}, files: { filepath, originalFilename: 'bomb.png', mimetype: 'image/png', size: fs.statSync(filepath).size } });
      await expect(attempt).rejects.toThrow(/more than 1000000 pixels/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
