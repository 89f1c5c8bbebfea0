import { z } from 'zod';
import { createKeyInput } from '../schemas/inputs/keys';
import { keyIssued, keyList, keyRevoked, me } from '../schemas/responses';
import { createsKeys, revokesKeys } from './access';
import { route } from './route';

export const keyRoutes = route('keys', 'API keys', {
  list: {
    method: 'GET',
    path: '/api/keys',
    summary: 'List your API keys (never their secrets)',
    responses: { 200: keyList },
  },
  create: {
    method: 'POST',
    path: '/api/keys',
    summary: 'Create an API key',
    description:
      'The answer holds the key\'s secret, shown this once only. `scope` says what the key may do (write, suggest or read), `expiresAt` when it stops working. ' +
      'Keys are created with a login (JWT, session, or the key of `quire login`); another API key gets 403.',
    body: createKeyInput,
    rules: [createsKeys],
    responses: { 201: keyIssued },
  },
  revoke: {
    method: 'DELETE',
    path: '/api/keys/:id',
    summary: 'Revoke an API key (it fails at once)',
    description: 'With a login (JWT, session, or the key of `quire login`) any of your keys; another API key may revoke only itself.',
    params: z.object({ id: z.string().describe('The key\'s id.') }),
    rules: [revokesKeys],
    responses: { 200: keyRevoked },
  },
  me: {
    method: 'GET',
    path: '/api/auth/me',
    summary: 'Who am I: the user of the credential',
    responses: { 200: me },
  },
});
