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
 */
export function registerMcp(program: Command) {
  program
    .command('mcp')
    .description('Serve Quire\'s MCP tools over stdio for a local agent (Claude Desktop, Claude Code, Cursor); see docs/mcp.md')
    .addHelpText('after', examples(['quire mcp', 'claude mcp add quire -- quire mcp', 'QUIRE_URL=https://quire.example.com QUIRE_API_KEY=qk_... quire mcp']))
    .action(act(async (ctx) => serveStdio(ctx)));
}

async function serveStdio(ctx: Context): Promise<void> {
  if (!ctx.key) throw new CliError('unauthenticated', `Not logged in to ${ctx.url}.`, 'Run "quire login" (or "quire login --key -"), or set QUIRE_API_KEY.');
  const remote = new McpClient({ name: 'quire-cli', version: '1' });
  const endpoint = new URL(`${ctx.url}/api/mcp`);
  try {
    await remote.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${ctx.key}`, 'User-Agent': USER_AGENT } } }));
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (/401|unauthori[sz]ed/i.test(message)) {
      throw new CliError('unauthenticated', `${ctx.url} refused the ${ctx.keySource === 'QUIRE_API_KEY' ? 'key in QUIRE_API_KEY' : 'saved login'}.`, 'Run "quire login" again, or set QUIRE_API_KEY to a valid key.');
    }
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
