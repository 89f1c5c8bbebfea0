/**
 * What a suggestion changes, in a line: one phrase per operation ("Rewrites "Method"",
 * "Replaces "teh" with "the" in "Intro""), for the Brief's list of suggestions.
 */
import type { SectionRecord } from '../../api';

type Message = (id: string, defaultMessage: string, values?: Record<string, string | number>) => string;
type Op = Record<string, unknown>;

const QUOTE_LENGTH = 40;

/** `text` cut to a quotable length, on one line. */
export const quote = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > QUOTE_LENGTH ? `${line.slice(0, QUOTE_LENGTH - 1).trimEnd()}…` : line;
};

/** The first heading's text of Markdown, or its first words. */
const firstLine = (markdown: string): string => quote((/^#{1,6}\s+(.+)$/m.exec(markdown)?.[1] ?? markdown).replace(/[*_`#>]/g, ''));

/**
 * One phrase per operation, joined with "; ". Sections are named by their titles (`untitled`
 * for one without); a reference to a section the suggestion itself adds ($N) or one that is
 * gone is named "a new section" / "a section".
 */
export function summarizeOps(ops: Op[], sections: Pick<SectionRecord, 'id' | 'anchor' | 'title'>[], m: Message, untitled: string): string {
  const titleOf = (ref: unknown): string => {
    if (typeof ref !== 'string') return m('suggestions.summary.aSection', 'a section');
    if (ref.startsWith('$')) return m('suggestions.summary.newSection', 'a new section');
    const section = sections.find((s) => s.anchor === ref || s.id.startsWith(ref));
    return section ? `"${quote(section.title || untitled)}"` : m('suggestions.summary.aSection', 'a section');
  };
  const phrases = ops.map((op) => {
    switch (op.op) {
      case 'insert':
        return op.after !== undefined && op.after !== null
          ? m('suggestions.summary.insertAfter', 'Adds "{title}" after {section}', { title: firstLine(String(op.markdown ?? '')), section: titleOf(op.after) })
          : op.before !== undefined && op.before !== null
            ? m('suggestions.summary.insertBefore', 'Adds "{title}" before {section}', { title: firstLine(String(op.markdown ?? '')), section: titleOf(op.before) })
            : m('suggestions.summary.insert', 'Adds "{title}" at the end', { title: firstLine(String(op.markdown ?? '')) });
      case 'replace':
        return m('suggestions.summary.replace', 'Rewrites {section}', { section: titleOf(op.section) });
      case 'move':
        return m('suggestions.summary.move', 'Moves {section}', { section: titleOf(op.section) });
      case 'delete':
        return m('suggestions.summary.delete', 'Deletes {section}', { section: titleOf(op.section) });
      case 'replaceText': {
        const values = { find: quote(String(op.find ?? '')), replace: quote(String(op.replace ?? '')) };
        if (op.section === undefined) return values.replace ? m('suggestions.summary.replaceTextAll', 'Replaces "{find}" with "{replace}"', values) : m('suggestions.summary.removeTextAll', 'Removes "{find}"', values);
        const section = titleOf(op.section);
        return values.replace
          ? m('suggestions.summary.replaceText', 'Replaces "{find}" with "{replace}" in {section}', { ...values, section })
          : m('suggestions.summary.removeText', 'Removes "{find}" from {section}', { ...values, section });
      }
      default:
        return m('suggestions.summary.other', 'Changes {section}', { section: titleOf(op.section) });
    }
  });
  return phrases.join('; ');
}
