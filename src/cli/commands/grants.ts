import type { Command } from 'commander';
import { act, examples } from '../action';
import { seg } from '../client';
import { table, when } from '../output';
import { shortIds, type Data } from '../render';
import { CliError } from '../errors';

/**
 * `quire grants`: the apps (MCP agents and other OAuth clients) a person connected to their
 * account, and disconnecting one (its grant and every token of it are revoked at once).
 */
export function registerGrants(program: Command) {
  const grants = program
    .command('grants')
    .description('List and revoke the apps connected to your account with OAuth (agents over MCP)')
    .addHelpText('after', examples(['quire grants list', 'quire grants revoke g1a2b3c4']));

  grants
    .command('list')
    .description('List the connected apps: their name, web site, access and last use')
    .addHelpText('after', examples(['quire grants list', "quire grants list --json | jq -r '.data.grants[].client.name'"]))
    .action(
      act(async (ctx) => {
        const res = await ctx.client.call<Data<'grantList'>>('GET', '/oauth/grants');
        const list = res.envelope.data.grants;
        ctx.out.result(res, () => {
          if (!list.length) return 'No connected apps.';
          const short = shortIds(list.map((g) => g.id));
          return table(
            ['ID', 'APP', 'WEB SITE', 'ACCESS', 'CONNECTED', 'LAST USED'],
            list.map((g) => [short.get(g.id), g.client.name, g.client.uri ?? '', g.scope, when(g.createdAt), when(g.lastUsedAt)]),
          );
        });
      }),
    );

  grants
    .command('revoke <id>')
    .description('Disconnect an app at once (its id, or the start of it, from "quire grants list")')
    .addHelpText('after', examples(['quire grants revoke g1a2b3c4']))
    .action(
      act(async (ctx, given: string) => {
        const list = (await ctx.client.call<Data<'grantList'>>('GET', '/oauth/grants')).envelope.data.grants;
        const matches = list.filter((g) => g.id.toLowerCase().startsWith(given.toLowerCase()));
        if (given.length < 4 || matches.length === 0) throw new CliError('not-found', `No connected app has the id "${given}".`, 'quire grants list');
        if (matches.length > 1) throw new CliError('invalid-argument', `The id "${given}" matches more than one connected app.`, 'Use a longer anchor (more of the characters of the id you mean).');
        const res = await ctx.client.call<Data<'grantRevoked'>>('DELETE', `/oauth/grants/${seg(matches[0].id)}`);
        ctx.out.result(res, () => `Disconnected ${matches[0].client.name} (${matches[0].id}).`);
      }),
    );
}
