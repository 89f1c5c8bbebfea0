import type { Core } from '@strapi/strapi';
import { appSealingKey, open, seal } from '#kernel/secrets';

/** Seals and opens the secrets the server must read back, under keys derived from ENCRYPTION_KEY. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const keys = new Map<string, Buffer>();
  const keyFor = (purpose: string) => {
    let key = keys.get(purpose);
    if (!key) {
      // ENCRYPTION_KEY and the app's sealing salt, read by config/admin.ts.
      key = appSealingKey(strapi, purpose);
      keys.set(purpose, key);
    }
    return key;
  };
  return {
    sealInstanceKey: (key: string) => seal(keyFor('instance-key'), key),
    openInstanceKey: (token: string) => open(keyFor('instance-key'), token),
    sealSigningSecrets: (secrets: string[]) => seal(keyFor('signing-secrets'), JSON.stringify(secrets)),
    openSigningSecrets: (token: string | null | undefined): string[] =>
      token ? (JSON.parse(open(keyFor('signing-secrets'), token)) as string[]) : [],
    sealCallbackSecret: (secret: string) => seal(keyFor('callback-secret'), secret),
    openCallbackSecret: (token: string) => open(keyFor('callback-secret'), token),
  };
};
