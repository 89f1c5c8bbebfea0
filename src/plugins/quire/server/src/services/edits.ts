/**
 * The one implementation of every change to an article's sections (CONTRACT sections 10 to
 * 12): `POST /api/articles/{id}/edits` runs a list of operations; the single-section routes
 * (POST sections, PATCH, move, DELETE), revision restores, suggestions and the admin canvas
 * run one-operation (or n-operation) edits through the same code.
 *
 * One request is one transaction under the article's write lock (repositories/store lockArticle):
 * the preconditions (If-Match, a suggestion's base revisions) are checked against the state
 * the lock guarantees, every operation sees the article as the earlier ones left it, and any
 * failure rolls everything back. A dry run takes the same path and rolls back at the end.
 *
 * Every content change keeps the previous version in quire_section_revisions with who made it;
 * a deleted section goes to the article's trash (quire_trash) with its content and revision.
 *
 * Service `edits` (getService(strapi, 'edits')):
 *   apply(userId, articleId, ops, { actor, dryRun?, ifMatch?, single?, base? }) -> EditOutcome
 * `actor` is who the change is recorded as: `{ kind: 'agent' | 'human' | 'editor', name }`.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { ApiError, invalidArgument, notFound } from '#kernel/errors';
import { parseIfMatch, preconditionFailed, preconditionHolds, type Precondition } from '#kernel/conditional';
import type { AnchorScope } from '../domain/anchors';
import type { ArticleChange } from '../domain/article-events';
import type { DiffPart } from '../domain/diff';
import { occurrences } from '../domain/html-replace';
import { outlineTag, sectionTag } from '../domain/etags';
import { emptySection, type SectionContent } from '../domain/markdown';
import { ranksBetween, slotBounds } from '../domain/ordering';
import { Outline, type OutlineItem } from '../domain/outline';
import { sectionScope } from '../domain/scopes';
import type { EditOp } from '../schemas/inputs/edits';
import { LIMITS } from '../schemas/inputs/shared';
import type { OutlineEntry } from '../schemas/records';
import { sectionRepository, type SectionRow, type SectionUpdate } from '../repositories/sections';
import { trashRepository, type TrashedSection } from '../repositories/trash';
import { articleUuid, lockArticle } from './article-lookup';
import type { Actor, EditOptions, EditOutcome, OpResult } from './edit-types';
import { VersionLog } from './history';
import type { SectionRewrite } from './threads';
import { getService } from './get-service';

/** Raised inside a dry run's transaction to roll it back with its outcome. */
class DryRun {
  constructor(readonly outcome: EditOutcome) {}
}

export { sectionScope };
export type { Actor, EditOptions, EditOutcome, OpResult };

const BLANK_MARKDOWN_NEXT = 'Pass the section body as a non-empty Markdown string in "markdown".';

/** The empty section an article keeps when it has no content. */
const looksEmpty = (item: OutlineItem) => item.level === 0 && item.title === '' && item.words === 0 && item.source === 'markdown';

/** The text of a section as diffs and replaceText see it: its Markdown, or its HTML when HTML is canonical. */
const textOf = (row: { source: string; markdown: string | null; html: string }) => (row.source === 'html' ? row.html : (row.markdown ?? ''));

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;


const REF = /^\$(\d+)(?:\.(\d+))?$/;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const sections = sectionRepository(strapi);
  const trash = trashRepository(strapi);
  const cache = () => getService(strapi, 'outlines');
  const events = () => getService(strapi, 'events');
  const workers = () => getService(strapi, 'workers');
  const threads = () => getService(strapi, 'threads');

  /** Content of the replace and insert ops, split before the transaction (off the event loop). */
  async function splitAll(ops: EditOp[], label: (i: number) => string, given?: Map<number, SectionContent[]>): Promise<Map<number, SectionContent[]>> {
    const contents = new Map<number, SectionContent[]>(given ?? []);
    for (const [i, op] of ops.entries()) {
      if (contents.has(i)) continue;
      try {
        if (op.op === 'insert' || (op.op === 'replace' && op.markdown !== undefined)) {
          const split: SectionContent[] = await workers().splitMarkdown(op.markdown!);
          if (!split.length) throw invalidArgument('markdown must not be empty.', BLANK_MARKDOWN_NEXT);
          contents.set(i, split);
        } else if (op.op === 'replace') {
          contents.set(i, [await workers().canvasSection(op.html!)]);
        }
      } catch (error) {
        throw labelled(error, label(i));
      }
    }
    return contents;
  }

  /** An error of op N, its message prefixed with `ops[N] (op): ` (single routes: unchanged). */
  function labelled(error: unknown, label: string): unknown {
    if (!label || !(error instanceof ApiError)) return error;
    return new ApiError(error.code, `${label}${error.message}`, error.nextAction, { status: error.status, headers: error.headers });
  }

  /** The outline of an article whose lock this transaction holds, as it was before this write. */
  async function outlineBefore(trx: Knex, articleRowId: number, rev: number): Promise<Outline> {
    return (
      cache().get(articleRowId, rev - 1) ??
      Outline.of(await sections.in(trx).items(articleRowId))
    );
  }

  async function apply(userId: number, rawArticleId: string, ops: EditOp[], options: EditOptions): Promise<EditOutcome> {
    const label = (i: number) => (options.single ? '' : `ops[${i}] (${ops[i].op}): `);
    // Malformed per-op ETags are 400 before anything else.
    const preconditions = ops.map((op, i) => {
      try {
        return 'ifMatch' in op && op.ifMatch !== undefined ? parseIfMatch(op.ifMatch, options.single ? 'If-Match' : 'ifMatch') : undefined;
      } catch (error) {
        throw labelled(error, label(i));
      }
    });
    const contents = await splitAll(ops, label, options.contents);
    const outcome = await withSession(userId, rawArticleId, options, async (session) => {
      if (options.within) await options.within(session.trx, session.articleRowId);
      if (options.base) session.checkBase(options.base);
      await session.prefetch(ops);
      for (const [i, op] of ops.entries()) {
        try {
          await session.run(op, i, contents.get(i), preconditions[i]);
        } catch (error) {
          throw labelled(error, label(i));
        }
      }
      await session.writePending();
      if (options.afterOps) await options.afterOps(session.trx, { outline: session.outline, touched: session.touched, produced: session.produced });
    });
    // Diffs are computed once the transaction (and the article's lock) is over, in a worker,
    // one op at a time: each is bounded (domain/diff), so no request holds a thread for long.
    for (const [index, parts] of outcome.diffParts ?? []) {
      try {
        [outcome.results[index].diff] = await workers().diffs([parts]);
      } catch (error) {
        throw labelled(error, label(index));
      }
    }
    delete outcome.diffParts;
    return outcome;
  }

  /**
   * A write to an article's sections: the lock (which bumps the outline revision), the outline
   * before it, the outline precondition, `work`, and the new outline cached once it commits.
   * A dry run rolls back at the end and answers the same outcome.
   */
  async function withSession(userId: number, rawArticleId: string, options: EditOptions, work: (session: Session) => Promise<void>): Promise<EditOutcome> {
    const uuid = articleUuid(rawArticleId);
    const run = () =>
      strapi.db.transaction(async ({ trx: t, onCommit }) => {
        const trx = t as unknown as Knex;
        const { id: articleRowId, outlineRev } = await lockArticle(strapi, trx, userId, rawArticleId, { outline: true });
        // The outline as committed: what a 412 names (the failed request rolls its bump back).
        const current = outlineTag(uuid, outlineRev - 1);
        const session = new Session(trx, articleRowId, uuid, sectionScope(uuid), await outlineBefore(trx, articleRowId, outlineRev), options, current);
        if (!preconditionHolds(options.ifMatch, current)) {
          throw preconditionFailed(
            'The article\'s outline has changed since you read it: nothing was changed.',
            `Call GET /api/articles/${uuid}/outline for the current outline and its ETag, apply your change to it, and retry with that ETag in If-Match.`,
            current,
          );
        }
        await work(session);
        await session.writePending();
        await session.history.flush(trx);
        // The write's change set (CONTRACT 23; services/change-sets): dry runs record none.
        await getService(strapi, 'changeSets').recordEdit(trx, { articleRow: articleRowId, articleId: uuid, actor: options.actor, dryRun: options.dryRun, coalesceSeconds: options.coalesceSeconds, changes: session.changes, before: session.before, after: session.after, at: new Date(), outline: session.outline });
        const outcome = session.outcome(outlineRev);
        if (options.dryRun) throw new DryRun(outcome);
        // Threads on the sections it rewrote follow their text; on those it deleted, detach (CONTRACT 24).
        await threads().followEdits(trx, articleRowId, session.rewritten, session.deleted, session.restored);
        // One truth for the live canvas: an article opened live keeps its stored Yjs state in step, in this transaction.
        if (session.changes.length) await getService(strapi, 'liveState').afterSectionsWrite(trx, articleRowId, { changes: session.changes, actor: options.actor, outline: session.outline });
        // One article event for the request, published once the outermost transaction commits.
        await events().record({ articleId: uuid, ownerId: userId }, options.actor, session.changes);
        onCommit(() => cache().set(articleRowId, outlineRev, session.outline));
        return outcome;
      }) as unknown as Promise<EditOutcome>;
    try {
      return await run();
    } catch (error) {
      if (error instanceof DryRun) return error.outcome;
      throw error;
    }
  }

  /** One request's work: the evolving outline, what each op produced, the rows it writes. */
  class Session {
    readonly produced: string[][] = [];
    readonly results: OpResult[] = [];
    readonly touched: Record<string, number> = {};
    readonly resolvedOps: EditOp[] = [];
    /** What the request changed, in order: its article event. */
    readonly changes: ArticleChange[] = [];
    /** Sections whose content it replaced: their first content before, what took their place (threads follow it). */
    readonly rewritten = new Map<string, SectionRewrite>();
    /** Sections it deleted, and those it brought back from the trash (with their HTML). */
    readonly deleted: string[] = [];
    readonly restored = new Map<string, { html: string | null }>();
    /** Each section's title and text before the request first changed it (its change set's "before"). */
    readonly before = new Map<string, { title: string; text: string }>();
    /** Each section's title and text as the request last wrote them (its change set's "after", not read back). */
    readonly after = new Map<string, { title: string; text: string }>();
    /** Dry runs: what each result's diff compares (result index -> parts). */
    private readonly diffParts = new Map<number, DiffPart[]>();
    /** Per result: the ids behind `added` and `updated`, for their final entries. */
    private readonly ids: Array<{ added?: string[]; updated?: string[]; entries: Map<string, OutlineEntry> }> = [];
    private readonly now = new Date();
    /** Versions to keep in history, written together at the end of the request. */
    readonly history: VersionLog;

    constructor(
      readonly trx: Knex,
      readonly articleRowId: number,
      readonly articleUuid: string,
      readonly scope: AnchorScope,
      public outline: Outline,
      readonly options: EditOptions,
      /** The outline's ETag before this request. */
      readonly outlineTagBefore: string,
    ) {
      this.history = new VersionLog(strapi, articleRowId, this.now, options.coalesceSeconds !== undefined ? { seconds: options.coalesceSeconds, by: options.actor } : undefined);
    }

    checkBase(base: Record<string, number>) {
      for (const [id, rev] of Object.entries(base)) {
        const item = this.outline.find(id);
        if (!item || item.rev !== rev) {
          throw preconditionFailed(
            'A section this suggestion changes has changed since it was made: nothing was changed, and the suggestion is now stale.',
            `Call GET /api/articles/${this.articleUuid}/outline for the current article, and make a new suggestion or edit against it.`,
            this.outlineTagBefore,
          );
        }
      }
    }

    /** A section named by an anchor or (edits) `$N` / `$N.K`. */
    resolve(raw: string, i: number): OutlineItem {
      const ref = this.options.single ? null : REF.exec(raw);
      if (!ref) return this.outline.resolve(raw, this.scope);
      const n = Number(ref[1]);
      const k = Number(ref[2] ?? 0);
      const next = 'A $N reference names a section an earlier operation inserted or produced: $0 for op 0, $0.1 for its second section.';
      if (n >= i) throw invalidArgument(`${raw} points at ops[${n}], which does not come before this operation.`, next);
      const ids = this.produced[n];
      if (!ids.length) throw invalidArgument(`${raw} points at ops[${n}], which produced no section.`, next);
      if (k >= ids.length) throw invalidArgument(`${raw} points past the ${ids.length} section(s) ops[${n}] produced.`, next);
      const item = this.outline.find(ids[k]);
      if (!item) throw notFound(`${raw}: the section ops[${n}] produced was deleted by a later operation.`, `Call GET /api/articles/${this.articleUuid}/outline for the current outline.`);
      return item;
    }

    private touch(item: OutlineItem) {
      if (!(item.uuid in this.touched) && !this.produced.some((ids) => ids.includes(item.uuid))) this.touched[item.uuid] = item.rev;
    }

    private checkPrecondition(item: OutlineItem, precondition: Precondition | undefined) {
      if (preconditionHolds(precondition, sectionTag(item.uuid, item.rev))) return;
      const anchor = this.outline.anchorOf(item.uuid);
      // The section as committed: an earlier op of this request may have changed it (none survives
      // the 412), or made it (then there is no current version to name).
      const made = this.produced.some((ids) => ids.includes(item.uuid));
      const committedRev = made ? undefined : (this.touched[item.uuid] ?? item.rev);
      throw preconditionFailed(
        `The section ${anchor} has changed since you read it (it is at revision ${item.rev} now): nothing was changed.`,
        `Call GET /api/articles/${this.articleUuid}/sections/${anchor} for its current version and ETag, merge your change into it, and retry with that ETag in If-Match.`,
        committedRev !== undefined ? sectionTag(item.uuid, committedRev) : undefined,
      );
    }

    /**
     * Reads the rows the request's replace and delete ops name, in one query (the ops' anchors
     * that resolve now; `$N` references and unknown anchors are left to their op, which reads or
     * fails as before). Each is used once, and dropped as soon as anything writes its section.
     */
    async prefetch(ops: EditOp[]): Promise<void> {
      const uuids = new Set<string>();
      for (const [i, op] of ops.entries()) {
        if ((op.op !== 'replace' && op.op !== 'delete') || REF.test(op.section)) continue;
        try {
          uuids.add(this.resolve(op.section, i).uuid);
        } catch {
          // The op itself answers its error, in its turn.
        }
      }
      if (uuids.size < 2) return;
      for (const row of await sections.in(this.trx).rows(this.articleRowId, [...uuids])) this.prefetched.set(row.uuid, row);
    }

    /** Read ahead by prefetch, not yet used nor written. */
    private readonly prefetched = new Map<string, SectionRow>();

    /**
     * New content of replaced sections, not yet written: written together (one statement for
     * all, repositories/sections updateMany) before anything reads or deletes one of those rows,
     * and at the end of the request's ops. Keyed by section id: a section is in it once.
     */
    private readonly unwritten = new Map<string, SectionUpdate>();

    async writePending(): Promise<void> {
      if (!this.unwritten.size) return;
      const updates = [...this.unwritten.values()];
      this.unwritten.clear();
      await sections.in(this.trx).updateMany(this.articleRowId, updates, this.options.actor, this.now);
    }

    private async row(uuid: string): Promise<SectionRow> {
      if (this.unwritten.has(uuid)) await this.writePending();
      const ahead = this.prefetched.get(uuid);
      if (ahead) {
        this.prefetched.delete(uuid);
        return ahead;
      }
      // The outline names it and this transaction holds the article's lock: it is there.
      return (await sections.in(this.trx).row(this.articleRowId, uuid))!;
    }

    private async insertRows(contents: SectionContent[], ranks: string[]): Promise<OutlineItem[]> {
      const added = await sections.insert(this.articleRowId, contents, ranks, this.options.actor, this.now);
      added.forEach((item, i) => this.after.set(item.uuid, { title: contents[i].title, text: textOf(contents[i]) }));
      for (const item of added) this.changes.push({ type: 'section.inserted', sectionId: item.uuid, rev: item.rev });
      return added;
    }

    /** Replaces a section by one or more: the first keeps its id (rev + 1), the others follow it. */
    private async replaceWith(item: OutlineItem, contents: SectionContent[], before: SectionRow): Promise<string[]> {
      this.history.keep(before);
      if (!this.before.has(item.uuid)) this.before.set(item.uuid, { title: String(before.title ?? ''), text: textOf(before) });
      const [first, ...rest] = contents;
      this.prefetched.delete(item.uuid);
      if (this.unwritten.has(item.uuid)) await this.writePending();
      this.unwritten.set(item.uuid, { uuid: item.uuid, content: first, rev: item.rev + 1 });
      this.after.set(item.uuid, { title: first.title, text: textOf(first) });
      const replaced: OutlineItem = { uuid: item.uuid, rank: item.rank, level: first.level, title: first.title, words: first.words, source: first.source, rev: item.rev + 1 };
      this.changes.push(
        this.options.restoredRev !== undefined
          ? { type: 'section.replaced', sectionId: item.uuid, rev: replaced.rev, restoredRev: this.options.restoredRev }
          : { type: 'section.replaced', sectionId: item.uuid, rev: replaced.rev },
      );
      const next = this.outline.items[this.outline.indexOf(item.uuid) + 1]?.rank ?? null;
      const added = rest.length ? await this.insertRows(rest, ranksBetween(item.rank, next, rest.length)) : [];
      this.outline = this.outline.with({ upsert: [replaced, ...added] });
      this.rewritten.set(item.uuid, { before: this.rewritten.get(item.uuid)?.before ?? before, ids: [item.uuid, ...added.map((a) => a.uuid)], contents });
      return [replaced.uuid, ...added.map((a) => a.uuid)];
    }

    /**
     * The ranks new sections go between (after / before a section, else the end). New content
     * takes the place of the empty section of an article that has nothing else: it is deleted.
     */
    private async slotBetween(afterItem?: OutlineItem, beforeItem?: OutlineItem): Promise<{ lower: string | null; upper: string | null }> {
      const bounds = slotBounds(this.outline.items as OutlineItem[], {
        afterIndex: afterItem && this.outline.indexOf(afterItem.uuid),
        beforeIndex: beforeItem && this.outline.indexOf(beforeItem.uuid),
      });
      const only = this.outline.size === 1 ? this.outline.items[0] : undefined;
      if (!only || !looksEmpty(only) || (await this.row(only.uuid))?.markdown !== '') return bounds;
      this.prefetched.delete(only.uuid);
      if (this.unwritten.has(only.uuid)) await this.writePending();
      await sections.in(this.trx).remove(this.articleRowId, only.uuid);
      this.after.delete(only.uuid);
      this.changes.push({ type: 'section.deleted', sectionId: only.uuid });
      this.outline = this.outline.with({ remove: [only.uuid] });
      return { lower: null, upper: null };
    }

    private placement(op: { after?: string; before?: string }, i: number) {
      const afterItem = op.after !== undefined ? this.resolve(op.after, i) : undefined;
      const beforeItem = op.before !== undefined ? this.resolve(op.before, i) : undefined;
      return { afterItem, beforeItem };
    }

    private record(result: OpResult, ids: { added?: string[]; updated?: string[] } = {}, diff?: DiffPart[]) {
      if (this.options.dryRun && diff) this.diffParts.set(this.results.length, diff);
      const entries = new Map<string, OutlineEntry>();
      for (const id of [...(ids.added ?? []), ...(ids.updated ?? [])]) {
        const item = this.outline.find(id);
        if (item) entries.set(id, this.outline.entry(item));
      }
      this.results.push(result);
      this.ids.push({ ...ids, entries });
    }

    async run(op: EditOp, i: number, contents: SectionContent[] | undefined, precondition: Precondition | undefined): Promise<void> {
      const full = (item?: OutlineItem) => item?.uuid;
      switch (op.op) {
        case 'insert': {
          const { afterItem, beforeItem } = this.placement(op, i);
          if (afterItem) this.touch(afterItem);
          if (beforeItem) this.touch(beforeItem);
          const { lower, upper } = await this.slotBetween(afterItem, beforeItem);
          const added = await this.insertRows(contents!, ranksBetween(lower, upper, contents!.length));
          this.outline = this.outline.with({ upsert: added });
          const ids = added.map((a) => a.uuid);
          this.produced.push(ids);
          this.resolvedOps.push({ ...op, after: full(afterItem), before: full(beforeItem) });
          this.record({ op: 'insert' }, { added: ids }, [{ anchor: this.outline.anchorOf(ids[0]), before: '', after: contents!.map((c) => textOf(c)).join('\n\n') }]);
          return;
        }
        case 'replace': {
          const item = this.resolve(op.section, i);
          this.touch(item);
          this.checkPrecondition(item, precondition);
          const before = await this.row(item.uuid);
          const ids = await this.replaceWith(item, contents!, before);
          this.produced.push(ids);
          this.resolvedOps.push({ ...op, section: item.uuid });
          this.record({ op: 'replace' }, { updated: ids }, [
            { anchor: this.outline.anchorOf(item.uuid), before: textOf(before), after: contents!.map((c) => textOf(c)).join('\n\n') },
          ]);
          return;
        }
        case 'move': {
          const moving = this.resolve(op.section, i);
          this.touch(moving);
          const field = op.after !== undefined ? 'after' : 'before';
          const target = this.resolve(op[field]!, i);
          this.touch(target);
          this.checkPrecondition(moving, precondition);
          if (target.uuid === moving.uuid) {
            throw invalidArgument(`${field} names the section being moved.`, `Pass as "${field}" the anchor of another section.`);
          }
          const others = this.outline.items.filter((item) => item.uuid !== moving.uuid);
          const targetIndex = others.indexOf(target);
          const { lower, upper } = slotBounds(others, field === 'after' ? { afterIndex: targetIndex } : { beforeIndex: targetIndex });
          const inPlace = (lower === null || moving.rank > lower) && (upper === null || moving.rank < upper);
          if (!inPlace) {
            const rank = ranksBetween(lower, upper, 1)[0];
            // Moving is not a change of content: rev and updatedAt stay.
            this.prefetched.delete(moving.uuid);
            await sections.in(this.trx).setRank(this.articleRowId, moving.uuid, rank);
            this.outline = this.outline.with({ upsert: [{ ...moving, rank }] });
          }
          this.changes.push({ type: 'section.moved', sectionId: moving.uuid, rev: moving.rev });
          this.produced.push([moving.uuid]);
          this.resolvedOps.push({ ...op, section: moving.uuid, [field]: target.uuid });
          this.record({ op: 'move' });
          return;
        }
        case 'delete': {
          const doomed = this.resolve(op.section, i);
          this.touch(doomed);
          this.checkPrecondition(doomed, precondition);
          const anchor = this.outline.anchorOf(doomed.uuid);
          const row = await this.row(doomed.uuid);
          if (!this.before.has(doomed.uuid)) this.before.set(doomed.uuid, { title: String(row.title ?? ''), text: textOf(row) });
          await trash.in(this.trx).put(this.articleRowId, row!, this.options.actor, this.now);
          this.prefetched.delete(doomed.uuid);
          await sections.in(this.trx).remove(this.articleRowId, doomed.uuid);
          this.after.delete(doomed.uuid);
          this.changes.push({ type: 'section.deleted', sectionId: doomed.uuid });
          this.deleted.push(doomed.uuid);
          this.outline = this.outline.with({ remove: [doomed.uuid] });
          if (this.outline.size === 0) {
            const empty = await this.insertRows([emptySection()], ranksBetween(null, null, 1));
            this.outline = this.outline.with({ upsert: empty });
          }
          this.produced.push([]);
          this.resolvedOps.push({ ...op, section: doomed.uuid });
          this.record({ op: 'delete', removed: [anchor] }, {}, [{ anchor, before: textOf(row), after: '' }]);
          return;
        }
        case 'replaceText': {
          await this.replaceText(op, i, precondition);
          return;
        }
      }
    }

    /**
     * replaceText (CONTRACT sections 11 and 20): counts first, in every target, then checks the
     * count and the size each section would have, and only then builds the new text. Markdown
     * sections are matched in their source; html sections in their text (domain/html-replace,
     * in a worker), where an occurrence across an element boundary does not count.
     */
    private async replaceText(op: Extract<EditOp, { op: 'replaceText' }>, i: number, precondition: Precondition | undefined) {
      const count = op.count ?? 1;
      let targets: OutlineItem[];
      if (op.section !== undefined) {
        const item = this.resolve(op.section, i);
        this.checkPrecondition(item, precondition);
        targets = [item];
      } else {
        targets = [...this.outline.items];
      }
      await this.writePending();
      const rows = await sections.in(this.trx).rows(this.articleRowId, targets.map((t) => t.uuid));
      const byId = new Map(rows.map((row) => [row.uuid, row]));
      const found: Array<{ item: OutlineItem; row: SectionRow; n: number; length: number }> = [];
      let crossing = 0;
      let crossingExample: string | null = null;
      let markupOnly = false;
      for (const item of targets) {
        const row: SectionRow | undefined = byId.get(item.uuid);
        if (!row) continue;
        if (row.source === 'html') {
          const html: string = row.html ?? '';
          const counted = await workers().countHtmlText({ html, find: op.find });
          found.push({ item, row, n: counted.inText, length: html.length });
          crossing += counted.crossing;
          crossingExample ??= counted.crossingExample;
          markupOnly ||= counted.markupOnly;
        } else {
          const markdown: string = row.markdown ?? '';
          found.push({ item, row, n: occurrences(markdown, op.find), length: markdown.length });
        }
      }
      const total = found.reduce((sum, f) => sum + f.n, 0);
      const where = op.section !== undefined ? `section ${this.outline.anchorOf(targets[0].uuid)}` : 'the article\'s sections';
      if (total !== count) {
        const across = crossing
          ? ` (${plural(crossing, 'more occurrence')} ${crossing === 1 ? 'runs' : 'run'} across an element boundary${crossingExample ? `, as in "${crossingExample}"` : ''}, and ${crossing === 1 ? 'does' : 'do'} not count)`
          : '';
        const markup = total === 0 && !crossing && markupOnly ? ': it matches only markup (tags or attributes), and replaceText changes only the text a reader sees' : '';
        throw invalidArgument(
          `find occurs ${plural(total, 'time')} in ${where}, not ${count}${across}${markup}: nothing was replaced.`,
          markup
            ? 'Pass text as a reader sees it (character references like &amp; decoded), or change markup with a replace operation with "html".'
            : total === 0 && crossing
              ? 'In an html section an occurrence must lie inside one run of text: pass a "find" that does not span formatting (bold, links...), or use a replace operation with "html".'
              : total === 0
                ? `Read the section(s) again (GET /api/articles/${this.articleUuid}/sections/{anchor}) and pass text that is there.`
                : `Pass "count": ${total} to replace all of them, or a longer "find" that occurs exactly ${count === 1 ? 'once' : `${count} times`}.`,
        );
      }
      // The size each section would have, from the count: nothing is built past the limit.
      const grow = op.replace.length - op.find.length;
      for (const { item, row, n, length } of found) {
        const limit = row.source === 'html' ? LIMITS.html : LIMITS.markdown;
        if (n && length + n * grow > limit) throw this.tooLarge(item, length + n * grow, limit);
      }
      const updated: string[] = [];
      const diffs: DiffPart[] = [];
      for (const { item, row, n } of found) {
        if (!n) continue;
        this.touch(item);
        const anchor = this.outline.anchorOf(item.uuid);
        let split: SectionContent[];
        if (row.source === 'html') {
          const content: SectionContent = await workers().replaceHtmlText({ html: row.html ?? '', find: op.find, replace: op.replace });
          if (content.html.length > LIMITS.html) throw this.tooLarge(item, content.html.length, LIMITS.html);
          split = content.html.trim() ? [content] : [];
        } else {
          const markdown = (row.markdown as string).split(op.find).join(op.replace);
          split = markdown.trim() ? await workers().splitMarkdown(markdown) : [];
        }
        if (!split.length) {
          throw invalidArgument(`Section ${anchor} would be empty after the replacement.`, 'Use a delete operation to remove a section.');
        }
        updated.push(...(await this.replaceWith(item, split, row)));
        diffs.push({ anchor, before: textOf(row), after: split.map((c) => textOf(c)).join('\n\n') });
      }
      this.produced.push(updated);
      this.resolvedOps.push(op.section !== undefined ? { ...op, section: targets[0].uuid } : op);
      this.record({ op: 'replaceText', replaced: total }, { updated }, diffs);
    }

    private tooLarge(item: OutlineItem, length: number, limit: number) {
      return invalidArgument(
        `Section ${this.outline.anchorOf(item.uuid)} would be ${length.toLocaleString('en')} characters after the replacement, more than the limit of ${limit.toLocaleString('en')}: nothing was replaced.`,
        'Replace fewer occurrences (a longer "find", or a "section"), or a shorter "replace"; or split the section into smaller ones first.',
      );
    }

    /** Puts a section of the trash back, with its id, content, revision and history. */
    async restoreTrashed(row: TrashedSection, placement: { after?: string; before?: string }): Promise<void> {
      const { afterItem, beforeItem } = this.placement(placement, 0);
      const { lower, upper } = await this.slotBetween(afterItem, beforeItem);
      const rank = ranksBetween(lower, upper, 1)[0];
      const content: SectionContent = {
        level: row.level,
        title: row.title,
        words: row.words,
        source: row.source as SectionContent['source'],
        markdown: row.markdown,
        html: row.html,
        htmlText: row.source === 'html' ? (await workers().canvasSection(row.html ?? '')).htmlText : null,
      };
      await sections.reinsert(this.articleRowId, { uuid: row.uuid, rank, content, rev: row.rev, by: row.by, createdAt: this.now, updatedAt: row.madeAt ?? this.now });
      await trash.in(this.trx).remove(this.articleRowId, row.uuid);
      this.after.set(row.uuid, { title: row.title, text: textOf(content) ?? '' });
      const item: OutlineItem = { uuid: row.uuid, rank, level: row.level, title: row.title, words: row.words, source: row.source as OutlineItem['source'], rev: row.rev };
      this.outline = this.outline.with({ upsert: [item] });
      this.changes.push({ type: 'section.restored', sectionId: row.uuid, rev: item.rev });
      this.restored.set(row.uuid, { html: row.html });
      this.produced.push([row.uuid]);
    }

    outcome(outlineRev: number): EditOutcome {
      // Entries as the article stands at the end of the request (anchors may have grown).
      const results = this.results.map((result, i) => {
        const { added, updated, entries } = this.ids[i];
        const final = (ids: string[]) => ids.map((id) => (this.outline.find(id) ? this.outline.entry(this.outline.find(id)!) : entries.get(id)!)).filter(Boolean);
        const out: OpResult = { op: result.op };
        if (added) out.added = final(added);
        if (updated) out.updated = final(updated);
        if (result.removed) out.removed = result.removed;
        if (result.replaced !== undefined) out.replaced = result.replaced;
        if (result.diff !== undefined) out.diff = result.diff;
        return out;
      });
      return {
        articleUuid: this.articleUuid,
        results,
        outline: this.outline,
        outlineRev,
        produced: this.produced,
        touched: this.touched,
        resolvedOps: this.resolvedOps,
        diffParts: this.diffParts,
      };
    }
  }

  return {
    apply,
    withSession,
  };
};
