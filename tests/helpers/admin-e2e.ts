/**
 * The harness of the admin panel's browser tests (tests/e2e/README.md). One call per test file:
 *
 *   const suite = adminSuite();
 *   it('shows the articles', () => suite.withPage(async (page) => {
 *     await page.goto(suite.url('/admin/plugins/quire'));
 *     ...
 *   }));
 *
 * `adminSuite()` registers the file's beforeAll/afterAll: a Strapi server listening on a real
 * port with the admin panel served from dist/build, a Super Admin created at boot (from
 * ADMIN_EMAIL/ADMIN_PASSWORD) and signed in once through the real login form (guided tour
 * closed), and a connection to the shared Chromium. `withPage` gives each test a fresh context holding that sign-in, keeps a
 * screenshot when the test fails, and checks that the page saw no script error or 5xx.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import { ADMIN_PASSWORD, createAdmin, type AdminRole, type TestAdmin } from './admin';
import { connectBrowser, keepScreenshotOnFailure, newTrackedPage } from './browser';
import { startListeningApp } from './cli-login';
import type { TestApp } from './strapi';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

export interface AdminSuite {
  readonly app: TestApp;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  readonly browser: Browser;
  /** The Super Admin every `withPage` is signed in as, unless told otherwise. */
  readonly superAdmin: TestAdmin;
  /** An absolute URL of the server. */
  url(path: string): string;
  /** Creates another admin holding `role` (e.g. 'strapi-editor'). */
  createAdmin(role: AdminRole, label?: string): Promise<TestAdmin>;
  /**
   * Runs `work` in a new page signed in as `as` (the Super Admin by default; null: signed out),
   * at laptop size unless `viewport` says otherwise.
   */
  withPage(work: (page: Page) => Promise<void>, options?: { as?: TestAdmin | null; viewport?: { width: number; height: number }; allowProblems?: boolean }): Promise<void>;
}

/** Signs in through the admin's login form and closes the guided tour; the page lands on the home page. */
export async function signInThroughForm(page: Page, base: string, admin: { email: string; password: string }) {
  await page.goto(`${base}/admin/auth/login`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password*', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${base}/admin`);
  await closeGuidedTour(page);
}

/** Closes the home page's guided tour (remembered in the browser's storage) when it shows. */
export async function closeGuidedTour(page: Page) {
  // Quire's admin marks Strapi's tour skipped before the panel renders (admin/src/guided-tour.ts): nothing to wait for.
  const skipped = await page.evaluate(() => JSON.parse(window.localStorage.getItem('STRAPI_GUIDED_TOUR') ?? 'null')?.enabled === false);
  if (skipped) return;
  const close = page.getByRole('button', { name: 'Close guided tour' });
  try {
    await close.waitFor({ state: 'visible', timeout: 10_000 });
  } catch {
    return; // already closed for this admin
  }
  await close.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await close.waitFor({ state: 'detached' });
}

export function adminSuite(options: { env?: Record<string, string> } = {}): AdminSuite {
  const state = {} as { app: TestApp; base: string; browser: Browser; superAdmin: TestAdmin };
  const signedIn = new Map<number, StorageState>();

  async function storageStateOf(admin: TestAdmin): Promise<StorageState> {
    const cached = signedIn.get(admin.id);
    if (cached) return cached;
    const { page, context } = await newTrackedPage(state.browser);
    try {
      await keepScreenshotOnFailure(page, () => signInThroughForm(page, state.base, admin));
      const storage = await context.storageState();
      signedIn.set(admin.id, storage);
      return storage;
    } finally {
      await context.close();
    }
  }

  beforeAll(async () => {
    // The Super Admin is made at boot from ADMIN_EMAIL/ADMIN_PASSWORD, as operators do.
    const email = `chief_${randomBytes(3).toString('hex')}@example.test`;
    const started = await startListeningApp({
      SERVE_ADMIN_PANEL: 'true',
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD,
      ADMIN_FIRSTNAME: 'Chief',
      ...options.env,
    });
    state.app = started.app;
    state.base = started.base;
    state.browser = await connectBrowser();
    const { id } = await state.app.strapi.db.query('admin::user').findOne({ where: { email }, select: ['id'] });
    state.superAdmin = { id, email, password: ADMIN_PASSWORD, firstname: 'Chief' };
    await storageStateOf(state.superAdmin);
  });

  afterAll(async () => {
    await state.browser?.close();
    await state.app?.close();
  });

  return {
    get app() {
      return state.app;
    },
    get base() {
      return state.base;
    },
    get browser() {
      return state.browser;
    },
    get superAdmin() {
      return state.superAdmin;
    },
    url: (path: string) => `${state.base}${path}`,
    createAdmin: (role, label) => createAdmin(state.app, role, label),
    async withPage(work, { as, viewport, allowProblems = false } = {}) {
      const admin = as === undefined ? state.superAdmin : as;
      const storageState = admin ? await storageStateOf(admin) : undefined;
      const { page, context, problems } = await newTrackedPage(state.browser, { storageState, ...(viewport && { viewport }) });
      try {
        await keepScreenshotOnFailure(page, async () => {
          await work(page);
          if (!allowProblems) expect(problems).toEqual([]);
        });
      } finally {
        await context.close();
      }
    },
  };
}
