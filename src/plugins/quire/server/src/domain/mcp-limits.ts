/** How much one POST /api/mcp may ask for: its route declaration documents them, mcp/server.ts applies them (mcp/limits.ts). */

/** JSON-RPC batches: the most messages one POST may carry (where the protocol has batches at all). */
export const MAX_BATCH_MESSAGES = 10;
/** The first protocol version without JSON-RPC batching (2025-03-26 had it; 2025-06-18 removed it). */
export const FIRST_VERSION_WITHOUT_BATCHES = '2025-06-18';
