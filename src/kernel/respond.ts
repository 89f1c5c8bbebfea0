/** Writes the success envelope. */
export function ok(ctx, data: Record<string, unknown>, status = 200) {
  ctx.status = status;
  ctx.body = { success: true, data };
}
