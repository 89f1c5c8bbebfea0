/**
 * The S3 provider, against a real S3-compatible server (s3rver) on loopback: upload, then
 * fetch the returned URL over HTTP and compare the bytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, createKey, expectFailure, registerUser, startApp, type TestApp, type TestUser } from '../helpers/strapi';
import { expectInert, MALICIOUS_SVGS, pngOfSize, sampleImage, SAMPLE_SVG, type RasterType } from '../helpers/images';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('@20minutes/s3rver');

const BUCKET = 'quire-test';
let s3: any;
let s3Dir: string;
let endpoint: string;
let app: TestApp;
let alice: TestUser;
let key: string;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-s3-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  app = await startApp({
    UPLOAD_PROVIDER: 'aws-s3',
    S3_BUCKET: BUCKET,
    S3_REGION: 'us-east-1',
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_ROOT_PATH: 'articles',
  });
  alice = await registerUser(app, 'alice');
  key = await createKey(app, alice);
});

afterAll(async () => {
  await app?.close();
  await s3?.close();
  for (const name of ['UPLOAD_PROVIDER', 'S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_ROOT_PATH']) {
    delete process.env[name];
  }
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

async function uploadAndFetch(body: Buffer, type: string, filename: string) {
  const res = await app.http.post('/api/upload').set(bearer(key)).set('Content-Type', type).set('x-filename', filename).send(body);
  expect([res.status, res.body?.success]).toEqual([201, true]);
  const { url } = res.body.data;
  // the bucket's own URL: absolute, under the root path, with the generated name
  expect(url).toMatch(new RegExp(`^${endpoint}/${BUCKET}/articles/[0-9a-f]{32}\\.\\w+$`));
  const served = await fetch(url);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe(type);
  return { data: res.body.data, bytes: Buffer.from(await served.arrayBuffer()) };
}

describe('POST /api/upload with UPLOAD_PROVIDER=aws-s3', () => {
  it.each<RasterType>(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'])(
    'stores a %s in the bucket; its URL serves the same bytes',
    async (type) => {
      const original = await sampleImage(type);
      const { data, bytes } = await uploadAndFetch(original, type, 'cover');
      expect(data).toMatchObject({ mime: type, size: original.length, width: 320, height: 200 });
      expect(bytes.equals(original)).toBe(true);
    },
  );

  it('stores the sanitised SVG', async () => {
    const { data, bytes } = await uploadAndFetch(Buffer.from(SAMPLE_SVG), 'image/svg+xml', 'logo.svg');
    expect(bytes.length).toBe(data.size);
    expect(bytes.toString()).toContain('>Quire</text>');
    const hostile = await uploadAndFetch(Buffer.from(MALICIOUS_SVGS['script']), 'image/svg+xml', 'x.svg');
    expectInert(hostile.bytes.toString());
  });

  it('stores the largest accepted file and refuses one byte more', async () => {
    const png = await pngOfSize(4_500_000);
    const { bytes } = await uploadAndFetch(png, 'image/png', 'big.png');
    expect(bytes.equals(png)).toBe(true);
    const over = await app.http.post('/api/upload').set(bearer(key)).set('Content-Type', 'image/png').send(await pngOfSize(4_500_001));
    expectFailure(over, 400, 'invalid-argument');
  });

  it('records the file in the Media Library with the S3 provider and its owner', async () => {
    const { data } = await uploadAndFetch(await sampleImage('image/png', 400, 300), 'image/png', 'owned.png');
    const hash = path.basename(new URL(data.url).pathname, '.png');
    const row = await app.strapi.db.query('plugin::upload.file').findOne({ where: { hash } });
    expect(row).toMatchObject({ provider: 'aws-s3', url: data.url, userId: alice.id, name: 'owned.png' });
    // the thumbnail went to the bucket too
    const thumbnail = await fetch(row.formats.thumbnail.url);
    expect(thumbnail.status).toBe(200);
  });
});
