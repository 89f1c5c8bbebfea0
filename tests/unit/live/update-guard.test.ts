/**
 * The live update guard (live/update-guard.ts, issue 32 findings 3, 7, 8): a client's update is
 * decided against the document it would change. Each "refuses" case is an update the red team
 * sent and today's main applied; each "accepts" case is something the canvas writes.
 */
import * as Y from 'yjs';
import { checkUpdate } from '../../../src/plugins/quire/server/src/live/update-guard';
import { fillFragment, fragmentToHtml, pruneToSchema } from '../../../src/plugins/quire/server/src/live/content';
import { sanitiserKeepsUrl } from '../../../src/plugins/quire/server/src/domain/safe-url';
import { sanitizeHtml } from '../../../src/plugins/quire/server/src/domain/markdown';

const S1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const S2 = 'aaaaaaaa-0000-4000-8000-000000000002';

/** The server's document (as live/article-doc.ts builds it) and a client's copy synced from it. */
function setup() {
  const server = new Y.Doc();
  server.transact(() => {
    server.getArray<string>('order').insert(0, [S1, S2]);
    fillFragment(server.getXmlFragment(`section:${S1}`), '<p>The engine weaves.</p>');
    fillFragment(server.getXmlFragment(`section:${S2}`), '<p>As the <a href="https://example.com">loom</a>.</p>');
    server.getText('premise').insert(0, 'Why engines');
    server.getMap('meta').set('notesRev', 0);
    server.getMap('outline').set(S1, { anchor: 'aaaaaaaa', level: 2, title: 'One', words: 3, source: 'html', rev: 1 });
    server.getMap('presence').set('Scribe', { kind: 'agent', name: 'Scribe', section: S1, since: 1, until: 2 });
  });
  const client = new Y.Doc();
  Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
  return { server, client };
}

/** The update a change on the client makes. */
function change(client: Y.Doc, edit: (doc: Y.Doc) => void): Uint8Array {
  const before = Y.encodeStateVector(client);
  edit(client);
  return Y.encodeStateAsUpdate(client, before);
}

const firstText = (doc: Y.Doc, section: string) => (doc.getXmlFragment(`section:${section}`).get(0) as Y.XmlElement).get(0) as Y.XmlText;

describe('what the canvas writes is accepted', () => {
  it('typing in the middle of a section (the item has neighbours and no parent in the update)', () => {
    const { server, client } = setup();
    const update = change(client, (doc) => firstText(doc, S1).insert(4, 'old '));
    expect(checkUpdate(server, update)).toEqual({ ok: true, premiseGrowth: 0 });
  });

  it('whole blocks of every kind the editor has: headings, lists, tables, images, link cards, marks and links', () => {
    const { server, client } = setup();
    const html =
      '<h2>Music</h2><p><strong>b</strong> <em>i</em> <s>s</s> <code>c</code> <a href="mailto:a@b.c">mail</a> <a href="/relative">rel</a></p>' +
      '<ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol><blockquote><p>q</p></blockquote><pre><code>x</code></pre><hr>' +
      '<table><tbody><tr><th><p>h</p></th></tr><tr><td><p>d</p></td></tr></tbody></table><img src="https://example.com/a.png" alt="a">' +
      '<figure data-type="link-card" data-url="https://example.com" data-title="T" data-description="D" data-image="https://example.com/i.png" data-site-name="S"></figure>';
    // Built into the section as y-prosemirror does (content.ts uses its prosemirrorJSONToYXmlFragment).
    const update = change(client, (doc) => doc.transact(() => fillFragment(doc.getXmlFragment(`section:${S2}`), html)));
    expect(checkUpdate(server, update)).toMatchObject({ ok: true });
  });

  it('typing in the premise, and deleting text in a section', () => {
    const { server, client } = setup();
    const update = change(client, (doc) => {
      doc.getText('premise').insert(3, ' do');
      firstText(doc, S1).delete(0, 4);
    });
    expect(checkUpdate(server, update)).toEqual({ ok: true, premiseGrowth: 3 });
  });

  it('typing in a section deleted while the page had it open (meta says deleted)', () => {
    const { server, client } = setup();
    server.transact(() => {
      server.getArray('order').delete(0, 1);
      server.getMap('meta').set(`deleted:${S1}`, { name: 'Ada', kind: 'agent', at: 'now', trashId: S1 });
    });
    const update = change(client, (doc) => firstText(doc, S1).insert(0, 'still typing '));
    expect(checkUpdate(server, update)).toMatchObject({ ok: true });
  });
});

describe('what the canvas never writes is refused', () => {
  const refused = (update: Uint8Array, server: Y.Doc, pattern: RegExp) => {
    const verdict = checkUpdate(server, update);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok === false && verdict.reason).toMatch(pattern);
  };

  it('a shared type that is not part of an article (finding 3: getMap("junk"))', () => {
    const { server, client } = setup();
    refused(change(client, (doc) => doc.getMap('junk').set('x', 'y'.repeat(1000))), server, /not part of an article/);
  });

  it('a fragment whose id is not in `order` (finding 3)', () => {
    const { server, client } = setup();
    refused(change(client, (doc) => fillFragment(doc.getXmlFragment('section:bbbbbbbb-0000-4000-8000-000000000009'), '<p>junk</p>')), server, /not one of this article's sections/);
  });

  it('`order` and `meta`, which only the server writes (finding 7): inserts, overwrites and deletes', () => {
    const { server, client } = setup();
    refused(change(client, (doc) => doc.getArray('order').insert(1, ['aaaaaaaa-0000-4000-8000-00000000000f'])), server, /only the server writes/);
    const second = setup();
    refused(change(second.client, (doc) => doc.getMap('meta').set(`changed:${S1}`, { name: 'Super Admin', kind: 'editor', at: 'now' })), second.server, /only the server writes/);
    const third = setup();
    refused(change(third.client, (doc) => doc.getArray('order').delete(0, 1)), third.server, /only the server writes/);
  });

  it('an element the schema does not have (finding 5: `script`), and an attribute a node does not have', () => {
    const { server, client } = setup();
    refused(change(client, (doc) => doc.getXmlFragment(`section:${S1}`).insert(0, [new Y.XmlElement('script')])), server, /"script" element/);
    const second = setup();
    refused(change(second.client, (doc) => (doc.getXmlFragment(`section:${S1}`).get(0) as Y.XmlElement).setAttribute('onclick', 'alert(1)')), second.server, /no such attribute/);
  });

  it('a URL the sanitiser drops (finding 8): link marks, link cards, images', () => {
    const { server, client } = setup();
    refused(change(client, (doc) => firstText(doc, S1).format(0, 3, { link: { href: 'javascript:alert(1)' } })), server, /link the server does not keep/);
    const second = setup();
    refused(
      change(second.client, (doc) => {
        const card = new Y.XmlElement('linkCard');
        doc.getXmlFragment(`section:${S1}`).insert(1, [card]);
        card.setAttribute('url', 'JaVaScRiPt:alert(1)');
      }),
      second.server,
      /link the server does not keep/,
    );
    const third = setup();
    refused(
      change(third.client, (doc) => {
        const image = new Y.XmlElement('image');
        doc.getXmlFragment(`section:${S1}`).insert(1, [image]);
        image.setAttribute('src', 'data:image/svg+xml;base64,PHN2Zz4=');
      }),
      third.server,
      /link the server does not keep/,
    );
  });

  it('text straight in a section, a map inside an element, and a sub-document', () => {
    const { server, client } = setup();
    refused(change(client, (doc) => doc.getXmlFragment(`section:${S1}`).insert(0, [new Y.XmlText('top')])), server, /other than blocks/);
    const second = setup();
    refused(change(second.client, (doc) => (doc.getXmlFragment(`section:${S1}`).get(0) as Y.XmlElement).insert(0, [new Y.Map() as any])), second.server, /shared type inside/);
    const third = setup();
    refused(change(third.client, (doc) => (doc.getXmlFragment(`section:${S1}`).get(0) as Y.XmlElement).insert(0, [new Y.Doc() as any])), third.server, /raw content/);
  });

  it('a page\'s echo (sync step 2) of `order` and `meta` passes, listed for the server to put back', () => {
    const { server, client } = setup();
    const update = change(client, (doc) => doc.getMap('meta').set(`changed:${S1}`, { name: 'Old', kind: 'editor', at: 'then' }));
    expect(checkUpdate(server, update, { echo: true })).toEqual({ ok: true, premiseGrowth: 0, serverParts: { order: false, keys: new Map([['meta', new Set([`changed:${S1}`])]]) } });
    // Junk is refused in an echo too.
    expect(checkUpdate(server, change(client, (doc) => doc.getMap('junk').set('x', 1)), { echo: true })).toMatchObject({ ok: false });
  });

  it('the outline and the agents present are the server\'s (issue 31 point 4): written, overwritten or deleted by a client, refused; echoed, put back', () => {
    for (const name of ['outline', 'presence']) {
      const { server, client } = setup();
      refused(change(client, (doc) => doc.getMap(name).set(S2, { title: 'Forged' })), server, new RegExp(`\`${name}\`, which only the server writes`));
      refused(change(client, (doc) => doc.getMap(name).set(name === 'outline' ? S1 : 'Scribe', { title: 'Forged' })), server, /only the server writes/);
      refused(change(client, (doc) => doc.getMap(name).delete(name === 'outline' ? S1 : 'Scribe')), server, /only the server writes/);
      const fresh = setup();
      const echo = change(fresh.client, (doc) => doc.getMap(name).set('k', 1));
      expect(checkUpdate(fresh.server, echo, { echo: true })).toEqual({ ok: true, premiseGrowth: 0, serverParts: { order: false, keys: new Map([[name, new Set(['k'])]]) } });
    }
  });

  it('something the server has not seen is "retry", not a refusal', () => {
    const { server, client } = setup();
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(client));
    const first = change(other, (doc) => firstText(doc, S1).insert(0, 'a'));
    Y.applyUpdate(client, first);
    const second = change(client, (doc) => firstText(doc, S1).insert(1, 'b'));
    expect(checkUpdate(server, second)).toMatchObject({ ok: false, retry: true });
    // Once the first arrived, the second is fine.
    Y.applyUpdate(server, first);
    expect(checkUpdate(server, second)).toMatchObject({ ok: true });
  });

  it('a malformed update', () => {
    const { server } = setup();
    expect(checkUpdate(server, new Uint8Array([1, 2, 3, 250, 250, 250]))).toMatchObject({ ok: false });
  });
});

describe('the URL rule is the sanitiser\'s', () => {
  const urls = ['https://a.b/c', 'http://x', '/rel', 'rel?x=a:b', '#frag', 'mailto:a@b.c', 'javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:x', '\x0ejavascript:x', 'data:text/html,x', 'vbscript:x', 'HTTP://a.b', 'xmpp:a', 'ftp://a'];
  it.each(urls)('href %j is kept exactly when rehype-sanitize keeps it', (url) => {
    const kept = /href=/.test(sanitizeHtml(`<a href="${url.replace(/"/g, '&quot;')}">x</a>`));
    expect(sanitiserKeepsUrl(url, 'href')).toBe(kept);
  });
});

describe('a section the schema cannot read (finding 5)', () => {
  it('is written without what the schema does not know, instead of throwing', () => {
    const doc = new Y.Doc();
    const fragment = doc.getXmlFragment('s');
    fillFragment(fragment, '<p>kept</p>');
    const script = new Y.XmlElement('script');
    fragment.insert(0, [script]);
    script.insert(0, [new Y.XmlText('alert(1)')]);
    (fragment.get(1) as Y.XmlElement).setAttribute('bogus', 'x');
    expect(fragmentToHtml(fragment)).toBe('<p>kept</p>');
    expect(pruneToSchema({ type: 'nope' })).toBeNull();
  });
});
