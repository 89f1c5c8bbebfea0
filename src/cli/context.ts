import type { Command } from 'commander';
import { Client } from './client';
import { DEFAULT_URL, configPath, loadConfig, normalizeUrl, type ConfigFile } from './config';
import { usage } from './errors';
import { Output } from './output';

export interface GlobalOptions {
  url?: string;
  json?: boolean;
}

/** Everything a command needs: where the server is, which key to send, and how to print. */
export interface Context {
  url: string;
  key?: string;
  keySource: 'QUIRE_API_KEY' | 'saved login' | 'none';
  configFile: string;
  config: ConfigFile;
  out: Output;
  client: Client;
  env: NodeJS.ProcessEnv;
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
  const saved = config.servers[url]?.apiKey;
  const key = envKey || saved;
  return {
    url,
    key,
    keySource: envKey ? 'QUIRE_API_KEY' : saved ? 'saved login' : 'none',
    configFile,
    config,
    out,
    client: new Client(url, key),
    env,
  };
}
