import type { Command } from 'commander';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { act, examples } from '../action';
import { USER_AGENT } from '../client';
import type { Context } from '../context';
import { CliError } from '../errors';

/**
 * `quire mcp`: Quire's MCP tools over stdio, for agents that start their servers as local
 * processes (Claude Desktop, Claude Code, Cursor). It is a bridge, not a second server: the
 * tools, their schemas and their answers are those of <url>/api/mcp, reached with the saved
 * login or QUIRE_API_KEY, so the two can never drift apart. stdout carries the protocol only.
 * With --org-key (the key as its value, or QUIRE_ORG_KEY), it bridges an organization's skills
 * instead: the tools POST /api/mcp gives that organization key.
 */
export function registerMcp(program: Command) {
  program
    .command('mcp')
    .description('Serve Quire\'s MCP tools over stdio for a local agent (Claude Desktop, Claude Code, Cursor); see docs/mcp.md')
    .option('--org-key [key]', 'Serve an organization\'s skills (its workflows) with its organization key (cko_...); without a value, the key is QUIRE_ORG_KEY')
    .addHelpText(
      'after',
      examples([
        'quire mcp',
        'claude mcp add quire -- quire mcp',
        'QUIRE_URL=https://quire.example.com QUIRE_API_KEY=qk_... quire mcp',
        'QUIRE_URL=https://quire.example.com QUIRE_ORG_KEY=cko_... quire mcp --org-key',
      ]),
    )
    .action(act(async (ctx, options: { orgKey?: string | true }) => serveStdio(ctx, options)));
}

/** The credential to bridge with: the organization key (--org-key) or the user's key or login. */
function credentialOf(ctx: Context, options: { orgKey?: string | true }): { headers: Record<string, string>; refused: [string, string] } {
  if (options.orgKey === undefined) {
    if (!ctx.key) throw new CliError('unauthenticated', `Not logged in to ${ctx.url}.`, 'Run "quire login" (or "quire login --key -"), or set QUIRE_API_KEY.');
    return {
      headers: { Authorization: `Bearer ${ctx.key}` },
      refused: [`${ctx.url} refused the ${ctx.keySource === 'QUIRE_API_KEY' ? 'key in QUIRE_API_KEY' : 'saved login'}.`, 'Run "quire login" again, or set QUIRE_API_KEY to a valid key.'],
    };
  }
  const fromFlag = options.orgKey !== true;
  const key = (fromFlag ? String(options.orgKey) : ctx.env.QUIRE_ORG_KEY ?? '').trim();
  if (!key) throw new CliError('unauthenticated', '--org-key needs an organization key.', 'Set QUIRE_ORG_KEY to the organization key (cko_...), or pass it as --org-key <key>.');
  return {
    headers: { 'X-Process-Manager-Key': key },
    refused: [`${ctx.url} refused the organization key ${fromFlag ? 'given to --org-key' : 'in QUIRE_ORG_KEY'}.`, 'Use a valid organization key (POST /api/organizations/{id}/keys creates one).'],
  };
}

async function serveStdio(ctx: Context, options: { orgKey?: string | true }): Promise<void> {
  const credential = credentialOf(ctx, options);
  const remote = new McpClient({ name: 'quire-cli', version: '1' });
  const endpoint = new URL(`${ctx.url}/api/mcp`);
  try {
    await remote.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { ...credential.headers, 'User-Agent': USER_AGENT } } }));
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    // The SDK reports a 401 by its status, or (without an auth provider) with our envelope in the message.
    if (/401|unauthori[sz]ed|"unauthenticated"/i.test(message)) throw new CliError('unauthenticated', ...credential.refused);
    throw new CliError('network-error', `Could not connect to ${endpoint} (${message}).`, 'Check that the server is running and that --url or QUIRE_URL points at it.');
  }
  const info = remote.getServerVersion();
  const server = new Server(
    { name: info?.name ?? 'quire', version: info?.version ?? '1' },
    { capabilities: { tools: {} }, instructions: remote.getInstructions() },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => remote.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => remote.callTool(request.params) as never);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The agent ends the session by closing our stdin.
    process.stdin.once('end', () => void transport.close());
  });
  await server.connect(transport);
  await closed;
  await remote.close();
}
