/**
 * Headers of files served from /uploads (local provider). An uploaded SVG is a document: with
 * `sandbox` and no sources allowed, opening it directly runs nothing, while <img> rendering is
 * unchanged; nosniff stops browsers from reading any upload as another type.
 */
export const UPLOAD_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

export default () => async (ctx, next) => {
  await next();
  if (!ctx.path.startsWith('/uploads/')) return;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', UPLOAD_CSP);
};
