/**
 * Search (CONTRACT section 13): in an article and across the caller's articles, literal and
 * case-insensitive, with counts and snippets, served by an index on both databases (a pg_trgm
 * GIN index; an FTS5 trigram table kept in step by triggers), never by scanning the sections.
 */
import path from 'node:path';
import { client, newArticle, type Client } from '../helpers/articles';
import { expectFailure, registerUser, startApp, type TestApp } from '../helpers/strapi';

let app: TestApp;
let ada: Client;
let bob: Client;
const isPg = () => app.strapi.db.dialect.client === 'postgres';

beforeAll(async () => {
  app = await startApp();
  ada = client(app, (await registerUser(app, 'ada')).jwt);
  bob = client(app, (await registerUser(app, 'bob')).jwt);
});
afterAll(() => app?.close());

const DOC = [
  '# Pricing',
  '',
  'We charge 100% of list, minus 5_percent for SCHOOLS.',
  '',
  '## Regex (.*) and [brackets]',
  '',
  'A line with a.b and a*b, back\\slash and "quotes"; Straße, ÄRGER and ärger.',
  '',
  '## Schools',
  '',
  'schools schools Schools: three times, and the heading is a fourth.',
].join('\n');

async function search(c: Client, articleId: string, q: string, extra = '') {
  return c.get(`/api/articles/${articleId}/search?q=${encodeURIComponent(q)}${extra}`);
}
const found = async (c: Client, articleId: string, q: string) => {
  const res = await search(c, articleId, q);
  expect(res.status).toBe(200);
  return res.body.data.matches as Array<{ anchor: string; level: number; title: string; count: number; snippets: string[] }>;
};

describe('search in an article', () => {
  let id: string;
  let outline: Array<{ anchor: string; title: string }>;
  beforeAll(async () => {
    ({
      article: { id },
      outline,
    } = await newArticle(ada, { title: 'Search me', markdown: DOC }));
  });

  it('finds sections in outline order, case-insensitively, with counts and snippets', async () => {
    const matches = await found(ada, id, 'schools');
    expect(matches.map((m) => m.title)).toEqual(['Pricing', 'Schools']);
    expect(matches[0]).toMatchObject({ anchor: outline[0].anchor, level: 1, count: 1 });
    expect(matches[1]).toMatchObject({ anchor: outline[2].anchor, level: 2, count: 4 });
    expect(matches[0].snippets).toEqual(['# Pricing We charge 100% of list, minus 5_percent for SCHOOLS.']);
    expect(matches[1].snippets.length).toBeGreaterThanOrEqual(1);
    expect(matches[1].snippets.length).toBeLessThanOrEqual(3);
    expect(matches[1].snippets[0]).toMatch(/Schools/);
  });

  it('matches %, _, and regular-expression characters literally', async () => {
    expect((await found(ada, id, '100%')).map((m) => m.title)).toEqual(['Pricing']);
    expect(await found(ada, id, '100%x')).toEqual([]);
    expect((await found(ada, id, '5_p')).map((m) => m.title)).toEqual(['Pricing']);
    // "_" and "%" would match any character in LIKE, "." and "*" in a regular expression.
    expect(await found(ada, id, 'e_c')).toEqual([]);
    expect(await found(ada, id, '1%0')).toEqual([]);
    expect((await found(ada, id, '(.*)')).map((m) => m.title)).toEqual(['Regex (.*) and [brackets]']);
    expect(await found(ada, id, 'a.c')).toEqual([]);
    expect((await found(ada, id, 'a*b')).map((m) => m.count)).toEqual([1]);
    expect(await found(ada, id, 'a*c')).toEqual([]);
    expect((await found(ada, id, 'back\\slash')).map((m) => m.count)).toEqual([1]);
    expect((await found(ada, id, '"quotes"')).map((m) => m.count)).toEqual([1]);
    expect((await found(ada, id, '[brackets]')).map((m) => m.count)).toEqual([1]);
    expect((await found(ada, id, 'with a.b')).map((m) => m.count)).toEqual([1]);
  });

  it('folds the case of letters beyond ASCII, and finds one- and two-character queries', async () => {
    expect((await found(ada, id, 'ärger')).map((m) => m.count)).toEqual([2]);
    expect((await found(ada, id, 'STRASSE'))).toEqual([]);
    expect((await found(ada, id, 'straße')).map((m) => m.count)).toEqual([1]);
    expect((await found(ada, id, 'Ä')).map((m) => m.count)).toEqual([2]);
    expect((await found(ada, id, '%')).map((m) => m.title)).toEqual(['Pricing']);
    expect((await found(ada, id, '*b')).map((m) => m.count)).toEqual([1]);
  });

  it('respects limit', async () => {
    const res = await search(ada, id, 'e', '&limit=1');
    expect(res.body.data.matches).toHaveLength(1);
  });

  it('searches the text of an html section, not its markup', async () => {
    const { article, outline: [only] } = await newArticle(ada, { title: 'Canvas', markdown: '# Old' });
    const res = await ada.patch(`/api/articles/${article.id}/sections/${only.anchor}`, { html: '<h2>Fish &amp; chips</h2><p>Served <strong>hot</strong>.</p>' });
    expect(res.status).toBe(200);
    expect((await found(ada, article.id, 'fish & chips')).map((m) => m.title)).toEqual(['Fish & chips']);
    expect((await found(ada, article.id, 'served hot')).map((m) => m.count)).toEqual([1]);
    expect(await found(ada, article.id, 'strong')).toEqual([]);
    expect(await found(ada, article.id, '&amp;')).toEqual([]);
    expect(await found(ada, article.id, 'old')).toEqual([]);
  });

  it('keeps the index in step with every write: add, replace, move, delete', async () => {
    const { article } = await newArticle(ada, { title: 'Writes', markdown: '# Alpha\n\nzebra crossing' });
    const anchorOf = async (q: string) => (await found(ada, article.id, q))[0]?.anchor;
    const added = await ada.post(`/api/articles/${article.id}/sections`, { markdown: '# Beta\n\nyellow submarine' });
    expect(added.status).toBe(201);
    const beta = added.body.data.added[0].anchor;
    expect(await anchorOf('submarine')).toBe(beta);
    await ada.patch(`/api/articles/${article.id}/sections/${beta}`, { markdown: '# Beta\n\nred balloon' });
    expect(await anchorOf('submarine')).toBeUndefined();
    expect(await anchorOf('balloon')).toBe(beta);
    const alpha = await anchorOf('zebra');
    await ada.post(`/api/articles/${article.id}/sections/${beta}/move`, { before: alpha });
    expect((await found(ada, article.id, 'a')).map((m) => m.title)).toEqual(['Beta', 'Alpha']);
    await ada.del(`/api/articles/${article.id}/sections/${beta}`);
    expect(await anchorOf('balloon')).toBeUndefined();
    expect(await anchorOf('zebra')).toBe(alpha);
  });

  it('refuses an empty, missing or over-200-character query, and a bad limit (400)', async () => {
    for (const suffix of ['', '?q=', `?q=${'x'.repeat(201)}`, '?q=ok&limit=0', '?q=ok&limit=201', '?q=ok&limit=x']) {
      const error = expectFailure(await ada.get(`/api/articles/${id}/search${suffix}`), 400, 'invalid-argument');
      expect(error.nextAction).toBeTruthy();
    }
    expect(expectFailure(await ada.get(`/api/articles/${id}/search?q=`), 400, 'invalid-argument').message).toMatch(/q must not be empty/);
    expect(expectFailure(await ada.get(`/api/articles/${id}/search?q=${'x'.repeat(201)}`), 400, 'invalid-argument').message).toMatch(/200 characters/);
    expect((await search(ada, id, 'x'.repeat(200))).status).toBe(200);
  });

  it('refuses control characters in q (NUL, tab, line breaks, DEL, C1) with 400, on both search routes (issue 25, item 9)', async () => {
    for (const q of ['ab%00c', '%00', 'ab%01', 'a%09b', 'a%0Ab', 'a%0Db', 'a%1Fb', 'a%7Fb', 'a%C2%85b']) {
      for (const path of [`/api/articles/${id}/search?q=${q}`, `/api/search?q=${q}`]) {
        const error = expectFailure(await ada.get(path), 400, 'invalid-argument');
        expect([path, error.message]).toEqual([path, 'q must not contain control characters (NUL, tab, line breaks and the like).']);
        expect(error.nextAction).toBe('Pass ?q= as 1 to 200 characters of text to find (matched literally, any case), with no control characters.');
      }
    }
    // Other characters beyond ASCII are text.
    expect((await search(ada, id, 'école')).status).toBe(200);
  });

  it('is 404 for an article of someone else', async () => {
    expectFailure(await search(bob, id, 'schools'), 404, 'not-found');
  });
});

describe('search across articles', () => {
  const ids: string[] = [];
  beforeAll(async () => {
    const me = client(app, (await registerUser(app, 'cat')).jwt);
    Object.assign(across, { me });
    for (let i = 0; i < 5; i += 1) {
      ids.push((await newArticle(me, { title: `Article ${i}`, markdown: `# Part ${i}\n\n${i % 2 ? 'needle in a haystack' : 'just hay'}\n\n## More\n\nNeedle again ${i}` })).article.id);
    }
    // Someone else's needle is never shown.
    await newArticle(bob, { title: 'Bob', markdown: '# Needle\n\nneedle' });
  });
  const across: { me?: Client } = {};

  it('lists the caller\'s articles with matches, most recently updated first, a page at a time', async () => {
    const me = across.me!;
    // Article 2 becomes the most recently updated.
    await me.patch(`/api/articles/${ids[2]}`, { title: 'Article 2 renamed' });
    const first = await me.get('/api/search?q=NEEDLE&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.results.map((r: { article: { title: string } }) => r.article.title)).toEqual(['Article 2 renamed', 'Article 4']);
    expect(first.body.data.results[0].matches).toEqual([expect.objectContaining({ title: 'More', count: 1, level: 2 })]);
    const second = await me.get(`/api/search?q=NEEDLE&limit=2&cursor=${first.body.data.nextCursor}`);
    expect(second.body.data.results.map((r: { article: { id: string } }) => r.article.id)).toEqual([ids[3], ids[1]]);
    expect(second.body.data.results[0].matches.map((m: { count: number }) => m.count)).toEqual([1, 1]);
    const third = await me.get(`/api/search?q=NEEDLE&limit=2&cursor=${second.body.data.nextCursor}`);
    expect(third.body.data).toEqual({ results: [expect.objectContaining({ article: { id: ids[0], title: 'Article 0' } })], nextCursor: null });
    expect((await me.get('/api/search?q=haystack')).body.data.results.map((r: { article: { id: string } }) => r.article.id)).toEqual([ids[3], ids[1]]);
    expect((await me.get('/api/search?q=no%20such%20thing')).body.data).toEqual({ results: [], nextCursor: null });
    // Short queries have no trigram: still found, by the caller's own articles.
    expect((await me.get('/api/search?q=2')).body.data.results.map((r: { article: { id: string } }) => r.article.id)).toEqual([ids[2]]);
  });

  it('refuses a bad query, limit or cursor (400)', async () => {
    const me = across.me!;
    for (const suffix of ['', '?q=', `?q=${'y'.repeat(201)}`, '?q=ok&limit=101', '?q=ok&cursor=nonsense']) {
      expectFailure(await me.get(`/api/search${suffix}`), 400, 'invalid-argument');
    }
  });
});

describe('the index', () => {
  /** The SQL statements a request runs, with their bindings. */
  async function queriesOf(request: () => Promise<unknown>) {
    const seen: Array<{ sql: string; bindings: unknown[] }> = [];
    const listener = (q: { sql: string; bindings?: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
    app.strapi.db.connection.on('query', listener);
    try {
      await request();
    } finally {
      app.strapi.db.connection.off('query', listener);
    }
    return seen.filter((q) => /quire_sections/.test(q.sql) && /^select/i.test(q.sql));
  }

  async function planOf(sql: string, bindings: unknown[]): Promise<string> {
    const knex = app.strapi.db.connection;
    if (isPg()) {
      const rows = (await knex.raw(`EXPLAIN ${sql.replace(/\$\d+/g, '?')}`, bindings)).rows;
      return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    }
    return (await knex.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings)).map((r: { detail: string }) => r.detail).join('\n');
  }

  it('exists on a fresh database', async () => {
    const knex = app.strapi.db.connection;
    if (isPg()) {
      const { rows } = await knex.raw("SELECT indexdef FROM pg_indexes WHERE indexname = 'quire_sections_search_trgm_idx'");
      expect(rows[0].indexdef).toMatch(/USING gin [\s\S]*gin_trgm_ops/);
    } else {
      const names = (await knex('sqlite_master').select('name')).map((r: { name: string }) => r.name);
      expect(names).toEqual(expect.arrayContaining(['quire_sections_search', 'quire_sections_search_ai', 'quire_sections_search_au', 'quire_sections_search_ad']));
    }
  });

  it('serves both searches: the query plans use it, never a scan of the sections table', async () => {
    const dan = await registerUser(app, 'dan');
    const me = client(app, dan.jwt);
    const { article } = await newArticle(me, { title: 'Mine', markdown: '# Rare\n\nthe quokka smiles\n\n## Other\n\nnothing' });
    // Many more articles of the caller's, with many sections: a table worth an index, where
    // reading each article's sections would cost more than looking the text up.
    const knex = app.strapi.db.connection;
    const { randomUUID } = require('node:crypto');
    const articleRows = Array.from({ length: 300 }, (_, i) => ({ uuid: randomUUID(), user_id: dan.id, title: `Other ${i}`, status: 'draft', outline_rev: 1 }));
    for (let i = 0; i < articleRows.length; i += 100) await knex('quire_articles').insert(articleRows.slice(i, i + 100));
    const others = (await knex('quire_articles').where('user_id', dan.id).whereNot('uuid', article.id).select('id')).map((r: { id: number }) => r.id);
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      uuid: randomUUID(),
      article_id: others[i % others.length],
      rank: `a${i}`,
      level: 2,
      title: `Filler ${i}`,
      words: 5,
      source: 'markdown',
      markdown: `## Filler ${i}\n\nLorem ipsum dolor sit amet number ${i}, consectetur adipiscing elit.`,
      html: '<p>x</p>',
      rev: 1,
    }));
    for (let i = 0; i < rows.length; i += 500) await knex('quire_sections').insert(rows.slice(i, i + 500));
    // What autovacuum does after a bulk load: statistics, and (PostgreSQL) the GIN index's pending list merged.
    await knex.raw(isPg() ? 'VACUUM ANALYZE' : 'ANALYZE');

    for (const [label, request] of [
      ['article', () => me.get(`/api/articles/${article.id}/search?q=quokka`)],
      ['everywhere', () => me.get('/api/search?q=quokka')],
    ] as const) {
      let answer: any;
      const queries = await queriesOf(async () => {
        answer = await request();
      });
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body.data)).toMatch(/quokka/);
      expect(queries.length).toBeGreaterThan(0);
      const plans = await Promise.all(queries.map((q) => planOf(q.sql, q.bindings)));
      const all = plans.join('\n---\n');
      if (isPg()) {
        expect(all).not.toMatch(/Seq Scan on quire_sections/);
        if (label === 'everywhere') expect(all).toMatch(/quire_sections_search_trgm_idx/);
      } else {
        expect(all).not.toMatch(/SCAN s\b(?! USING)|SCAN quire_sections\b(?!_search)/);
        // In one article, an ASCII query reads that article's sections by its index (docs/api.md);
        // across articles, the FTS index finds them.
        if (label === 'article') expect(all).toMatch(/SEARCH s USING INDEX quire_sections_article_id_uuid_uq \(article_id=\?\)/);
        else expect(all).toMatch(/SCAN quire_sections_search VIRTUAL TABLE/);
      }
    }
  });

  if (!process.env.DATABASE_URL) {
    it('SQLite: a missing trigger is put back at boot and the index rebuilt, so nothing written meanwhile is lost', async () => {
      const { article } = await newArticle(ada, { title: 'Drift', markdown: '# Start' });
      const knex = app.strapi.db.connection;
      await knex.raw('DROP TRIGGER quire_sections_search_ai');
      await ada.post(`/api/articles/${article.id}/sections`, { markdown: '# Written while the trigger was gone\n\nplatypus' });
      // The search across articles is the one the index serves (in one article, an ASCII query reads its sections).
      const indexed = async () => {
        const res = await ada.get(`/api/search?q=platypus`);
        expect(res.status).toBe(200);
        return (res.body.data.results as Array<{ article: { id: string }; matches: Array<{ count: number }> }>).filter((r) => r.article.id === article.id).flatMap((r) => r.matches.map((m) => m.count));
      };
      expect(await indexed()).toEqual([]);
      const { ensureSearchIndex } = require(path.resolve(__dirname, '../../dist/src/plugins/quire/server/src/repositories/search-index'));
      await ensureSearchIndex(app.strapi);
      expect(await indexed()).toEqual([1]);
    });
  }
});
