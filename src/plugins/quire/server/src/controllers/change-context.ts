/**
 * The write context of an article request (services/write-context.ts): the writer's reason
 * (`reason` in the body, else the `Quire-Reason` header) and run (`Quire-Run`) for the change
 * set the write records, and the `changeSet` it recorded, added to the answer's data. The
 * route's own schemas check both (a reason over 500 characters is 400 before anything runs);
 * here they are only read. Reads (GET) pass through untouched.
 */
import { writeContext, type WriteContext } from '../services/write-context';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : Array.isArray(value) ? text(value[0]) : undefined);

/** A header's text: percent-encoded UTF-8 (what the CLI sends for characters a header cannot carry) decoded, anything else as it is. */
function headerText(value: unknown): string | undefined {
  const raw = text(value);
  if (raw === undefined || !/%[0-9A-Fa-f]{2}/.test(raw)) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function withWriteContext(ctx, handle: () => Promise<void>): Promise<void> {
  if (ctx.method === 'GET' || ctx.request?.method === 'GET') return handle();
  const headers = ctx.request?.headers ?? {};
  const body = ctx.request?.body;
  const context: WriteContext = {
    reason: text(body && typeof body === 'object' ? (body as Record<string, unknown>).reason : undefined) ?? headerText(headers['quire-reason']) ?? null,
    run: text(headers['quire-run']) ?? null,
  };
  await writeContext.run(context, handle);
  const envelope = ctx.body as { success?: boolean; data?: unknown } | undefined;
  if (context.changeSet && envelope?.success === true && envelope.data && typeof envelope.data === 'object' && !Array.isArray(envelope.data)) {
    (envelope.data as Record<string, unknown>).changeSet = context.changeSet;
  }
}
