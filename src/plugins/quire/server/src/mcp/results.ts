/** A tool's failure as MCP answers it: what the article tools and the skills share (mcp/server.ts, mcp/skills.ts). */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface ToolError {
  code: string;
  message: string;
  nextAction?: string;
}

/** A tool error: the envelope's error as text and as structured content. */
export const toolError = (error: ToolError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: [`${error.code}: ${error.message}`, error.nextAction && `Next: ${error.nextAction}`].filter(Boolean).join('\n') }],
  // Exactly the envelope's three fields: the tools' output schemas declare this shape (tools.ts).
  structuredContent: { error: { code: error.code, message: error.message, ...(error.nextAction ? { nextAction: error.nextAction } : {}) } },
});
