/**
 * The API describes itself (CONTRACT 15). One file per idea:
 * - schema-writer.ts: zod schemas as JSON Schema components;
 * - document.ts: the OpenAPI 3.1 document of the declared routes;
 * - serve.ts: GET /api/openapi.json and the reference page GET /api/docs.
 */
export * from './schema-writer';
export * from './document';
export * from './serve';
