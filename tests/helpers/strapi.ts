/**
 * Boots the compiled Strapi app in-process, once per test file, on a fresh database:
 * a temporary SQLite file, or a new PostgreSQL database when DATABASE_URL is set.
 * Requests go over HTTP through supertest.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import supertest from 'supertest';
import { serverEnv } from './server-env';
import { postgresDatabase, sqliteDatabase } from './processes';
import { ResponseValidator, validationMiddleware } from './openapi';

const appDir = path.resolve(__dirname, '..', '..');

export interface TestApp {
  strapi: any;
  http: supertest.Agent;
  close(): Promise<void>;
}

export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const baseDbUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const db = baseDbUrl ? await postgresDatabase(baseDbUrl, 'quire_test') : sqliteDatabase('quire-test');
  if (baseDbUrl) process.env.TEST_DATABASE_URL = baseDbUrl;

  Object.assign(process.env, {
    ...serverEnv(),
    NODE_ENV: 'test',
    PORT: '1337',
    LOG_LEVEL: 'warn',
    AUTH_RATELIMIT_MAX: '100000',
    ...db.env,
    ...env,
  });
  if (!baseDbUrl) delete process.env.DATABASE_URL;

  const { createStrapi } = require('@strapi/strapi');
  const strapi = await createStrapi({ appDir, distDir: path.join(appDir, 'dist'), autoReload: false, serveAdminPanel: false }).load();
  strapi.server.mount();
  // Every answer is checked against the server's own OpenAPI document (helpers/openapi.ts);
  // first in line, so it sees each answer as it leaves. Koa composes its middleware at the first request.
  let validator: ResponseValidator | undefined;
  const { serverDocument } = require(path.join(appDir, 'dist', 'src', 'kernel', 'openapi'));
  const { isOurPath } = require(path.join(appDir, 'dist', 'src', 'kernel', 'envelope'));
  strapi.server.app.middleware.unshift(
    validationMiddleware(() => (validator ??= new ResponseValidator(JSON.parse(serverDocument(strapi)), (p: string) => isOurPath(strapi, p)))),
  );
  const http = supertest.agent(strapi.server.httpServer);
  return {
    strapi,
    http,
    async close() {
      await strapi.destroy();
      await db.remove();
    },
  };
}

let counter = 0;

export interface TestUser {
  id: number;
  jwt: string;
  username: string;
  email: string;
}

/** Registers a users-permissions user through the stock route and returns its JWT. */
export async function registerUser(app: TestApp, label = 'user'): Promise<TestUser> {
  counter += 1;
  const username = `${label}${counter}_${randomBytes(3).toString('hex')}`;
  const email = `${username}@example.test`;
  const res = await app.http.post('/api/auth/local/register').send({ username, email, password: 'correct horse battery' });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.user.id, jwt: res.body.jwt, username, email };
}

/** Creates an API key for a user (through the API, with the user's JWT) and returns its secret. */
export async function createKey(app: TestApp, user: TestUser, name = 'test key', scope?: 'write' | 'suggest' | 'read'): Promise<string> {
  const res = await app.http.post('/api/keys').set('Authorization', `Bearer ${user.jwt}`).send(scope ? { name, scope } : { name });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.secret;
}

/**
 * A key like the one `quire login` saves (issued after the person approved the login with their
 * session): it may create and revoke the user's keys, which a key made with POST /api/keys may not.
 */
export async function createLoginKey(app: TestApp, user: TestUser, name = 'laptop'): Promise<string> {
  return (await app.strapi.plugin('quire').service('keys').create(user.id, { name, origin: 'login' })).secret;
}

export const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** Asserts the failure envelope and returns its error. */
export function expectFailure(res: { status: number; body: any }, status: number, code: string) {
  expect({ status: res.status, success: res.body?.success, code: res.body?.error?.code }).toEqual({ status, success: false, code });
  expect(typeof res.body.error.message).toBe('string');
  expect(Object.keys(res.body).sort()).toEqual(['error', 'success']);
  return res.body.error as { code: string; message: string; nextAction?: string };
}

export interface FailingWrite {
  table: string;
  event: 'INSERT' | 'UPDATE' | 'DELETE';
  /** An SQL condition on NEW (INSERT, UPDATE) or OLD (DELETE) rows; every row when absent. */
  when?: string;
}

/**
 * Runs `work` while the database refuses the writes described by `write` (a trigger raising an
 * error, on SQLite and PostgreSQL), to see that a failed multi-step write leaves nothing half done.
 */
export async function withFailingWrite(app: TestApp, write: FailingWrite, work: () => Promise<void>): Promise<void> {
  const knex = app.strapi.db.connection;
  const isPg = app.strapi.db.dialect.client === 'postgres';
  const name = `quire_test_fail_${write.table}`;
  if (isPg) {
    await knex.raw(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`);
    await knex.raw(
      `CREATE TRIGGER ${name} BEFORE ${write.event} ON ${write.table} FOR EACH ROW ${write.when ? `WHEN (${write.when}) ` : ''}EXECUTE FUNCTION ${name}()`,
    );
  } else {
    await knex.raw(`CREATE TRIGGER ${name} BEFORE ${write.event} ON ${write.table} ${write.when ? `WHEN ${write.when} ` : ''}BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
  }
  try {
    await work();
  } finally {
    await knex.raw(isPg ? `DROP TRIGGER ${name} ON ${write.table}` : `DROP TRIGGER ${name}`);
  }
}
