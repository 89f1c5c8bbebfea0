import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_URL = 'http://127.0.0.1:1337';

export interface SavedUser {
  id: number;
  username: string;
  email: string;
}

export interface PendingLogin {
  deviceCode: string;
  userCode: string;
  verificationUrl: string;
  verificationUrlComplete: string;
  interval: number;
  expiresAt: string;
  name: string;
}

/** What is saved for one server. */
export interface ServerProfile {
  apiKey?: string;
  keyId?: string;
  keyName?: string;
  /** True when `quire login` created the key: `quire logout` then revokes it. */
  createdByLogin?: boolean;
  user?: SavedUser;
  savedAt?: string;
  /** A device login started with `quire login --no-wait`, finished by `quire login --resume`. */
  pending?: PendingLogin;
}

export interface ConfigFile {
  /** The server used when neither --url nor QUIRE_URL says otherwise (the last one logged in to). */
  defaultUrl?: string;
  /** Credentials per server base URL: a key is only ever sent to the server that issued it. */
  servers: Record<string, ServerProfile>;
}

/** $QUIRE_CONFIG_DIR, else $XDG_CONFIG_HOME/quire, else ~/.config/quire (%APPDATA%\quire on Windows). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.QUIRE_CONFIG_DIR) return path.resolve(env.QUIRE_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'quire');
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'quire');
  return path.join(os.homedir(), '.config', 'quire');
}

export const configPath = (env: NodeJS.ProcessEnv = process.env) => path.join(configDir(env), 'config.json');

/** Base URLs are compared in one spelling: no trailing slash, lower-case scheme and host. */
export function normalizeUrl(input: string): string | null {
  try {
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.search || url.hash || url.username || url.password) return null;
    return url.toString().replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/** Names of this machine: a login saved for one of them is the login of the others. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return host === 'localhost' || host === '127.0.0.1' || host === '::1';
}

/**
 * Which server a base URL names, for finding its saved login: `localhost`, `127.0.0.1` and
 * `[::1]` are one machine, and a default port is the same as none (http://x:80 is http://x).
 */
export function serverIdentity(url: string): string {
  const parsed = new URL(url);
  if (isLoopback(parsed.hostname)) parsed.hostname = '127.0.0.1';
  return parsed.toString().replace(/\/+$/, '');
}

/** The saved login for this server, under whichever spelling of its URL it was saved. */
export function findProfile(config: ConfigFile, url: string): { url: string; profile: ServerProfile } | undefined {
  if (config.servers[url]) return { url, profile: config.servers[url] };
  const identity = serverIdentity(url);
  const found = Object.keys(config.servers).find((saved) => normalizeUrl(saved) && serverIdentity(saved) === identity);
  return found ? { url: found, profile: config.servers[found] } : undefined;
}

/** Forgets every spelling of this server's saved login. */
export function removeProfile(config: ConfigFile, url: string): void {
  for (let found = findProfile(config, url); found; found = findProfile(config, url)) delete config.servers[found.url];
}

/** Saves this server's login under `url`, replacing the one saved under another spelling. */
export function setProfile(config: ConfigFile, url: string, profile: ServerProfile): void {
  removeProfile(config, url);
  config.servers[url] = profile;
}

/** The servers a key is saved for. */
export const loggedInServers = (config: ConfigFile) => Object.entries(config.servers).filter(([, profile]) => profile.apiKey);

export function loadConfig(file = configPath()): ConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text);
    return { defaultUrl: parsed.defaultUrl, servers: parsed.servers && typeof parsed.servers === 'object' ? parsed.servers : {} };
  } catch {
    throw new Error(`${file} is not valid JSON; fix or delete it.`);
  }
}

/** Written whole to a temporary file and renamed over the old one, readable by its owner only. */
export function saveConfig(config: ConfigFile, file = configPath()): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

export function updateConfig(change: (config: ConfigFile) => void, file = configPath()): ConfigFile {
  const config = loadConfig(file);
  change(config);
  saveConfig(config, file);
  return config;
}
