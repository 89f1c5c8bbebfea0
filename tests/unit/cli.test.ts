import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDir, loadConfig, normalizeUrl, saveConfig } from '../../src/cli/config';
import { CliError, EXIT, exitCodeFor } from '../../src/cli/errors';
import { clip, table, when } from '../../src/cli/output';

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
  it('pads table columns, counting wide characters twice', () => {
    expect(table(['A', 'B'], [['雨', 'x'], ['abc', null]])).toBe('A    B\n雨   x\nabc');
  });

  it('shortens timestamps and long cells', () => {
    expect(when('2026-11-22T18:05:09.123Z')).toBe('2026-11-22 18:05');
    expect(when(null)).toBe('-');
    expect(clip('a  b\nc', 10)).toBe('a b c');
    expect(clip('x'.repeat(20), 10)).toBe('xxxxxxxxx…');
  });
});
