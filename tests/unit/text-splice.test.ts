/** The one prefix/suffix text diff (shared/text-splice.ts) the live premise is kept with, on the server and in the canvas. */
import * as Y from 'yjs';
import { textSplice } from '../../src/plugins/quire/shared/text-splice';

describe('textSplice', () => {
  it('finds the smallest change between two texts', () => {
    expect(textSplice('same', 'same')).toBeNull();
    expect(textSplice('The cat sat.', 'The black cat sat.')).toEqual({ start: 4, removed: 0, inserted: 'black ' });
    expect(textSplice('The black cat sat.', 'The cat sat.')).toEqual({ start: 4, removed: 6, inserted: '' });
    expect(textSplice('aaa', 'aaaa')).toEqual({ start: 3, removed: 0, inserted: 'a' });
    expect(textSplice('', 'new')).toEqual({ start: 0, removed: 0, inserted: 'new' });
  });

  it('applied to a Y.Text, gives the new text whatever the two are', () => {
    const pairs = [['abcabc', 'abc'], ['hello world', 'help, world!'], ['x', ''], ['premise', 'A premise, longer now.'], ['aXbXc', 'aYbYc']];
    for (const [before, after] of pairs) {
      const text = new Y.Doc().getText('t');
      text.insert(0, before);
      const splice = textSplice(before, after)!;
      text.delete(splice.start, splice.removed);
      text.insert(splice.start, splice.inserted);
      expect(text.toString()).toBe(after);
    }
  });
});
