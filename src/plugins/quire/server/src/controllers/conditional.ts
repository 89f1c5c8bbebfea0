/**
 * What the article API's controllers read of conditional requests (CONTRACT section 10), and
 * who a caller is (for history: services/actors actorOf; for notes: authorOf). Helpers, not a
 * controller: the controllers share them instead of importing one another.
 */
import type { Core } from '@strapi/strapi';
import type { UserCaller } from '../../../../../contracts/credentials';
import { notModified, parseIfMatch } from '#kernel/conditional';
import { notModifiedReply, reply } from '#kernel/routes';
import type { Actor } from '../services/edit-types';
import { getService } from '../services/get-service';
import { adminDisplayName } from '../../../shared/display-name';

/** An If-Match header's precondition (undefined without one; 400 when malformed). */
export const precondition = (ifMatch: string | undefined) => parseIfMatch(ifMatch);

/** A GET's answer: 304 when If-None-Match names the current ETag, else the data with its ETag. */
export function tagged<T>(ifNoneMatch: string | undefined, data: T, etag: string) {
  if (notModified(ifNoneMatch, etag)) return notModifiedReply(etag);
  return reply(200, data, { ETag: etag });
}

/** Notes written with an API key or an OAuth token are the agent's; with a JWT or the session, the person's. */
export const authorOf = (caller: UserCaller) => (caller.via === 'session' ? 'human' : 'agent');

/**
 * The credential a suggestion is counted against (its pending ones are capped): the API key, an
 * OAuth client acting for the person, or the person's own session.
 */
export function credentialOf(caller: UserCaller): string {
  if (caller.credential === 'api-key' && caller.keyId !== undefined) return `key:${caller.keyId}`;
  if (caller.credential === 'oauth') return `oauth:${caller.userId}:${(caller.clientName ?? '').slice(0, 200)}`;
  return `user:${caller.userId}`;
}

export const actorOf = (strapi: Core.Strapi, caller: UserCaller): Promise<Actor> => getService(strapi, 'actors').actorOf(caller);

/** The admin on an admin route, as revisions, the trash and events name them (`by.kind` editor). */
export function editorOf(ctx): { kind: 'editor'; name: string } {
  return { kind: 'editor', name: adminDisplayName(ctx.state.user) };
}
