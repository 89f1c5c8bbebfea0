import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { table, when } from '../output';

export function registerKeys(program: Command) {
  const keys = program
    .command('keys')
    .description('List, create and revoke your API keys')
    .addHelpText('after', examples(['quire keys list', 'KEY=$(quire keys create --name ci)', 'quire keys revoke <id>']));

  keys
    .command('list')
    .description('List your API keys (never their secrets); * marks the one in use')
    .action(
      act(async (ctx) => {
        const res = await ctx.client.call('GET', '/keys');
        const list = res.envelope.data.keys as Array<{ id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null }>;
        ctx.out.result(res, () => {
          if (!list.length) return 'No API keys.';
          const current = (prefix: string) => (ctx.key?.startsWith(prefix) ? '*' : '');
          return table(
            ['', 'ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED'],
            list.map((k) => [current(k.prefix), k.id, k.name, k.prefix + '…', when(k.createdAt), when(k.lastUsedAt)]),
          );
        });
      }),
    );

  keys
    .command('create')
    .description('Create an API key; its secret is printed once, alone on stdout')
    .option('--name <name>', 'a name to recognise it by', 'API key')
    .addHelpText('after', examples(['quire keys create --name "CI runner"', 'KEY=$(quire keys create --name agent)']))
    .action(
      act(async (ctx, options: { name: string }) => {
        const res = await ctx.client.call('POST', '/keys', { body: { name: options.name } });
        const { key, secret } = res.envelope.data;
        if (!ctx.out.json) ctx.out.info(`Created key "${key.name}" (id ${key.id}). This is the only time its secret is shown:`);
        ctx.out.result(res, () => secret);
      }),
    );

  keys
    .command('revoke <id>')
    .description('Revoke an API key at once (its id from "quire keys list")')
    .action(
      act(async (ctx, id: string) => {
        const res = await ctx.client.call('DELETE', `/keys/${seg(id)}`);
        const saved = ctx.config.servers[ctx.url];
        if (!ctx.out.json && saved?.keyId === id && ctx.keySource === 'saved login') {
          ctx.out.info('That was the key of your saved login: run "quire login" again.');
        }
        ctx.out.result(res, () => `Revoked key ${id}.`);
      }),
    );
}
