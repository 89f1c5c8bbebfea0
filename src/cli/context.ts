import type { Command } from 'commander';
import { Client } from './client';
import { DEFAULT_URL, configPath, findProfile, loadConfig, loggedInServers, normalizeUrl, type ConfigFile, type ServerProfile } from './config';
import { CliError, usage } from './errors';
import { Output } from './output';

export interface GlobalOptions {
  url?: string;
  json?: boolean;
  reason?: string;
  run?: string;
}

/** Everything a command needs: where the server is, which key to send, and how to print. */
export interface Context {
  url: string;
  key?: string;
  keySource: 'QUIRE_API_KEY' | 'saved login' | 'none';
  configFile: string;
  config: ConfigFile;
  /** The saved login for this server (found under any spelling of its URL: see serverIdentity). */
  profile?: ServerProfile;
  out: Output;
  client: Client;
  env: NodeJS.ProcessEnv;
  /** The global --reason (a subcommand's own --reason, as `suggestions reject`'s, is read by the root's parser: commands fall back to this). */
  reason?: string;
}

/**
 * The server is --url, else QUIRE_URL, else the saved default, else http://127.0.0.1:1337.
 * The key is QUIRE_API_KEY, else the key saved for that very server (a saved key is never sent
 * to another one).
 */
export function contextOf(command: Command, env: NodeJS.ProcessEnv = process.env): Context {
  // The root's own options only: a subcommand may have an option of the same name.
  let root = command;
  while (root.parent) root = root.parent;
  const options = root.opts<GlobalOptions>();
  const out = new Output(Boolean(options.json));
  const configFile = configPath(env);
  const config = loadConfig(configFile);
  const given = options.url ?? env.QUIRE_URL ?? config.defaultUrl ?? DEFAULT_URL;
  const url = normalizeUrl(given);
  if (!url) throw usage(`"${given}" is not an http(s) base URL.`, 'Pass the server\'s base URL, e.g. --url https://quire.example.com');
  const envKey = env.QUIRE_API_KEY?.trim();
  const profile = findProfile(config, url)?.profile;
  const saved = profile?.apiKey;
  const key = envKey || saved;
  return {
    url,
    key,
    keySource: envKey ? 'QUIRE_API_KEY' : saved ? 'saved login' : 'none',
    configFile,
    config,
    profile,
    out,
    client: new Client(url, key, () => notLoggedIn(url, config), { reason: options.reason, run: options.run ?? (env.QUIRE_RUN?.trim() || undefined) }),
    env,
    reason: options.reason,
  };
}

/** Not logged in to this server: say so, and name the servers there is a login for. */
function notLoggedIn(url: string, config: ConfigFile): CliError {
  const others = loggedInServers(config).map(([saved, p]) => (p.user ? `${saved} (as ${p.user.username})` : saved));
  if (!others.length) {
    return new CliError('unauthenticated', `Not logged in to ${url}.`, 'Run "quire login" (or "quire login --key -"), or set QUIRE_API_KEY.');
  }
  const first = loggedInServers(config)[0][0];
  return new CliError(
    'unauthenticated',
    `Not logged in to ${url}. You are logged in to ${others.join(', ')}.`,
    `Run "quire login --url ${url}" to log in there, or pass --url ${first} (or set QUIRE_URL) to use the server you are logged in to.`,
  );
}
