/**
 * The unified diffs of dry runs and suggestions (CONTRACT section 11). jsdiff's Myers diff costs
 * time in proportion to the text times the number of changed lines: replacing 10,000 lines took
 * 10 to 14 s. It is bounded here (DIFF_MAX_EDIT_LENGTH changed lines); past the bound the diff
 * is one coarse hunk: the lines the two texts share at the start and at the end stay context,
 * everything between is shown removed and added. It still says what changed, in linear time.
 * Pure code; run in a worker thread (services/workers) for anything but a paragraph.
 */
import { createTwoFilesPatch, formatPatch, type StructuredPatch } from 'diff';

/** Changed lines (removed plus added) past which the exact diff gives way to the coarse one. */
export const DIFF_MAX_EDIT_LENGTH = 500;
const CONTEXT = 3;

/** One section's change: its anchor, and its text before and after. */
export interface DiffPart {
  anchor: string;
  before: string;
  after: string;
}

const lines = (text: string) => (text ? `${text}\n`.split('\n').slice(0, -1) : []);

/** The coarse diff: common leading and trailing lines kept (as context), one hunk for the rest. */
export function coarseDiff(anchor: string, before: string, after: string): string {
  const a = lines(before);
  const b = lines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
  const from = Math.max(0, head - CONTEXT);
  const lead = a.slice(from, head);
  const trail = a.slice(a.length - tail, a.length - tail + Math.min(CONTEXT, tail));
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const oldLines = lead.length + removed.length + trail.length;
  const newLines = lead.length + added.length + trail.length;
  const patch: StructuredPatch = {
    oldFileName: `a/${anchor}`,
    newFileName: `b/${anchor}`,
    oldHeader: undefined,
    newHeader: undefined,
    hunks:
      removed.length || added.length
        ? [
            {
              // 1-based; formatPatch writes a side of no lines as starting at the line before (0 for an empty text).
              oldStart: from + 1,
              oldLines,
              newStart: from + 1,
              newLines,
              lines: [...lead.map((l) => ` ${l}`), ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`), ...trail.map((l) => ` ${l}`)],
            },
          ]
        : [],
  };
  return formatPatch(patch);
}

/** A unified diff of one section's text, exact within DIFF_MAX_EDIT_LENGTH changed lines, else coarse. */
export function sectionDiff({ anchor, before, after }: DiffPart): string {
  const exact = createTwoFilesPatch(`a/${anchor}`, `b/${anchor}`, before ? `${before}\n` : '', after ? `${after}\n` : '', undefined, undefined, {
    context: CONTEXT,
    maxEditLength: DIFF_MAX_EDIT_LENGTH,
  });
  return exact ?? coarseDiff(anchor, before, after);
}

/** The diff of each op's parts (a replaceText across sections has one part per section), joined. */
export function diffAll(jobs: DiffPart[][]): string[] {
  return jobs.map((parts) => parts.map(sectionDiff).join(''));
}
