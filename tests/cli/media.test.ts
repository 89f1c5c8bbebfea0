/**
 * `quire upload` and `quire unfurl` as subprocesses against a listening server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cliOf, startCliWorld, type CliWorld } from '../helpers/cli';

/** A 1x1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let world: CliWorld;
let base: string;
let dir: string;
let pagesOrigin: string;

beforeAll(async () => {
  world = await startCliWorld('media', (origin) => (req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><head><title>Fallback</title>
<meta property="og:title" content="A page to preview">
<meta property="og:description" content="Its description.">
<meta property="og:image" content="${origin}/cover.png">
</head><body>Hello</body></html>`);
  });
  ({ base, dir, pagesOrigin } = world);
});
afterAll(() => world?.close());

const quire = (args: string[], options = {}) => cliOf(world)(args, options);

describe('quire upload', () => {
  it('uploads an image and prints its public URL alone', async () => {
    const file = path.join(dir, 'dot.png');
    fs.writeFileSync(file, PNG);
    const result = await quire(['upload', file]);
    expect(result.code).toBe(0);
    const url = result.stdout.trim();
    expect(url.startsWith(base + '/')).toBe(true);
    expect(result.stdout.split('\n')).toHaveLength(2);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const named = path.join(dir, 'café 雨.png');
    fs.writeFileSync(named, PNG);
    const json = await quire(['upload', named, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ success: true, data: expect.objectContaining({ url: expect.stringMatching(/^http/), mime: 'image/png', name: 'café 雨.png' }) });
  });

  it('refuses what it cannot type, and passes the server\'s refusals on', async () => {
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'plain text');
    const untyped = await quire(['upload', notes]);
    expect(untyped.code).toBe(2);
    expect(untyped.stderr).toContain('Pass --type');
    const lying = await quire(['upload', notes, '--type', 'image/png', '--json']);
    expect(lying.code).toBe(2);
    expect(JSON.parse(lying.stdout).error.code).toBe('invalid-argument');
  });
});

describe('quire unfurl', () => {
  it('prints a link\'s preview', async () => {
    const url = `${pagesOrigin}/post`;
    const result = await quire(['unfurl', url]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Title:       A page to preview');
    expect(result.stdout).toContain('Description: Its description.');
    const json = await quire(['unfurl', url, '--json']);
    expect(JSON.parse(json.stdout).data).toEqual(expect.objectContaining({ title: 'A page to preview', host: '127.0.0.1' }));
  });

  it('exits 2 for a private address', async () => {
    const result = await quire(['unfurl', 'http://10.0.0.1/', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout).error.code).toBe('invalid-argument');
  });
});
