/**
 * Routes are declared, not just wired (kernel/routes/declare.ts). One file per idea:
 * - answers.ts: what a route answers besides the envelope (pages, documents, redirects) and the bodies it reads itself;
 * - declare.ts: the declaration of a route and the plugins' route groups;
 * - registry.ts: every declared route of the app;
 * - mount.ts: the guard and the routers that serve declared routes;
 * - dispatch.ts: the pipeline itself, transport-free (`dispatch`), and its in-process door (`invoke`);
 * - handle.ts: the Koa door: controllers, the request's input in, the envelope out;
 * - errors.ts: the error codes a route can answer;
 * - case-sensitive.ts: URLs are case-sensitive.
 */
export * from './answers';
export * from './declare';
export * from './registry';
export * from './mount';
export * from './dispatch';
export * from './handle';
export * from './errors';
export * from './case-sensitive';
