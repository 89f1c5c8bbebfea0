/**
 * Who a caller of the article API is, as revisions, suggestions and article events record it:
 * an agent (API key: the key's name; OAuth token: the client's name) or a person (JWT, session).
 * Admin editors are named by the admin routes (controllers/admin-canvas).
 */
import type { Core } from '@strapi/strapi';
import { keyRepository } from '../repositories/keys';
import type { Actor } from './edit-types';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const keys = keyRepository(strapi);
  const keyNames = new Map<number, { name: string; origin: string }>();

  /** Key names and origins never change (keys are created and revoked, not renamed): one lookup per key per process. */
  async function keyName(keyId: number, fallback: string): Promise<{ name: string; origin: string }> {
    const known = keyNames.get(keyId);
    if (known !== undefined) return known;
    const key = (await keys.nameOf(keyId)) ?? { name: fallback, origin: 'api' };
    if (keyNames.size > 10_000) keyNames.clear();
    keyNames.set(keyId, key);
    return key;
  }

  return {
    async actorOf(caller: { credential: string; keyId?: number; clientName?: string; user: { username: string } }): Promise<Actor> {
      if (caller.credential === 'api-key' && caller.keyId !== undefined) {
        const key = await keyName(caller.keyId, caller.user.username);
        // A key from `quire login` is a person's, approved in their browser: named as that person, with the client.
        if (key.origin === 'login') return { kind: 'human', name: `${caller.user.username} (${key.name})` };
        return { kind: 'agent', name: key.name };
      }
      // An OAuth token acts for the client the person connected (CONTRACT 16): the revision names it.
      if (caller.credential === 'oauth') return { kind: 'agent', name: caller.clientName ?? caller.user.username };
      if (caller.credential === 'api-key') return { kind: 'agent', name: caller.user.username };
      return { kind: 'human', name: caller.user.username };
    },
  };
};
