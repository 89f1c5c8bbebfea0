/**
 * Drives the CLI login approval page over HTTP the way a browser does: a cookie jar, the CSRF
 * token from each form, form-encoded posts.
 */
import net from 'node:net';
import supertest from 'supertest';
import { startApp, type TestApp, type TestUser } from './strapi';

export const PASSWORD = 'correct horse battery';

export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in page:\n${html}`);
  return match[1];
}

/** A fresh browser-like agent (its own cookie jar). */
export const browser = (app: TestApp) => supertest.agent(app.strapi.server.httpServer);

/** Signs in on the approval page; returns the agent holding the quire_session cookie. */
export async function signIn(app: TestApp, user: Pick<TestUser, 'username'>, code = '', password = PASSWORD) {
  const agent = browser(app);
  const page = await agent.get('/cli/login' + (code ? `?code=${encodeURIComponent(code)}` : ''));
  const res = await agent
    .post('/cli/login/session')
    .type('form')
    .send({ csrf: csrfOf(page.text), identifier: user.username, password, code });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}\n${res.text}`);
  return agent;
}

/** Signs in, opens the code, and approves (or denies) it; returns the decision page. */
export async function decideLogin(app: TestApp, user: Pick<TestUser, 'username'>, userCode: string, decision: 'approve' | 'deny' = 'approve', password = PASSWORD) {
  const agent = await signIn(app, user, userCode, password);
  const confirm = await agent.get(`/cli/login?code=${encodeURIComponent(userCode)}`);
  if (confirm.status !== 200) throw new Error(`confirm page: ${confirm.status}\n${confirm.text}`);
  return agent.post('/cli/login/decision').type('form').send({ csrf: csrfOf(confirm.text), code: userCode, decision });
}

/** A port that was free a moment ago, for a server whose PUBLIC_URL must be known before it boots. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Makes the booted app listen on a real port (for a browser or a CLI subprocess). */
export async function listen(app: TestApp, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = app.strapi.server.httpServer;
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

/** Boots the app listening on a real port, with PUBLIC_URL naming it (CLI subprocesses, the browser). */
export async function startListeningApp(env: Record<string, string> = {}): Promise<{ app: TestApp; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await startApp({ PUBLIC_URL: base, ...env });
  await listen(app, port);
  return { app, base };
}
