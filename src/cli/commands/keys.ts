import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import type { Context } from '../context';
import { CliError } from '../errors';
import { table, when } from '../output';
import { shortIds, type Data } from '../render';

/** Key ids are 24 characters; a shorter id is a prefix, resolved among the caller's keys. */
const KEY_ID_LENGTH = 24;
const MIN_PREFIX = 4;

/**
 * The full id of the caller's key that `given` names: the id itself, or a unique prefix (4+
 * characters) of one, like article ids. Prefixes are resolved here, from the list of keys.
 */
async function keyIdOf(ctx: Context, given: string): Promise<string> {
  if (given.length >= KEY_ID_LENGTH) return given;
  const keys = (await ctx.client.call<Data<'keyList'>>('GET', '/keys')).envelope.data.keys;
  const prefix = given.toLowerCase();
  const matches = given.length >= MIN_PREFIX ? keys.filter((k) => k.id.toLowerCase().startsWith(prefix)) : [];
  if (matches.length === 1) return matches[0].id;
  if (!matches.length) {
    const why = given.length < MIN_PREFIX ? ` (a shortened id needs at least ${MIN_PREFIX} characters)` : '';
    throw new CliError('not-found', `No API key of yours has the id "${given}"${why}.`, 'quire keys list');
  }
  const error = new CliError('invalid-argument', `The id "${given}" matches more than one of your keys.`, 'Use a longer anchor (more of the characters of the id you mean).');
  error.matches = matches.sort((a, b) => (a.id < b.id ? -1 : 1)).map((k) => `${k.id}  ${k.name}`);
  throw error;
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** --expires: an ISO time as it is, or a duration from now (30m, 12h, 7d) as an ISO time. */
export function expiryOf(value: string, now = Date.now()): string {
  const duration = /^(\d+)\s*([mhd])$/i.exec(value.trim());
  if (duration) return new Date(now + Number(duration[1]) * UNIT_MS[duration[2].toLowerCase()]).toISOString();
  return value;
}

export function registerKeys(program: Command) {
  const keys = program
    .command('keys')
    .description('List, create and revoke your API keys')
    .addHelpText('after', examples(['quire keys list', 'KEY=$(quire keys create --name ci)', 'quire keys revoke k1a2b3c4']));

  keys
    .command('list')
    .description('List your API keys (never their secrets); * marks the one in use')
    .addHelpText(
      'after',
      examples(['quire keys list', "quire keys list --json | jq -r '.data.keys[].id'"]) +
        '\nIDs are short: the first 8 characters (more when two would share them); quire keys revoke\ntakes any unique prefix of 4 characters or more.\n',
    )
    .action(
      act(async (ctx) => {
        const res = await ctx.client.call<Data<'keyList'>>('GET', '/keys');
        const list = res.envelope.data.keys;
        ctx.out.result(res, () => {
          if (!list.length) return 'No API keys.';
          const current = (prefix: string) => (ctx.key?.startsWith(prefix) ? '*' : '');
          const short = shortIds(list.map((k) => k.id));
          return table(
            ['', 'ID', 'NAME', 'PREFIX', 'SCOPE', 'EXPIRES', 'CREATED', 'LAST USED'],
            list.map((k) => [current(k.prefix), short.get(k.id), k.name, k.prefix + '…', k.scope, k.expiresAt ? when(k.expiresAt) : 'never', when(k.createdAt), when(k.lastUsedAt)]),
          );
        });
      }),
    );

  keys
    .command('create')
    .description('Create an API key; its secret is printed once, alone on stdout')
    .option('--name <name>', 'a name to recognise it by', 'API key')
    .option('--scope <scope>', 'what it may do: write (default), suggest (read, suggest section edits) or read')
    .option('--expires <time>', 'when it stops working: an ISO time (2030-01-31T12:00:00Z) or a duration from now (30m, 12h, 7d)')
    .addHelpText(
      'after',
      examples([
        'quire keys create --name "CI runner"',
        'KEY=$(quire keys create --name agent)',
        'quire keys create --name reviewer --scope read --expires 7d',
        'quire keys create --name drafter --scope suggest --expires 2030-01-31T12:00:00Z',
      ]) + '\nKeys are created with your login ("quire login"); an API key from "keys create" cannot create keys.\n',
    )
    .action(
      act(async (ctx, options: { name: string; scope?: string; expires?: string }) => {
        const body: Record<string, string> = { name: options.name };
        if (options.scope !== undefined) body.scope = options.scope;
        if (options.expires !== undefined) body.expiresAt = expiryOf(options.expires);
        const res = await ctx.client.call<Data<'keyIssued'>>('POST', '/keys', { body });
        const { key, secret } = res.envelope.data;
        if (!ctx.out.json) {
          const expiry = key.expiresAt ? `, expires ${key.expiresAt}` : '';
          ctx.out.info(`Created key "${key.name}" (id ${key.id}, scope ${key.scope}${expiry}). This is the only time its secret is shown:`);
        }
        ctx.out.result(res, () => secret);
      }),
    );

  keys
    .command('revoke <id>')
    .description('Revoke an API key at once (its id, or the start of it, from "quire keys list")')
    .addHelpText('after', examples(['quire keys revoke k1a2b3c4', 'quire keys revoke k1a2b3c4d5e6f7g8h9i0j1k2']))
    .action(
      act(async (ctx, given: string) => {
        const id = await keyIdOf(ctx, given);
        const res = await ctx.client.call<Data<'keyRevoked'>>('DELETE', `/keys/${seg(id)}`);
        if (!ctx.out.json && ctx.profile?.keyId === id && ctx.keySource === 'saved login') {
          ctx.out.info('That was the key of your saved login: run quire login again.');
        }
        ctx.out.result(res, () => `Revoked key ${id}.`);
      }),
    );
}
