/**
 * Presence of an agent that created an article (issue 31 point 6): it wrote to the article, so
 * it is present for 60 s, but it is not at work in the first section (section null) until it
 * writes a section; then it is shown in that one.
 */
import { bearer, createKey, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let agentKey: string;

beforeAll(async () => {
  app = await startApp();
  agentKey = await createKey(app, await registerUser(app, 'ada'), 'drafter');
});
afterAll(() => app?.close());

const presence = async (id: string) => {
  const res = await app.http.get(`/api/articles/${id}/presence`).set(bearer(agentKey));
  expect(res.status).toBe(200);
  return res.body.data.present as Array<{ kind: string; name: string; section: string | null }>;
};

it('an agent that only created the article is present, in no section; after a section write, in that section', async () => {
  const made = await app.http.post('/api/articles').set(bearer(agentKey)).send({ title: 'Fresh', markdown: '# One\n\nFirst.\n\n# Two\n\nSecond.' });
  expect(made.status).toBe(201);
  const id = made.body.data.article.id;
  const [one, two] = made.body.data.outline.map((entry) => entry.anchor);
  // Presence learns of writes from article events, which may arrive a moment after the answer.
  const until = async (check: (present: Awaited<ReturnType<typeof presence>>) => boolean) => {
    for (let i = 0; i < 50; i += 1) {
      const present = await presence(id);
      if (check(present)) return present;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return presence(id);
  };
  const first = await until((present) => present.length > 0);
  expect(first).toEqual([expect.objectContaining({ kind: 'agent', name: 'drafter', section: null })]);
  expect(first.map((entry) => entry.section)).not.toContain(one);

  expect((await app.http.patch(`/api/articles/${id}/sections/${two}`).set(bearer(agentKey)).send({ markdown: '# Two\n\nSecond, again.' })).status).toBe(200);
  const after = await until((present) => present.some((entry) => entry.section === two));
  expect(after).toEqual([expect.objectContaining({ kind: 'agent', name: 'drafter', section: two })]);
});
