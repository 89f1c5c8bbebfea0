/**
 * Issue 25 point 10: an article could collect unlimited pending suggestions. An article holds at
 * most QUIRE_SUGGESTIONS_PER_ARTICLE pending ones and a credential may have at most
 * QUIRE_SUGGESTIONS_PER_KEY across articles; past either, 429 `rate-limited` with Retry-After and
 * a nextAction, nothing filed. Deciding one makes room. (Small limits here; defaults 100 and 50.)
 */
import { client, newArticle, sectionsDoc, type Client } from '../helpers/articles';
import { createKey, expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let writer: Client;
let bots: Client[];

beforeAll(async () => {
  app = await startApp({ QUIRE_SUGGESTIONS_PER_ARTICLE: '3', QUIRE_SUGGESTIONS_PER_KEY: '4' });
  const alice = await registerUser(app, 'alice');
  writer = client(app, await createKey(app, alice, 'editor'));
  bots = [];
  for (const name of ['bot 1', 'bot 2', 'bot 3', 'bot 4']) bots.push(client(app, await createKey(app, alice, name, 'suggest')));
}, 180_000);
afterAll(() => app?.close());

const pending = async (articleId: string) => (await writer.get(`/api/articles/${articleId}/suggestions?status=pending`)).body.data.suggestions;

async function article() {
  const { article: a, outline } = await newArticle(writer, { title: 'T', markdown: sectionsDoc(2) });
  return { id: a.id, s1: outline[0].anchor };
}

const suggest = (c: Client, id: string, s1: string, text: string) => c.patch(`/api/articles/${id}/sections/${s1}`, { markdown: `## S1\n\n${text}` });

describe('pending suggestions per article', () => {
  it('past the limit a suggestion is 429 with Retry-After and a nextAction, on every way of suggesting; deciding one makes room', async () => {
    const { id, s1 } = await article();
    for (const [i, bot] of bots.slice(0, 3).entries()) expect((await suggest(bot, id, s1, `Try ${i}.`)).status).toBe(202);

    const refused = await suggest(bots[3], id, s1, 'One too many.');
    const error = expectFailure(refused, 429, 'rate-limited');
    expect(refused.headers['retry-after']).toBe('60');
    expect(error.message).toMatch(/already has 3 suggestions waiting for review/);
    expect(error.nextAction).toContain(`GET /api/articles/${id}/suggestions?status=pending`);
    expect(error.nextAction).toMatch(/accepts or rejects/);
    // The same for edits, POST sections and a writer's deliberate suggestion.
    expectFailure(await bots[3].post(`/api/articles/${id}/edits`, { ops: [{ op: 'insert', markdown: '## X' }] }), 429, 'rate-limited');
    expectFailure(await bots[3].post(`/api/articles/${id}/sections`, { markdown: '## X' }), 429, 'rate-limited');
    expectFailure(await writer.post(`/api/articles/${id}/suggestions`, { ops: [{ op: 'insert', markdown: '## X' }] }), 429, 'rate-limited');
    expect(await pending(id)).toHaveLength(3);
    expect((await writer.get(`/api/articles/${id}/suggestions`)).body.data.suggestions).toHaveLength(3);

    const [newest] = await pending(id);
    expect((await writer.post(`/api/articles/${id}/suggestions/${newest.anchor}/reject`, { reason: 'No.' })).status).toBe(200);
    expect((await suggest(bots[3], id, s1, 'Now there is room.')).status).toBe(202);
    // Another article is counted apart.
    const other = await article();
    expect((await suggest(bots[3], other.id, other.s1, 'Elsewhere.')).status).toBe(202);
  });

  it('suggestions made at once cannot all slip under the limit', async () => {
    const { id, s1 } = await article();
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => suggest(bots[i % 2], id, s1, `Racer ${i}.`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 202 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(3);
    expect((await pending(id)).length).toBeLessThanOrEqual(3);
    expect((await pending(id)).length).toBe(statuses.filter((s) => s === 202).length);
  });
});

describe('pending suggestions per credential', () => {
  it('one key may have a limited number pending across articles; other keys are not affected; accepting makes room', async () => {
    const bob = await registerUser(app, 'bob');
    const own = client(app, await createKey(app, bob, 'own'));
    const busy = client(app, await createKey(app, bob, 'busy bot', 'suggest'));
    const calm = client(app, await createKey(app, bob, 'calm bot', 'suggest'));
    const made: Array<{ id: string; anchor: string }> = [];
    for (let n = 0; n < 2; n += 1) {
      const { article: a, outline } = await newArticle(own, { title: `A${n}`, markdown: sectionsDoc(2) });
      for (const i of [0, 1]) {
        const res = await suggest(busy, a.id, outline[i].anchor, `Busy ${n}.${i}.`);
        expect(res.status).toBe(202);
        made.push({ id: a.id, anchor: res.body.data.suggestion.anchor });
      }
    }
    const { article: third, outline } = await newArticle(own, { title: 'A3', markdown: sectionsDoc(2) });
    const error = expectFailure(await suggest(busy, third.id, outline[0].anchor, 'Fifth.'), 429, 'rate-limited');
    expect(error.message).toMatch(/Your credential already has 4 suggestions waiting for review across your articles/);
    expect((await suggest(calm, third.id, outline[0].anchor, 'Calm.')).status).toBe(202);

    expect((await own.post(`/api/articles/${made[0].id}/suggestions/${made[0].anchor}/accept`)).status).toBe(200);
    expect((await suggest(busy, third.id, outline[1].anchor, 'Room again.')).status).toBe(202);
  });
});
