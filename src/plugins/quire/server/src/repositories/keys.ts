/**
 * quire_api_keys: the API keys of users.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { tableName } from '../../../../../kernel/db';

export const KEYS_TABLE = 'quire_api_keys';

export function keyRepository(strapi: Core.Strapi) {
  const keys = () => tableName(strapi, KEYS_TABLE);
  return {
    /** A key's name, or undefined. */
    async nameOf(k: Knex, keyId: number): Promise<string | undefined> {
      return (await k(keys()).where({ id: keyId }).first('name'))?.name;
    },
  };
}
