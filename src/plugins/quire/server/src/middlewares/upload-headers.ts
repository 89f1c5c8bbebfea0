/**
 * Headers of files served from /uploads (local provider). An uploaded SVG is a document: with
 * `sandbox` and no sources allowed, opening it directly runs nothing, while <img> rendering is
 * unchanged; nosniff stops browsers from reading any upload as another type.
 */
export const UPLOAD_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

import { posix } from 'node:path';

/**
 * The path the static server (koa-send) resolves a request to: percent-decoded, then with `.`
 * and `..` segments resolved. `/%75ploads/x.svg` and `/x/../uploads/x.svg` both serve
 * public/uploads/x.svg, so the decision must be taken on this path, not on the raw one. A path
 * that does not decode is treated as an upload (the static server refuses it anyway).
 */
export function servedPath(rawPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  return posix.normalize('/' + decoded.replace(/\\/g, '/'));
}

/** True when a request may be answered with a file of public/uploads (any case: some file systems ignore it). */
export function servesUpload(rawPath: string): boolean {
  const served = servedPath(rawPath);
  return served === null || served.toLowerCase().startsWith('/uploads/');
}

export default () => async (ctx, next) => {
  await next();
  if (!servesUpload(ctx.path)) return;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', UPLOAD_CSP);
};
