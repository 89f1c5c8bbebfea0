import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDir, findProfile, loadConfig, normalizeUrl, removeProfile, saveConfig, serverIdentity, setProfile, type ConfigFile } from '../../src/cli/config';
import { CliError, EXIT, exitCodeFor } from '../../src/cli/errors';
import { clip, Output, table, terminalSafe, terminalSafeJson, when } from '../../src/cli/output';
import { PassThrough } from 'node:stream';
import { outlineTable, shortIds, UNTITLED } from '../../src/cli/render';
import { speak } from '../../src/cli/speech';

describe('exit statuses', () => {
  it('has one per error code, and 1 for codes it does not know', () => {
    expect(exitCodeFor('invalid-argument')).toBe(2);
    expect(exitCodeFor('unauthenticated')).toBe(3);
    expect(exitCodeFor('not-found')).toBe(4);
    expect(exitCodeFor('rate-limited')).toBe(5);
    expect(exitCodeFor('slow-down')).toBe(5);
    expect(exitCodeFor('internal')).toBe(6);
    expect(exitCodeFor('network-error')).toBe(6);
    expect(exitCodeFor('access-denied')).toBe(7);
    expect(exitCodeFor('expired-token')).toBe(8);
    expect(exitCodeFor('authorization-pending')).toBe(9);
    expect(exitCodeFor('payload-too-large')).toBe(EXIT.failure);
  });

  it('keeps the server\'s body verbatim for --json, and builds the same shape otherwise', () => {
    const body = '{"success":false,"error":{"code":"not-found","message":"x"}}';
    expect(new CliError('not-found', 'x', undefined, { body }).envelopeText()).toBe(body);
    expect(JSON.parse(new CliError('network-error', 'down', 'Check it.').envelopeText())).toEqual({
      success: false,
      error: { code: 'network-error', message: 'down', nextAction: 'Check it.' },
    });
    expect(JSON.parse(new CliError('invalid-argument', 'bad').envelopeText()).error).toEqual({ code: 'invalid-argument', message: 'bad' });
  });
});

describe('config', () => {
  it('lives in QUIRE_CONFIG_DIR, else XDG_CONFIG_HOME/quire, else ~/.config/quire', () => {
    expect(configDir({ QUIRE_CONFIG_DIR: '/x/y', XDG_CONFIG_HOME: '/z' })).toBe('/x/y');
    expect(configDir({ XDG_CONFIG_HOME: '/z' })).toBe('/z/quire');
    if (process.platform !== 'win32') expect(configDir({})).toBe(path.join(os.homedir(), '.config', 'quire'));
  });

  it('is written with mode 0600 in a 0700 directory, and read back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-config-'));
    try {
      const file = path.join(dir, 'nested', 'config.json');
      expect(loadConfig(file)).toEqual({ servers: {} });
      saveConfig({ defaultUrl: 'http://a', servers: { 'http://a': { apiKey: 'qk_x' } } }, file);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(loadConfig(file).servers['http://a'].apiKey).toBe('qk_x');
      fs.writeFileSync(file, '{nope');
      expect(() => loadConfig(file)).toThrow(/not valid JSON/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compares servers by one spelling of their base URL', () => {
    expect(normalizeUrl('http://LOCALHOST:1337/')).toBe('http://localhost:1337');
    expect(normalizeUrl('https://quire.example.com/base/')).toBe('https://quire.example.com/base');
    for (const bad of ['ftp://x', 'not a url', 'http://u:p@host', 'http://host/?q=1']) expect(normalizeUrl(bad)).toBeNull();
  });
});

describe('output helpers', () => {
  it('names a section without a heading in the canvas\'s words', () => {
    const admin = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'src/plugins/quire/admin/src/translations/en.json'), 'utf8'));
    expect(UNTITLED).toBe(admin['canvas.untitled']);
    const shown = outlineTable([{ anchor: 'abc123', level: 0, title: '', words: 3, source: 'markdown' }]);
    expect(shown).toContain('(text before the first heading)');
    expect(shown).not.toContain('(no heading)');
  });

  it('pads table columns, counting wide characters twice', () => {
    expect(table(['A', 'B'], [['雨', 'x'], ['abc', null]])).toBe('A    B\n雨   x\nabc');
  });

  it('shows times in the local time zone, and shortens long cells', () => {
    expect(when('2026-11-22T18:05:09.123Z', 'UTC')).toBe('2026-11-22 18:05');
    expect(when('2026-11-22T18:25:09.123Z', 'Asia/Kathmandu')).toBe('2026-11-23 00:10'); // UTC+05:45
    const local = new Date('2026-11-22T18:05:09.123Z');
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(when(local.toISOString())).toBe(`${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())} ${pad(local.getHours())}:${pad(local.getMinutes())}`);
    expect(when(null)).toBe('-');
    expect(clip('a  b\nc', 10)).toBe('a b c');
    expect(clip('x'.repeat(20), 10)).toBe('xxxxxxxxx…');
  });
});

describe('terminal safety (issue 25 point 10)', () => {
  it('strips escape sequences whole and other control characters, keeping text, newlines, tabs and any script', () => {
    expect(terminalSafe('a\x1b[31mred\x1b[0m b')).toBe('ared b');
    expect(terminalSafe('x\x1b[2J\x1b[1;1Hy')).toBe('xy');
    expect(terminalSafe('t\x1b]0;window title\x07u')).toBe('tu'); // OSC ended by BEL
    expect(terminalSafe('t\x1b]52;c;Y29weQ==\x1b\\u')).toBe('tu'); // OSC 52 (clipboard) ended by ST
    expect(terminalSafe('t\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\')).toBe('tlink'); // a hidden hyperlink
    expect(terminalSafe('a\x1bPq#0;2;0;0;0\x1b\\b')).toBe('ab'); // DCS
    expect(terminalSafe('a\x9b31mb\x9d0;x\x9cc')).toBe('abc'); // C1 CSI and OSC
    expect(terminalSafe('a\x1b7b\x1bcc')).toBe('abc'); // two-character escapes
    expect(terminalSafe('fake\roverwrite\x08\x07\x00\x7f')).toBe('fakeoverwrite');
    expect(terminalSafe('line 1\r\nline\t2\n')).toBe('line 1\nline\t2\n');
    expect(terminalSafe('unterminated \x1b]0;title\nnext line')).toBe('unterminated \nnext line');
    expect(terminalSafe('雨 é 🙂 «ok» — ü')).toBe('雨 é 🙂 «ok» — ü');
  });

  it('escapes control characters in JSON without changing what it says', () => {
    const value = { name: 'a\u009b31m\u007fb', n: 1 };
    const raw = JSON.stringify(value);
    expect(raw).toMatch(/[\x7f-\x9f]/);
    const safe = terminalSafeJson(raw);
    expect(safe).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(JSON.parse(safe)).toEqual(value);
    expect(terminalSafeJson('{\n  "a": "b"\n}')).toBe('{\n  "a": "b"\n}');
  });

  it('is applied to everything Output prints, and tables pad by what shows', async () => {
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    const out = new Output(false, stdout, stderr);
    out.out('name: \x1b]0;x\x07bot');
    out.info('hint \x1b[2Jhere');
    expect(stdout.read().toString()).toBe('name: bot\n');
    expect(stderr.read().toString()).toBe('hint here\n');
    expect(table(['A', 'B'], [['\x1b[31mab\x1b[0m', 'x'], ['abc', 'y']])).toBe('A    B\nab   x\nabc  y');
  });
});

describe('one saved login per server', () => {
  it('treats localhost, 127.0.0.1 and [::1] as one machine, and a default port as none', () => {
    const same = ['http://localhost:1337', 'http://127.0.0.1:1337/', 'http://[::1]:1337', 'http://LOCALHOST.:1337'];
    for (const url of same) expect(serverIdentity(normalizeUrl(url)!)).toBe('http://127.0.0.1:1337');
    expect(serverIdentity('http://localhost:80')).toBe(serverIdentity('http://127.0.0.1'));
    expect(serverIdentity('https://quire.example.com:443/base')).toBe('https://quire.example.com/base');
    expect(serverIdentity('http://localhost:1338')).not.toBe(serverIdentity('http://127.0.0.1:1337'));
    expect(serverIdentity('http://127.0.0.2:1337')).not.toBe(serverIdentity('http://127.0.0.1:1337'));
  });

  it('finds, replaces and forgets a login under any spelling', () => {
    const config: ConfigFile = { servers: { 'http://127.0.0.1:1337': { apiKey: 'qk_a' } } };
    expect(findProfile(config, 'http://localhost:1337')).toEqual({ url: 'http://127.0.0.1:1337', profile: { apiKey: 'qk_a' } });
    expect(findProfile(config, 'http://localhost:1338')).toBeUndefined();
    setProfile(config, 'http://localhost:1337', { apiKey: 'qk_b' });
    expect(config.servers).toEqual({ 'http://localhost:1337': { apiKey: 'qk_b' } });
    removeProfile(config, 'http://[::1]:1337');
    expect(config.servers).toEqual({});
  });
});

describe('short ids', () => {
  it('are at least 8 characters, and longer where two ids share their start', () => {
    const ids = ['c0ffee00-0000-4000-8000-000000000001', 'c0ffee00-1000-4000-8000-000000000002', 'abcdef12-0000-4000-8000-000000000003'];
    expect([...shortIds(ids)].sort()).toEqual([
      ['abcdef12-0000-4000-8000-000000000003', 'abcdef12'],
      ['c0ffee00-0000-4000-8000-000000000001', 'c0ffee00-0'],
      ['c0ffee00-1000-4000-8000-000000000002', 'c0ffee00-1'],
    ]);
  });
});

describe('speech: server errors in the CLI\'s words', () => {
  const server = (command: string, message: string, nextAction?: string, keySource: 'QUIRE_API_KEY' | 'saved login' | 'none' = 'saved login') =>
    speak({ message, nextAction }, { command, keySource, fromServer: true });

  it('names routes as commands', () => {
    expect(server('keys revoke', 'No API key with id x.', 'Call GET /api/keys for your keys.').next).toBe('quire keys list');
    expect(server('outline', 'No article with id "x".', 'Call GET /api/articles for your articles.').next).toBe('quire articles list');
    expect(server('sections get', 'No section...', 'Call GET /api/articles/3f2a/outline for the current anchors.').next).toBe('quire outline 3f2a');
    expect(server('notes get', 'No note...', 'Call GET /api/articles/3f2a/notes for the current anchors.').next).toBe('quire notes list 3f2a');
    expect(server('login', 'This login has expired.', 'Stop polling. Start again with POST /api/cli/login-request ("quire login").').next).toBe('Run quire login again.');
    expect(server('keys list', 'Too many requests.', 'Retry after 12 seconds.').next).toBe('Wait 12 seconds, then run the command again.');
    expect(
      server(
        'sections replace',
        'This article already has 100 suggestions waiting for review, the most it holds: this one was not filed.',
        "Wait until a person with write access accepts or rejects some of them (GET /api/articles/3f2a/suggestions?status=pending lists this article's), then suggest again.",
      ).next,
    ).toBe('Wait until a person with write access accepts or rejects some of them (quire suggestions list 3f2a --status pending), then run the command again.');
    expect(server('whoami', 'The API key is not valid.', 'Send "Authorization: Bearer <API key>" (create one with POST /api/keys or "quire login").').next).toMatch(
      /^Run quire login again/,
    );
    expect(server('whoami', 'The API key is not valid.', 'Send "Authorization: Bearer <API key>"...', 'QUIRE_API_KEY').next).toMatch(/^QUIRE_API_KEY was refused/);
  });

  it('names flags and arguments, not JSON fields', () => {
    expect(server('notes add', 'url must be an absolute http or https URL.', 'Pass url as an absolute http(s) URL, or null to clear it.')).toEqual({
      message: '--link must be an absolute http or https URL.',
      next: 'Pass --link as an absolute http(s) URL.',
    });
    expect(server('notes edit', 'kind must be one of source, decision, idea, question.', 'Pass kind as one of source, decision, idea, question.')).toEqual({
      message: '--kind must be one of source, decision, idea, question.',
      next: 'Pass --kind as one of source, decision, idea, question.',
    });
    expect(server('notes add', 'title must not be empty.', 'Pass a non-empty "title" string.').next).toBe('Pass a non-empty --title.');
    expect(server('sections add', 'markdown must not be empty.', 'Pass the section body as a non-empty Markdown string in "markdown".')).toEqual({
      message: 'The Markdown must not be empty.',
      next: 'Pass a file of Markdown, or "-" and pipe it (it must not be empty).',
    });
    expect(server('articles import', 'url: The URL points to a local or private-network address, which cannot be fetched.', 'Pass a public http or https link.').message).toBe(
      'The URL points to a local or private-network address, which cannot be fetched.',
    );
  });

  it('tells a malformed --if-match as that flag, with the form it takes, and a bad --cursor as where the right one is printed (issue 23 point 8)', () => {
    const ifMatch = server('sections replace', 'If-Match is not an entity tag (got "abc").', 'Send back the ETag header exactly as you received it, double quotes included (or * for any version).');
    expect(ifMatch.message).toBe('--if-match "abc" is not an ETag.');
    expect(ifMatch.next).toContain(`--if-match '"s.3f2a9c51-….2"'`);
    expect(ifMatch.next).toContain(`--if-match '*'`);
    expect(`${ifMatch.message} ${ifMatch.next}`).not.toMatch(/If-Match|entity tag/);
    const cursor = server('articles list', 'cursor is not valid.', 'Pass the nextCursor of the previous page unchanged, or leave cursor out for the first page.');
    expect(cursor.message).toBe('--cursor is not valid.');
    expect(cursor.next).toBe('Pass --cursor exactly as the previous page printed it (the line "More: quire articles list --cursor …", or "nextCursor" under --json), or leave --cursor out for the first page.');
    const empty = server('search', 'cursor must not be empty.', 'Pass the nextCursor you were given, or leave cursor out.');
    expect(empty).toEqual({ message: '--cursor must not be empty.', next: expect.stringMatching(/^Pass --cursor exactly as the previous page printed it \(the line "More: quire search/) });
  });

  it('leaves the CLI\'s own errors as they are', () => {
    expect(speak({ message: 'url is odd', nextAction: 'Call GET /api/keys for your keys.' }, { command: 'unfurl', keySource: 'none', fromServer: false })).toEqual({
      message: 'url is odd',
      next: 'Call GET /api/keys for your keys.',
    });
  });
});

describe('quire login: the verification URL the server sends', () => {
  const { checkVerificationUrls } = require('../../src/cli/commands/auth') as typeof import('../../src/cli/commands/auth');
  const server = 'https://writing.example.com/';

  it('is accepted when it is an http(s) page of the server the CLI talks to', () => {
    expect(() => checkVerificationUrls(['https://writing.example.com/cli/login', 'https://writing.example.com/cli/login?code=BCDF-GHJK'], server)).not.toThrow();
  });

  it('is refused in any other form, before it is shown or opened', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://evil.example/cli/login',
      'http://writing.example.com/cli/login', // another scheme is another origin
      'https://writing.example.com.evil.example/cli/login',
      'calc.exe',
      '',
    ]) {
      let error: unknown;
      try {
        checkVerificationUrls(['https://writing.example.com/cli/login', url], server);
      } catch (caught) {
        error = caught;
      }
      expect({ url, refused: error instanceof CliError && /not an http\(s\) page of https:\/\/writing\.example\.com/.test(error.message) }).toEqual({ url, refused: true });
    }
  });
});
