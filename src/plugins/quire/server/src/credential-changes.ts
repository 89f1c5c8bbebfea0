/**
 * What ends when a person's credentials change. A password change (users-permissions'
 * change-password and reset-password, the admin panel, any code that updates the password) or
 * an admin blocking the user ends everything signed in with the old state of the account:
 * - every web session of the user (services/web-sessions), and
 * - every OAuth grant of the user, with its codes, access and refresh tokens (services/oauth):
 *   an agent connected with the old password would otherwise keep refreshing its tokens forever.
 * API keys stay: they are credentials the person made deliberately and revokes one by one
 * (docs/operations.md, Security).
 *
 * One database lifecycle on the user model, so no route can change a password without it.
 */
import type { Core } from '@strapi/strapi';
import { userRepository } from './repositories/users';
import { getService } from './services/get-service';

const USERS = 'plugin::users-permissions.user';

/** Whether an update's data changes the password or blocks the user. */
export const endsSignIns = (data: Record<string, unknown> | undefined): boolean =>
  Boolean(data) && (data!.password !== undefined || data!.blocked === true);

export function subscribeCredentialChanges(strapi: Core.Strapi) {
  const endAllFor = async (userId: number) => {
    await getService(strapi, 'webSessions').endAllFor(userId);
    await getService(strapi, 'oauth').revokeAllFor(userId);
  };
  strapi.db.lifecycles.subscribe({
    models: [USERS],
    async afterUpdate(event: any) {
      if (!endsSignIns(event.params?.data)) return;
      const id = event.result?.id ?? event.params?.where?.id;
      if (id !== undefined) await endAllFor(Number(id));
    },
    // updateMany tells no ids afterwards: the users it is about to change are looked up before.
    async beforeUpdateMany(event: any) {
      if (!endsSignIns(event.params?.data)) return;
      event.state.quireUserIds = await userRepository(strapi).idsWhere(event.params.where);
    },
    async afterUpdateMany(event: any) {
      for (const id of (event.state?.quireUserIds as number[] | undefined) ?? []) await endAllFor(id);
    },
  });
}
