/**
 * The live channel's ports (live/ports.ts) on Strapi: admin sessions and Quire's RBAC actions
 * for access, the stored article (services/live-state) and article events (services/events).
 */
import type { Core } from '@strapi/strapi';
import { QUIRE_ACTIONS } from '../permissions';
import { liveRepository } from '../repositories/live';
import { getService } from '../services/get-service';
import { refusal, type LiveAccess, type LiveContext, type LiveEvents, type LiveStore } from './ports';

export function strapiAccess(strapi: Core.Strapi): LiveAccess {
  const repository = liveRepository(strapi);
  const manager = () => (strapi as any).sessionManager?.('admin');

  /** The admin's user row and what their roles allow now (null: gone or not active). */
  async function abilityOf(adminId: number) {
    const user = await repository.adminUser(adminId);
    if (!user || user.isActive !== true || user.blocked === true) return null;
    const ability = await strapi.service('admin::permission').engine.generateUserAbility(user);
    return { user, canRead: ability.can(QUIRE_ACTIONS.read), canEdit: ability.can(QUIRE_ACTIONS.edit) };
  }

  return {
    async authenticate(token: string): Promise<LiveContext> {
      if (!token || !manager()) throw refusal('Sign in to the admin panel to open the live canvas.');
      const result = manager().validateAccessToken(token);
      if (!result?.isValid) throw refusal('Your admin session has expired: sign in again.');
      if (!(await manager().isSessionActive(result.payload.sessionId))) throw refusal('Your admin session has ended: sign in again.');
      const found = await abilityOf(Number(result.payload.userId));
      if (!found) throw refusal('Your admin account is not active.');
      if (!found.canRead) throw refusal('Your role may not read Quire articles (Settings > Roles > Plugins > Quire > Read articles).');
      const { user } = found;
      const name = [user.firstname, user.lastname].filter(Boolean).join(' ') || user.username || user.email;
      return { adminId: Number(user.id), name, canEdit: found.canEdit, sessionId: result.payload.sessionId };
    },
    async recheck(context: LiveContext) {
      if (context.sessionId && !(await manager()?.isSessionActive(context.sessionId))) return 'none';
      const found = await abilityOf(context.adminId);
      if (!found || !found.canRead) return 'none';
      return found.canEdit ? 'edit' : 'read';
    },
    async exists(articleId: string) {
      return !!(await repository.article(articleId));
    },
  };
}

export function strapiStore(strapi: Core.Strapi, options: { coalesceSeconds: number }): LiveStore {
  const state = () => getService(strapi, 'liveState');
  return {
    load: (articleId) => state().load(articleId),
    stored: (articleId, after) => state().stored(articleId, after),
    store: (articleId, typed) => state().store(articleId, typed, { coalesceSeconds: options.coalesceSeconds }),
    keepInTrash: (articleId, sectionId, html) => state().keepInTrash(articleId, sectionId, html),
  };
}

export function strapiEvents(strapi: Core.Strapi): LiveEvents {
  const events = () => getService(strapi, 'events');
  return {
    subscribe: (listener) => events().subscribe(listener),
    settled: () => events().settled(),
    recentWriters: (articleId) => getService(strapi, 'live').recentWriters(articleId),
  };
}
