/**
 * The declared stages of quire's routes (kernel/routes `PrepareStage` before parsing,
 * `AroundStage` around the handler), over HTTP and MCP alike.
 */
import { Reply, type AroundStage, type PrepareStage } from '#kernel/routes';
import { writeContext, type WriteContext } from '../services/write-context';
import { getService } from '../services/get-service';

/**
 * `/api/articles/:id...`: a shortened article id (a unique prefix among the caller's articles)
 * is expanded once, for the caller, before the route's schemas and handler see it. Admin routes
 * take full ids (an admin sees every user's articles, where a prefix is ambiguous).
 */
export const fullArticleId: PrepareStage = {
  name: 'a short article id becomes the full one',
  async run(params, caller, strapi) {
    if (typeof params.id === 'string' && caller?.kind === 'user') params.id = await getService(strapi, 'articleIds').fullId(caller.userId, params.id);
  },
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

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

/**
 * An article write's context (CONTRACT 23; services/write-context.ts): the writer's reason
 * (`reason` in the body, else the `Quire-Reason` header) and run (`Quire-Run`) for the change set
 * the write records, and the `changeSet` it recorded, added to the answer's data. The route's
 * schemas have checked both (a reason over 500 characters is 400 before anything runs).
 */
export const writeContextStage: AroundStage = {
  name: 'the write records why, in which run, and answers its change set',
  async run(input, next, raw) {
    // The body as sent: a route's schema may leave `reason` out of what its handler sees (it has checked it).
    const body = raw.body as Record<string, unknown> | undefined;
    const context: WriteContext = {
      reason: text(body && typeof body === 'object' ? body.reason : undefined) ?? headerText(input.headers['Quire-Reason']) ?? null,
      run: headerText(input.headers['Quire-Run']) ?? null,
    };
    const result = await writeContext.run(context, next);
    const data = result instanceof Reply ? result.data : result;
    if (context.changeSet && data && typeof data === 'object' && !Array.isArray(data)) (data as Record<string, unknown>).changeSet = context.changeSet;
    return result;
  },
};
