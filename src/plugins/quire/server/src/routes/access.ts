/**
 * Access rules of quire's routes beyond credentials, scope and role (kernel/routes `rules`):
 * declared on the route, checked by the pipeline after parsing, for HTTP and MCP alike.
 */
import type { UserCaller } from '../../../../../contracts/credentials';
import { permissionDenied } from '#kernel/errors';
import type { AccessRule } from '#kernel/routes';
import { mayManageKeys } from '../services/keys';

const KEYS_NEXT =
  'Create and revoke API keys with your login: a JWT (POST /api/auth/local), the browser session, or the key "quire login" saved (quire keys create ...).';

/** Creating keys is the person's (their login), not an agent's key or token. */
export const createsKeys: AccessRule = {
  name: 'your login manages your keys',
  check({ caller }) {
    if (!mayManageKeys(caller as UserCaller)) throw permissionDenied('An API key cannot create API keys.', KEYS_NEXT);
  },
};

/** Revoking any key is the person's; an agent's key may revoke only itself (log out). */
export const revokesKeys: AccessRule = {
  name: 'your login revokes any of your keys, a key only itself',
  check({ caller, params }) {
    if (!mayManageKeys(caller as UserCaller, String(params.id))) throw permissionDenied('An API key can revoke only itself.', KEYS_NEXT);
  },
};

/** Disconnecting apps is the person's, as managing keys is: not an agent's key or token. */
export const disconnectsApps: AccessRule = {
  name: 'your login disconnects apps',
  check({ caller }) {
    if (!mayManageKeys(caller as UserCaller)) {
      throw permissionDenied('Only your login can disconnect apps, not an API key or an OAuth token.', 'Use a JWT, the browser session, or the key "quire login" saved (quire grants revoke ...).');
    }
  },
};
