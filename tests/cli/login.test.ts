/**
 * The `quire` CLI, run as a subprocess against a server listening on a real port: login by
 * device flow (approved through the approval page's HTTP routes), by key and by QUIRE_API_KEY,
 * logout, whoami, keys, --json pass-through and exit statuses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, createKey, createLoginKey, registerUser, type TestApp, type TestUser } from '../helpers/strapi';
import { decideLogin, freePort, startListeningApp } from '../helpers/cli-login';
import { runCli, userCodeIn, type CliOptions } from '../helpers/cli';

let app: TestApp;
let base: string;
let ada: TestUser;
let bea: TestUser;
const dirs: string[] = [];

beforeAll(async () => {
  ({ app, base } = await startListeningApp({ CLI_LOGIN_INTERVAL: '1' }));
  ada = await registerUser(app, 'ada');
  bea = await registerUser(app, 'bea');
});
afterAll(async () => {
  await app?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh config directory: one person's terminal. */
function terminal() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-'));
  dirs.push(dir);
  const run = (args: string[], options: CliOptions = {}) =>
    runCli(args, { ...options, env: { QUIRE_CONFIG_DIR: dir, QUIRE_URL: base, ...options.env } });
  const config = () => JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
  return { dir, run, config, file: path.join(dir, 'config.json') };
}

/** `quire login`, approved (or denied) by `user` on the approval page as soon as the code shows. */
function loginApprovedBy(t: ReturnType<typeof terminal>, user: TestUser, args: string[] = [], decision: 'approve' | 'deny' = 'approve') {
  let decided: Promise<unknown> | undefined;
  const run = t.run(['login', ...args], {
    onStderr: (stderr) => {
      const code = userCodeIn(stderr);
      if (code && !decided) decided = decideLogin(app, user, code, decision);
    },
  });
  return run.then(async (result) => {
    await decided;
    return result;
  });
}

describe('quire login (device flow)', () => {
  it('prints a code and the page, waits for approval, and saves the key in a 0600 file', async () => {
    const t = terminal();
    const result = await loginApprovedBy(t, ada, ['--name', 'ada test laptop']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${base}/cli/login`);
    expect(result.stderr).toMatch(/enter the code:\s+[A-Z]{4}-[A-Z]{4}/);
    expect(result.stderr).toContain('Waiting for approval');
    expect(result.stdout).toContain(`Logged in to ${base} as ${ada.username}`);

    expect(fs.statSync(t.file).mode & 0o777).toBe(0o600);
    const saved = t.config();
    expect(saved.defaultUrl).toBe(base);
    expect(saved.servers[base]).toEqual(expect.objectContaining({ keyName: 'ada test laptop', createdByLogin: true, user: { id: ada.id, username: ada.username, email: ada.email } }));
    const me = await app.http.get('/api/auth/me').set(bearer(saved.servers[base].apiKey));
    expect(me.body.data.user.id).toBe(ada.id);

    const whoami = await t.run(['whoami']);
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toContain(`${ada.username} <${ada.email}>`);
    expect(whoami.stdout).toContain('(from saved login)');
  });

  it('under --json prints the login-request envelope, then the result, one JSON document per line', async () => {
    const t = terminal();
    const result = await loginApprovedBy(t, bea, ['--json']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0].success).toBe(true);
    expect(Object.keys(lines[0].data).sort()).toEqual(['deviceCode', 'expiresIn', 'interval', 'userCode', 'verificationUrl', 'verificationUrlComplete']);
    expect(lines[1]).toEqual({
      success: true,
      data: { url: base, user: { id: bea.id, username: bea.username, email: bea.email }, key: expect.objectContaining({ name: expect.stringMatching(/^quire CLI on /) }), configFile: t.file },
    });
    expect(result.stdout).not.toContain(t.config().servers[base].apiKey); // the secret stays in the config file
  });

  it('exits 7 when the login is denied, and saves nothing', async () => {
    const t = terminal();
    const result = await loginApprovedBy(t, ada, [], 'deny');
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('Error: The login was denied on the approval page. (access-denied)');
    expect(result.stderr).toMatch(/^Next: Run quire login again\.$/m);
    expect(fs.existsSync(t.file)).toBe(false);
  });

  it('splits into --no-wait and --resume for agents; --resume --once exits 9 while waiting', async () => {
    const t = terminal();
    const started = await t.run(['login', '--no-wait', '--json', '--name', 'agent box']);
    expect(started.code).toBe(0);
    const request = JSON.parse(started.stdout);
    expect(request.success).toBe(true);
    expect(t.config().servers[base].pending.userCode).toBe(request.data.userCode);

    const once = await t.run(['login', '--resume', '--once', '--json']);
    expect(once.code).toBe(9);
    expect(JSON.parse(once.stdout).error.code).toBe('authorization-pending');

    await decideLogin(app, ada, request.data.userCode);
    const resumed = await t.run(['login', '--resume', '--json']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).data.key.name).toBe('agent box');
    expect(t.config().servers[base].pending).toBeUndefined();

    const none = await t.run(['login', '--resume']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No login is waiting');
  });

  it('exits 8 when the login has expired', async () => {
    const t = terminal();
    const started = await t.run(['login', '--no-wait', '--name', 'too slow']);
    expect(started.code).toBe(0);
    expect(started.stdout).toContain('quire login --resume');
    await app.strapi.db.query('plugin::quire.cli-login').updateMany({ where: { name: 'too slow' }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const resumed = await t.run(['login', '--resume']);
    expect(resumed.code).toBe(8);
    expect(resumed.stderr).toContain('(expired-token)');
    expect(t.config().servers[base]?.pending).toBeUndefined();
  });

  it('replacing a login revokes the key the earlier login made', async () => {
    const t = terminal();
    expect((await loginApprovedBy(t, bea, ['--name', 'first'])).code).toBe(0);
    const firstKey = t.config().servers[base].apiKey;
    expect((await loginApprovedBy(t, bea, ['--name', 'second'])).code).toBe(0);
    expect((await app.http.get('/api/auth/me').set(bearer(firstKey))).status).toBe(401);
    expect(t.config().servers[base].keyName).toBe('second');
  });
});

describe('quire login --key, QUIRE_API_KEY, logout', () => {
  it('saves a key read from stdin after checking it', async () => {
    const t = terminal();
    const key = await createKey(app, ada, 'pasted');
    const result = await t.run(['login', '--key', '-'], { input: key + '\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`as ${ada.username}`);
    expect(t.config().servers[base]).toEqual(expect.objectContaining({ apiKey: key, createdByLogin: false }));

    const bad = await t.run(['login', '--key', 'qk_not-a-key']);
    expect(bad.code).toBe(3);
    expect(t.config().servers[base].apiKey).toBe(key);
  });

  it('uses QUIRE_API_KEY before the saved login, and never sends a saved key to another server', async () => {
    const t = terminal();
    expect((await t.run(['login', '--key', await createKey(app, ada)])).code).toBe(0);
    const beaKey = await createKey(app, bea);
    const asBea = await t.run(['whoami', '--json'], { env: { QUIRE_API_KEY: beaKey } });
    expect(asBea.code).toBe(0);
    // --json is the server's envelope, byte for byte.
    const direct = await app.http.get('/api/auth/me').set(bearer(beaKey));
    expect(asBea.stdout).toBe(direct.text + '\n');

    const port = Number(new URL(base).port);
    const elsewhere = await t.run(['whoami', '--url', `http://127.0.0.1:${port + 1}`]);
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toContain(`Not logged in to http://127.0.0.1:${port + 1}. You are logged in to ${base} (as ${ada.username}).`);
  });

  it('logout revokes the key a device login created and forgets it', async () => {
    const t = terminal();
    expect((await loginApprovedBy(t, ada)).code).toBe(0);
    const key = t.config().servers[base].apiKey;
    const out = await t.run(['logout']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Logged out of ${base}.`);
    expect(out.stdout).toContain('is revoked');
    expect((await app.http.get('/api/auth/me').set(bearer(key))).status).toBe(401);
    expect(t.config().servers[base]).toBeUndefined();
    expect(fs.statSync(t.file).mode & 0o777).toBe(0o600);

    const whoami = await t.run(['whoami']);
    expect(whoami.code).toBe(3);
    const again = await t.run(['logout', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ success: true, data: { url: base, loggedOut: false, revokedKeyId: null } });
  });

  it('logout keeps a key that was only pasted in', async () => {
    const t = terminal();
    const key = await createKey(app, bea, 'keep me');
    await t.run(['login', '--key', key]);
    const out = await t.run(['logout', '--json']);
    expect(JSON.parse(out.stdout).data).toEqual({ url: base, loggedOut: true, revokedKeyId: null });
    expect((await app.http.get('/api/auth/me').set(bearer(key))).status).toBe(200);
  });
});

describe('quire keys', () => {
  it('creates (secret alone on stdout), lists and revokes keys', async () => {
    const t = terminal();
    // The key of a login: a key made with POST /api/keys may not create keys (key-scopes.test.ts).
    const env = { QUIRE_API_KEY: await createLoginKey(app, ada, 'driver') };
    const created = await t.run(['keys', 'create', '--name', 'ci runner'], { env });
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toContain('Created key "ci runner"');

    const list = await t.run(['keys', 'list'], { env });
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\s+ID\s+NAME\s+PREFIX\s+SCOPE\s+EXPIRES\s+CREATED\s+LAST USED$/);
    expect(lines.find((l) => l.includes('driver'))).toMatch(/^\*/);
    const row = lines.find((l) => l.includes('ci runner'))!;
    expect(row).toContain(secret.slice(0, 9));

    const listJson = await t.run(['keys', 'list', '--json'], { env });
    const id = JSON.parse(listJson.stdout).data.keys.find((k) => k.name === 'ci runner').id;
    expect(listJson.stdout).not.toContain(secret);
    const revoked = await t.run(['keys', 'revoke', id], { env });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked key ${id}.\n`);
    expect((await app.http.get('/api/auth/me').set(bearer(secret))).status).toBe(401);

    const missing = await t.run(['keys', 'revoke', id, '--json'], { env });
    expect(missing.code).toBe(4);
    expect(JSON.parse(missing.stdout).error.code).toBe('not-found');
    expect(missing.stderr).toMatch(/^Error: .*\(not-found\)\nNext: quire keys list$/m);
  });
});

describe('exit statuses', () => {
  it('2 for usage errors and for invalid-argument from the server', async () => {
    const t = terminal();
    const env = { QUIRE_API_KEY: await createKey(app, ada) };
    const unknown = await t.run(['keys', 'list', '--nope'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--nope'");
    const empty = await t.run(['keys', 'create', '--name', '', '--json'], { env });
    expect(empty.code).toBe(2);
    expect(JSON.parse(empty.stdout).error).toEqual(expect.objectContaining({ code: 'invalid-argument', message: expect.stringMatching(/^name:? must not be empty/) }));
    const badUrl = await t.run(['whoami', '--url', 'not a url'], { env });
    expect(badUrl.code).toBe(2);
  });

  it('3 for a key the server refuses', async () => {
    const result = await terminal().run(['keys', 'list', '--json'], { env: { QUIRE_API_KEY: 'qk_revoked-or-never-issued' } });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout).error.code).toBe('unauthenticated');
    expect(result.stderr).toMatch(/^Next: QUIRE_API_KEY was refused .*set it to a valid key/m);
  });

  it('5 when rate limited', async () => {
    const limits = app.strapi.plugin('quire').service('rateLimit');
    const { REQUEST_LIMIT } = require('../../dist/src/plugins/quire/server/src/services/cli-login');
    // The address the server sees for this machine's requests, as it recorded it on a login.
    const { requestIp: ip } = await app.strapi.db.query('plugin::quire.cli-login').findOne({ where: {}, orderBy: { id: 'desc' }, select: ['requestIp'] });
    await limits.consume('cli-login-request', ip, REQUEST_LIMIT, REQUEST_LIMIT.points).catch(() => undefined);
    try {
      const result = await terminal().run(['login', '--no-wait', '--json']);
      expect(result.code).toBe(5);
      expect(JSON.parse(result.stdout).error.code).toBe('rate-limited');
    } finally {
      await limits.reset('cli-login-request', ip, REQUEST_LIMIT);
    }
  });

  it('6 for an internal error and for a server that cannot be reached', async () => {
    const t = terminal();
    const env = { QUIRE_API_KEY: await createKey(app, ada) };
    const keys = app.strapi.plugin('quire').service('keys');
    const original = keys.list;
    keys.list = async () => {
      throw new Error('boom');
    };
    try {
      const internal = await t.run(['keys', 'list', '--json'], { env });
      expect(internal.code).toBe(6);
      expect(JSON.parse(internal.stdout).error.code).toBe('internal');
    } finally {
      keys.list = original;
    }
    const closed = await freePort();
    const unreachable = await t.run(['keys', 'list', '--url', `http://127.0.0.1:${closed}`, '--json'], { env });
    expect(unreachable.code).toBe(6);
    expect(JSON.parse(unreachable.stdout).error.code).toBe('network-error');
    expect(unreachable.stderr).toContain('Could not reach');
  });

  it('0 for --help and --version, with examples in every command\'s help', async () => {
    const t = terminal();
    const help = await t.run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit status:');
    for (const command of [['login'], ['articles'], ['sections'], ['brief'], ['notes'], ['keys'], ['upload'], ['unfurl'], ['outline']]) {
      const res = await t.run([...command, '--help']);
      expect([command, res.code]).toEqual([command, 0]);
      expect(res.stdout).toContain('Examples:');
    }
    const version = await t.run(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
