/**
 * Junk written into a live document before the update guard refused it (issue 32 finding 3:
 * `getMap('junk')`, fragments of sections not in `order`) is emptied when the stored state is
 * healed, so the stored state and every later open shrink back to the article's size.
 */
import * as Y from 'yjs';
import { buildDoc, healDoc, sectionHtml } from '../../../src/plugins/quire/server/src/live/article-doc';

const sections = [
  { id: 'one', rev: 1, html: '<h2>One</h2><p>The first section.</p>' },
  { id: 'two', rev: 1, html: '<h2>Two</h2><p>The second section.</p>' },
];
const revs = { one: 1, two: 1 };

/** A stored state with an attacker's junk in it, as an older server accepted it. */
function junkedState(): Uint8Array {
  const doc = new Y.Doc();
  buildDoc(doc, sections, 'A premise.');
  const blob = 'x'.repeat(200_000);
  doc.getMap('junk').set('blob', blob);
  doc.getArray('junkList').insert(0, [blob]);
  doc.getXmlFragment('section:not-in-order').insert(0, [new Y.XmlText(blob)]);
  doc.getMap('meta').set('deleted:gone', { name: 'Ann', kind: 'editor', at: 'now', trashId: 'gone' });
  doc.getXmlFragment('section:gone').insert(0, [new Y.XmlText('kept for a restore')]);
  return Y.encodeStateAsUpdate(doc);
}

describe('sweeping junk out of a stored live state', () => {
  it('empties shared types that are not the article\'s and fragments of unknown sections; keeps sections, premise and deleted sections', () => {
    const stored = junkedState();
    expect(stored.byteLength).toBeGreaterThan(600_000);
    // As loading does: the types exist only as the update wrote them (no constructor yet).
    const doc = new Y.Doc();
    Y.applyUpdate(doc, stored);
    expect(healDoc(doc, sections, revs, 'A premise.')).toBe(true);
    const swept = Y.encodeStateAsUpdate(doc);
    expect(swept.byteLength).toBeLessThan(2_000);
    expect(sectionHtml(doc, 'one')).toContain('The first section.');
    expect(sectionHtml(doc, 'two')).toContain('The second section.');
    expect(doc.getText('premise').toString()).toBe('A premise.');
    expect(doc.getXmlFragment('section:gone').toString()).toContain('kept for a restore');
    // Nothing left to sweep the second time.
    expect(healDoc(doc, sections, revs, 'A premise.')).toBe(false);
  });

  it('a process holding the junked document merges the sweep as any change: its copy shrinks too', () => {
    const held = new Y.Doc();
    Y.applyUpdate(held, junkedState());
    const store = new Y.Doc();
    Y.applyUpdate(store, Y.encodeStateAsUpdate(held));
    healDoc(store, sections, revs, 'A premise.');
    Y.applyUpdate(held, Y.diffUpdate(Y.encodeStateAsUpdate(store), Y.encodeStateVector(held)));
    expect(held.getMap('junk').size).toBe(0);
    expect(Y.encodeStateAsUpdate(held).byteLength).toBeLessThan(2_000);
  });
});
