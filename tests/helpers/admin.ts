/**
 * Admin users (the panel's editors) for API and browser tests: created programmatically with
 * one of Strapi's default roles, signed in through the admin's own login route.
 */
import { randomBytes } from 'node:crypto';
import type { TestApp } from './strapi';

/** Meets Strapi's admin password rules (8+ characters, lower and upper case, a digit). */
export const ADMIN_PASSWORD = 'Quire-admin-2026';

export type AdminRole = 'strapi-super-admin' | 'strapi-editor' | 'strapi-author';

export interface TestAdmin {
  id: number;
  email: string;
  password: string;
  firstname: string;
}

let counter = 0;

/** Creates an active admin holding `role` (Super Admin by default), as Strapi's own user service does. */
export async function createAdmin(app: TestApp, role: AdminRole = 'strapi-super-admin', label = 'admin'): Promise<TestAdmin> {
  counter += 1;
  const email = `${label}${counter}_${randomBytes(3).toString('hex')}@example.test`;
  const { id: roleId } = await app.strapi.db.query('admin::role').findOne({ where: { code: role }, select: ['id'] });
  const firstname = `${label[0].toUpperCase()}${label.slice(1)}`;
  const user = await app.strapi.service('admin::user').create({
    email,
    firstname,
    lastname: 'Tester',
    password: ADMIN_PASSWORD,
    isActive: true,
    registrationToken: null,
    roles: [roleId],
  });
  return { id: user.id, email, password: ADMIN_PASSWORD, firstname };
}

/** Signs in through `POST /admin/login` and returns the access token (send it as a Bearer). */
export async function adminToken(app: TestApp, admin: { email: string; password: string }): Promise<string> {
  const res = await app.http.post('/admin/login').send({ email: admin.email, password: admin.password });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

export const adminBearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Wraps `stream.write` to also collect what is written; returns the undo. */
function tap(stream: { write: (...args: any[]) => boolean }, chunks: string[]): () => void {
  const write = stream.write;
  stream.write = (chunk: unknown, ...rest: unknown[]) => {
    chunks.push(String(chunk));
    return write.call(stream, chunk, ...rest);
  };
  return () => {
    stream.write = write;
  };
}

/**
 * Runs `work` while collecting Strapi's log. Its console transport writes to `console._stdout`:
 * the process's stdout when Jest runs in band, Jest's own console stream in a worker.
 */
export async function captureLog<T>(work: () => Promise<T>): Promise<{ result: T; output: string }> {
  const chunks: string[] = [];
  const consoleStream = (console as unknown as { _stdout?: { write: (...args: any[]) => boolean } })._stdout;
  const undo = [tap(process.stdout, chunks), ...(consoleStream && consoleStream !== process.stdout ? [tap(consoleStream, chunks)] : [])];
  try {
    return { result: await work(), output: chunks.join('') };
  } finally {
    undo.forEach((restore) => restore());
  }
}

/** The first-admin link the server printed (`.../admin/auth/register-admin?setupToken=...`), if any. */
export function setupLinkIn(output: string): { url: string; token: string } | null {
  const match = /(https?:\/\/\S+\/admin\/auth\/register-admin\?setupToken=([\w-]+))/.exec(output);
  return match ? { url: match[1], token: match[2] } : null;
}
