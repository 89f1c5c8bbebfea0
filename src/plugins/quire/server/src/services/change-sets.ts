/**
 * Change sets (CONTRACT 23): every write that changes an article's text or structure is one
 * record of who, why, when and which sections (with their text before and after), recorded in
 * the write's own transaction (services/edits calls `recordEdit` under the article's lock;
 * services/notes `recordNotes`). An editor's typing in the live canvas is coalesced as its
 * revisions are: a write of the same editor to the same one section within the coalescing
 * window extends the previous change set.
 *
 * Reads: the list (newest first, filters, cursor), one change set with its word-level diff,
 * the authors of a section (its change sets replayed: domain/change-sets replaySpans) and the
 * article's words by author. Revert: domain/change-sets planRevert in the text as it is now,
 * written back through the edits engine (so history, the live canvas and events see it) as one
 * change set of its own. Events out: Strapi webhook events (`change.applied`, `change.reverted`,
 * `suggestion.created`, `suggestion.decided`) after the commit.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { ApiError, invalidArgument, notFound } from '#kernel/errors';
import { iso } from '#kernel/db';
import { anchorOf, anchorsOf, newId, type AnchorScope } from '../domain/anchors';
import type { ArticleChange } from '../domain/article-events';
import { planRevert, replaySpans, wordCounts, wordDiff, type Author, type RevertConflict, type Span } from '../domain/change-sets';
import { countWords } from '../domain/markdown';
import { Outline } from '../domain/outline';
import { sectionTag } from '../domain/etags';
import type { EditOp } from '../schemas/inputs/edits';
import { changeSetRepository, type ChangeSetRow, type ChangeSetSectionRow, type NewSection } from '../repositories/change-sets';
import { sectionRepository, type SectionRow } from '../repositories/sections';
import { articleRowId, articleUuid, foundByAnchor } from './article-lookup';
import type { Actor } from './edit-types';
import { currentWrite, withWrite } from './write-context';
import { getService } from './get-service';

/** A section's text as change sets keep it: its Markdown, or its HTML when HTML is canonical. */
export const sectionText = (row: { source: string; markdown: string | null; html: string | null }) => (row.source === 'html' ? (row.html ?? '') : (row.markdown ?? ''));

/** Texts longer than this are not kept (the change set still counts its words; it has no diff and cannot be reverted). */
export const CHANGE_TEXT_LIMIT = 1_000_000;

export type ChangeStatus = 'applied' | 'pending' | 'accepted' | 'rejected' | 'reverted';

export const WEBHOOK_EVENTS = {
  CHANGE_APPLIED: 'change.applied',
  CHANGE_REVERTED: 'change.reverted',
  SUGGESTION_CREATED: 'suggestion.created',
  SUGGESTION_DECIDED: 'suggestion.decided',
} as const;

const changeScope = (articleId: string): AnchorScope => ({ item: 'change set', listRoute: `GET /api/articles/${articleId}/changes` });

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const capped = (text: string) => (text.length > CHANGE_TEXT_LIMIT ? null : text);
const CURSOR = /^c(\d{1,15})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}/;
/** How many of a section's change sets the authors' replay reads (older text is unattributed). */
const REPLAY_LIMIT = 500;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repo = changeSetRepository(strapi);
  const sections = sectionRepository(strapi);
  const edits = () => getService(strapi, 'edits');

  /** Runs `fn` once the open transaction commits (now, outside one). */
  async function afterCommit(fn: () => void | Promise<void>) {
    const run = () => void Promise.resolve(fn()).catch((error) => strapi.log.warn(`quire: a change set event was not sent: ${(error as Error).message}`));
    if (!strapi.db.inTransaction()) return run();
    await strapi.db.transaction(async ({ onCommit }) => onCommit(run));
  }

  /** Emits a webhook event with a change set record built in memory (the hot path: no query), once committed. */
  async function emitRecord(event: string, articleId: string, changeSet: Record<string, unknown>) {
    await afterCommit(() => void strapi.eventHub?.emit(event, { article: { id: articleId }, changeSet }));
  }

  /** Emits a webhook event (Settings > Webhooks) with the change set as payload, once committed. */
  async function emit(event: string, articleRow: number, articleId: string, uuid: string) {
    await afterCommit(async () => {
      const row = await repo.byUuid(articleRow, uuid);
      if (!row) return;
      const record = await recordsOf(articleRow, [row]);
      strapi.eventHub?.emit(event, { article: { id: articleId }, changeSet: record[0] });
    });
  }

  // ---- Records ----

  /** Current section ids (for anchors) of an article. */
  async function sectionIds(k: Knex | null, articleRow: number): Promise<string[]> {
    const items = k ? await sections.in(k).items(articleRow) : await sections.items(articleRow);
    return items.map((item) => item.uuid);
  }

  /** Change set records of rows (with their sections' anchors among the article's sections now, or with the ids of sections gone). */
  async function recordsOf(articleRow: number, rows: ChangeSetRow[], k: Knex | null = null, withTexts = false) {
    const parts = k ? await repo.in(k).sectionsOf(rows.map((r) => Number(r.id)), withTexts) : await repo.sectionsOf(rows.map((r) => Number(r.id)), withTexts);
    const current = await sectionIds(k, articleRow);
    const gone = parts.map((p) => p.section_uuid).filter((id) => !current.includes(id));
    const anchors = anchorsOf([...new Set([...current, ...gone])]);
    const byId = new Map<number, ChangeSetSectionRow[]>();
    for (const part of parts) byId.set(Number(part.change_set_id), [...(byId.get(Number(part.change_set_id)) ?? []), part]);
    return rows.map((row) => ({
      id: row.uuid,
      anchor: anchorOf(row.uuid, row.prev, row.next),
      by: { kind: row.by_kind as Actor['kind'], name: row.by_name },
      reason: row.reason ?? null,
      at: iso(row.at)!,
      status: row.status as ChangeStatus,
      run: row.run ?? null,
      sections: (byId.get(Number(row.id)) ?? []).map((part) => ({
        anchor: anchors.get(part.section_uuid)!,
        title: part.title ?? '',
        inserted: Number(part.inserted),
        deleted: Number(part.deleted),
        ...(part.moved ? { moved: true as const } : {}),
        ...(withTexts ? { diff: part.before_text === null || part.after_text === null ? [] : wordDiff(part.before_text ?? '', part.after_text ?? '') } : {}),
      })),
      ...(json(row.notes) ? { notes: json(row.notes) as Array<{ id: string; title: string }> } : {}),
      revertedBy: row.reverted_by ?? null,
    }));
  }

  async function refOf(k: Knex | null, articleRow: number, uuid: string) {
    const row = k ? await repo.in(k).byUuid(articleRow, uuid) : await repo.byUuid(articleRow, uuid);
    return { id: uuid, anchor: anchorOf(uuid, row?.prev, row?.next) };
  }

  /** The entries of a write: every section it changed, with its text before (from the engine) and after (as stored now). */
  async function drafts(
    trx: Knex,
    articleRow: number,
    changes: ArticleChange[],
    before: Map<string, { title: string; text: string }>,
    after?: Map<string, { title: string; text: string }>,
  ): Promise<NewSection[]> {
    const ids: string[] = [];
    const moved = new Set<string>();
    const fresh = new Set<string>();
    for (const change of changes) {
      if (!('sectionId' in change)) continue;
      if (!ids.includes(change.sectionId)) ids.push(change.sectionId);
      if (change.type === 'section.moved') moved.add(change.sectionId);
      if (change.type === 'section.inserted' || change.type === 'section.restored') fresh.add(change.sectionId);
    }
    if (!ids.length) return [];
    // What the write stored (the engine's `after`) is not read back; the rest (moved or deleted sections) is.
    const unknown = ids.filter((id) => !after?.has(id));
    const rows = new Map(unknown.length ? (await sections.in(trx).rows(articleRow, unknown)).map((row: SectionRow) => [row.uuid, row]) : []);
    const out: NewSection[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      const written = after?.get(id);
      const now = written ? written.text : row ? sectionText(row) : '';
      const was = before.get(id);
      const prior = fresh.has(id) ? '' : was ? was.text : row || written ? now : '';
      if (prior === now && !moved.has(id)) continue; // the empty section an insert replaced, or no change
      const counts = wordCounts(wordDiff(prior, now));
      out.push({ sectionUuid: id, title: String(written?.title ?? row?.title ?? was?.title ?? ''), ...counts, moved: moved.has(id) && prior === now, before: capped(prior), after: capped(now) });
    }
    return out;
  }

  /**
   * The hook of the edits engine (inside its transaction, under the article's lock, after the
   * ops): records the write's change set, or extends the editor's previous one, or fulfils a
   * pending suggestion's. Dry runs record nothing (a suggestion's dry run captures its sections).
   */
  async function recordEdit(
    trx: Knex,
    write: {
      articleRow: number;
      articleId: string;
      actor: Actor;
      dryRun?: boolean;
      coalesceSeconds?: number;
      changes: ArticleChange[];
      before: Map<string, { title: string; text: string }>;
      /** Each section's title and text as the write stored them, when the engine knows them (not read back). */
      after?: Map<string, { title: string; text: string }>;
      at: Date;
      outline?: Outline;
    },
  ): Promise<{ id: string; anchor: string } | null> {
    const context = currentWrite();
    if (write.dryRun) {
      if (context.capture) context.capture.push(...(await drafts(trx, write.articleRow, write.changes, write.before, write.after)));
      return null;
    }
    const entries = await drafts(trx, write.articleRow, write.changes, write.before, write.after);
    const r = repo.in(trx);
    if (context.accepting) {
      const id = await r.idOf(write.articleRow, context.accepting);
      if (id !== undefined) {
        await r.replaceSections(write.articleRow, id, entries);
        await r.setStatus(write.articleRow, context.accepting, ['pending'], 'accepted');
        await emit(WEBHOOK_EVENTS.CHANGE_APPLIED, write.articleRow, write.articleId, context.accepting);
        return (context.changeSet = await refOf(trx, write.articleRow, context.accepting));
      }
    }
    if (!entries.length) return null;
    if (write.coalesceSeconds !== undefined && entries.length === 1 && !entries[0].moved) {
      const last = await r.newest(write.articleRow);
      const recent = last && last.status === 'applied' && last.by_kind === write.actor.kind && last.by_name === write.actor.name && write.at.getTime() - new Date(iso(last.at)!).getTime() < write.coalesceSeconds * 1000;
      if (recent) {
        const parts = await r.sectionsOf([Number(last.id)], true);
        if (parts.length === 1 && parts[0].section_uuid === entries[0].sectionUuid && parts[0].before_text !== null && entries[0].after !== null) {
          const counts = wordCounts(wordDiff(parts[0].before_text ?? '', entries[0].after));
          await r.extend(Number(last.id), entries[0].sectionUuid, { after: entries[0].after, title: entries[0].title, ...counts }, write.at);
          return (context.changeSet = await refOf(trx, write.articleRow, last.uuid));
        }
      }
    }
    const uuid = context.newId ?? newId();
    if (context.acceptedPart) {
      const pendingId = await r.idOf(write.articleRow, context.acceptedPart.suggestion);
      if (pendingId !== undefined) await r.removeSections(pendingId, context.acceptedPart.sections);
    }
    const status = context.acceptedPart ? 'accepted' : 'applied';
    await r.insert(write.articleRow, { uuid, status, by: write.actor, reason: context.reason ?? null, run: context.run ?? null, notes: null, at: write.at }, entries);
    const ref = (context.changeSet = await refOf(trx, write.articleRow, uuid));
    // Anchors among the outline's ids and the entries' (a deleted section's too). When every entry is in the
    // outline that is the outline's own set: its anchors are already computed (no sort of every id per write).
    const outline = write.outline;
    const anchors = !outline
      ? new Map<string, string>()
      : entries.every((e) => outline.find(e.sectionUuid))
        ? new Map(entries.map((e) => [e.sectionUuid, outline.anchorOf(e.sectionUuid)]))
        : anchorsOf([...new Set([...outline.items.map((i) => i.uuid), ...entries.map((e) => e.sectionUuid)])]);
    await emitRecord(WEBHOOK_EVENTS.CHANGE_APPLIED, write.articleId, {
      ...ref,
      by: write.actor,
      reason: context.reason ?? null,
      at: write.at.toISOString(),
      status,
      run: context.run ?? null,
      sections: entries.map((e) => ({ anchor: anchors.get(e.sectionUuid) ?? e.sectionUuid, title: e.title, inserted: e.inserted, deleted: e.deleted, ...(e.moved ? { moved: true } : {}) })),
      revertedBy: null,
    });
    return ref;
  }

  /** The hook of the Brief's writes (services/notes): a change set naming the notes (or the premise) changed. */
  async function recordNotes(trx: Knex, write: { articleRow: number; articleId: string; actor: Actor; notes: Array<{ id: string; title: string }> }) {
    const context = currentWrite();
    const uuid = newId();
    const at = new Date();
    await repo.in(trx).insert(write.articleRow, { uuid, status: 'applied', by: write.actor, reason: context.reason ?? null, run: context.run ?? null, notes: write.notes, at }, []);
    const ref = (context.changeSet = await refOf(trx, write.articleRow, uuid));
    await emitRecord(WEBHOOK_EVENTS.CHANGE_APPLIED, write.articleId, { ...ref, by: write.actor, reason: context.reason ?? null, at: at.toISOString(), status: 'applied', run: context.run ?? null, sections: [], notes: write.notes, revertedBy: null });
    return ref;
  }

  // ---- Suggestions: pending change sets ----

  /** Runs a suggestion's dry run capturing the sections it would change. */
  async function capturing<T>(work: () => Promise<T>): Promise<{ result: T; drafts: NewSection[] }> {
    const captured: NewSection[] = [];
    const result = await withWrite({ capture: captured }, work);
    return { result, drafts: captured };
  }

  /** A new suggestion's pending change set (its id is the suggestion's). */
  async function recordPending(articleRow: number, articleId: string, uuid: string, actor: Actor, entries: NewSection[], reason: string | null) {
    const context = currentWrite();
    await repo.insert(articleRow, { uuid, status: 'pending', by: actor, reason: context.reason ?? reason ?? null, run: context.run ?? null, notes: null, at: new Date() }, entries);
    await emit(WEBHOOK_EVENTS.SUGGESTION_CREATED, articleRow, articleId, uuid);
    return (context.changeSet = await refOf(null, articleRow, uuid));
  }


  /** Pending change sets by suggestion id (the same id): their anchors and reasons, for the canvas's inline marks. */
  async function pendingOf(articleRow: number, uuids: string[]): Promise<Map<string, { id: string; anchor: string; reason: string | null }>> {
    const found = new Map<string, { id: string; anchor: string; reason: string | null }>();
    for (const uuid of uuids) {
      const row = await repo.byUuid(articleRow, uuid);
      if (row) found.set(uuid, { id: uuid, anchor: anchorOf(uuid, row.prev, row.next), reason: row.reason ?? null });
    }
    return found;
  }

  /** A suggestion decided: its change set accepted (the accept's write fills it) or rejected. */
  async function decided(articleRow: number, articleId: string, uuid: string, status: 'accepted' | 'rejected') {
    if (status === 'rejected') await repo.setStatus(articleRow, uuid, ['pending'], 'rejected');
    await emit(WEBHOOK_EVENTS.SUGGESTION_DECIDED, articleRow, articleId, uuid);
    return (currentWrite().changeSet = await refOf(null, articleRow, uuid));
  }

  /**
   * A pending suggestion rejected for some sections (inside the reject's transaction): those
   * sections leave its pending change set for a `rejected` one of their own, recorded as a
   * partial accept is (the author's, with the reviewer's reason); the rest stays pending.
   */
  async function rejectedPart(trx: Knex, articleRow: number, articleId: string, suggestion: string, sectionIds: string[], reason: string | null) {
    const r = repo.in(trx);
    const pending = await r.byUuid(articleRow, suggestion);
    const uuid = newId();
    const at = new Date();
    const by = pending ? { kind: pending.by_kind, name: pending.by_name } : { kind: 'agent', name: '' };
    const id = await r.insert(articleRow, { uuid, status: 'rejected', by, reason, run: pending?.run ?? null, notes: null, at }, []);
    if (pending) await r.moveSections(Number(pending.id), id, sectionIds);
    await emit(WEBHOOK_EVENTS.SUGGESTION_DECIDED, articleRow, articleId, uuid);
    return (currentWrite().changeSet = await refOf(trx, articleRow, uuid));
  }

  // ---- Reads ----

  async function list(userId: number, rawArticleId: string, query: { since?: string; by?: string; run?: string; section?: string; limit?: number; cursor?: string }) {
    const articleRow = await articleRowId(strapi, userId, rawArticleId);
    const articleId = articleUuid(rawArticleId);
    const limit = query.limit ?? 50;
    const filter: Parameters<typeof repo.page>[1] = { limit: limit + 1, byKind: query.by, run: query.run };
    if (query.cursor !== undefined) {
      const m = CURSOR.exec(query.cursor);
      if (!m) throw invalidArgument('cursor is not one this API gave.', 'Pass the nextCursor of the previous page as it is, or leave cursor out for the first page.');
      filter.beforeId = Number(m[1]);
    }
    if (query.since !== undefined) {
      if (ISO_TIME.test(query.since)) {
        const at = new Date(query.since);
        if (Number.isNaN(at.getTime())) throw invalidArgument(`since "${query.since}" is not an ISO time.`, 'Pass since as an ISO-8601 time (2026-01-31T12:00:00Z) or a change set\'s anchor.');
        filter.sinceAt = at;
      } else {
        const { row } = await foundByAnchor(repo.byAnchor, { userId, rawArticleId, rawAnchor: query.since, scope: changeScope(articleId) });
        filter.sinceId = Number(row.id);
      }
    }
    if (query.section !== undefined) {
      const outline = Outline.of(await sections.items(articleRow));
      const uuid = outline.resolve(query.section, { item: 'section', listRoute: `GET /api/articles/${articleId}/outline` }).uuid;
      filter.section = uuid;
    }
    const rows = await repo.page(articleRow, filter);
    const page = rows.slice(0, limit);
    return { changes: await recordsOf(articleRow, page), nextCursor: rows.length > limit ? `c${page[page.length - 1].id}` : null };
  }

  async function find(userId: number, rawArticleId: string, rawAnchor: string) {
    const articleId = articleUuid(rawArticleId);
    const { row } = await foundByAnchor(repo.byAnchor, { userId, rawArticleId, rawAnchor, scope: changeScope(articleId) });
    const articleRow = await articleRowId(strapi, userId, rawArticleId);
    return { articleRow, articleId, row: (await repo.byUuid(articleRow, row.uuid))! };
  }

  async function get(userId: number, rawArticleId: string, rawAnchor: string) {
    const { articleRow, row } = await find(userId, rawArticleId, rawAnchor);
    const [change] = await recordsOf(articleRow, [row], null, true);
    return { change };
  }

  // ---- Revert ----

  interface Plan {
    ops: EditOp[];
    reverted: string[];
    conflicts: Array<RevertConflict & { section: string }>;
  }

  /** What reverting these change sets (newest first) does to the article as it is now. */
  async function plan(articleRow: number, targets: ChangeSetRow[]): Promise<Plan> {
    const parts = await repo.sectionsOf(targets.map((t) => Number(t.id)), true);
    const items = await sections.items(articleRow);
    const outline = Outline.of(items);
    const ids = [...new Set(parts.map((p) => p.section_uuid))];
    const rows = new Map((await sections.rows(articleRow, ids.filter((id) => outline.find(id)))).map((row: SectionRow) => [row.uuid, row]));
    const anchors = anchorsOf([...new Set([...items.map((i) => i.uuid), ...ids])]);
    const working = new Map<string, string>();
    for (const [id, row] of rows) working.set(id, sectionText(row));
    const conflicts: Plan['conflicts'] = [];
    const reverted: string[] = [];
    const inserts: string[] = [];
    for (const target of targets) {
      let any = false;
      for (const part of parts.filter((p) => Number(p.change_set_id) === Number(target.id))) {
        const section = anchors.get(part.section_uuid)!;
        if (part.moved) {
          conflicts.push({ section, text: part.title ?? '', reason: `A move is not reverted: move the section back with POST .../sections/${section}/move.` });
          continue;
        }
        if (part.before_text === null || part.after_text === null) {
          conflicts.push({ section, text: part.title ?? '', reason: 'The section was too large for its text to be kept: it cannot be reverted.' });
          continue;
        }
        const now = working.get(part.section_uuid);
        if (now === undefined) {
          if (part.after_text === '' && part.before_text !== '') {
            inserts.push(part.before_text ?? '');
            any = true;
          } else conflicts.push({ section, text: part.title ?? '', reason: 'The section was deleted since: there is nothing to revert in it.' });
          continue;
        }
        const result = planRevert(part.before_text ?? '', part.after_text ?? '', now);
        for (const c of result.conflicts) conflicts.push({ section, ...c });
        if (result.reverted) {
          working.set(part.section_uuid, result.text);
          any = true;
        }
      }
      if (any) reverted.push(target.uuid);
    }
    const ops: EditOp[] = [];
    for (const [id, text] of working) {
      const row = rows.get(id)!;
      if (text === sectionText(row)) continue;
      const ifMatch = sectionTag(id, Number(outline.find(id)!.rev));
      if (!text.trim()) ops.push({ op: 'delete', section: id, ifMatch } as EditOp);
      else ops.push((row.source === 'html' ? { op: 'replace', section: id, html: text, ifMatch } : { op: 'replace', section: id, markdown: text, ifMatch }) as EditOp);
    }
    for (const markdown of inserts) ops.push({ op: 'insert', markdown } as EditOp);
    return { ops, reverted, conflicts };
  }

  const nothingReverted = (conflicts: Plan['conflicts'], articleId: string) =>
    new ApiError(
      'conflict',
      `Nothing could be reverted: every passage it changed was changed since (${conflicts.map((c) => `section ${c.section}: "${c.text}"`).join('; ') || 'no passage'}). Nothing was changed.`,
      `Call GET /api/articles/${articleId}/changes for what changed since, and edit the text yourself.`,
    );

  /** The change sets a revert names: one (by anchor) or a run's, with the errors of those that cannot be. */
  async function targetsOf(userId: number, rawArticleId: string, which: { anchor?: string; run?: string }) {
    const articleId = articleUuid(rawArticleId);
    if (which.anchor !== undefined) {
      const { articleRow, row } = await find(userId, rawArticleId, which.anchor);
      const anchor = anchorOf(row.uuid, row.prev, row.next);
      if (row.status === 'reverted') throw new ApiError('conflict', `Change set ${anchor} was already reverted (by ${row.reverted_by}).`, `Call GET /api/articles/${articleId}/changes/${row.reverted_by} for the revert.`);
      if (row.status === 'pending' || row.status === 'rejected') {
        throw new ApiError('conflict', `Change set ${anchor} is a ${row.status} suggestion: it was never applied.`, `Reject it with POST /api/articles/${articleId}/suggestions/${anchor}/reject.`);
      }
      if (json(row.notes) && !(await repo.sectionsOf([Number(row.id)])).length) {
        throw new ApiError('conflict', `Change set ${anchor} changed the Brief (notes or premise), which a revert does not undo.`, `Change the note again with PATCH /api/articles/${articleId}/notes/{nid}.`);
      }
      return { articleRow, articleId, targets: [row] };
    }
    const articleRow = await articleRowId(strapi, userId, rawArticleId);
    const rows = (await repo.ofRun(articleRow, which.run!)).filter((r) => r.status === 'applied' || r.status === 'accepted');
    if (!rows.length) throw notFound(`No change set of the run "${which.run}" is left to revert in this article.`, `Call GET /api/articles/${articleId}/changes?run=${encodeURIComponent(which.run!)} for the run's change sets.`);
    return { articleRow, articleId, targets: rows };
  }

  /**
   * Reverts one change set (or a run's, newest first) in the text as it is now, as one change
   * set of the caller's. A section changed between the plan and the write (412) is planned again.
   */
  async function revert(userId: number, rawArticleId: string, which: { anchor?: string; run?: string }, options: { actor: Actor; dryRun?: boolean }) {
    for (let attempt = 0; ; attempt += 1) {
      const { articleRow, articleId, targets } = await targetsOf(userId, rawArticleId, which);
      const planned = await plan(articleRow, targets);
      const anchors = new Map(targets.map((t) => [t.uuid, anchorOf(t.uuid, t.prev, t.next)]));
      if (!planned.ops.length) throw nothingReverted(planned.conflicts, articleId);
      const answer = (change: Awaited<ReturnType<typeof recordsOf>>[number] | null) => ({ change, reverted: planned.reverted.map((id) => anchors.get(id)!), conflicts: planned.conflicts });
      if (options.dryRun) {
        await edits().apply(userId, rawArticleId, planned.ops, { actor: options.actor, dryRun: true });
        return answer(null);
      }
      const uuid = newId();
      try {
        await withWrite({ newId: uuid, accepting: undefined }, () =>
          edits().apply(userId, rawArticleId, planned.ops, {
            actor: options.actor,
            afterOps: async (trx: Knex) => {
              for (const id of planned.reverted) {
                const done = await repo.in(trx).setStatus(articleRow, id, ['applied', 'accepted'], 'reverted', uuid);
                if (!done) throw new ApiError('conflict', `Change set ${anchors.get(id)} was reverted by someone else meanwhile. Nothing was changed.`, `Call GET /api/articles/${articleId}/changes/${anchors.get(id)}.`);
              }
            },
          }),
        );
      } catch (error) {
        if (error instanceof ApiError && error.code === 'precondition-failed' && attempt < 2) continue;
        throw error;
      }
      for (const id of planned.reverted) await emit(WEBHOOK_EVENTS.CHANGE_REVERTED, articleRow, articleId, id);
      const row = (await repo.byUuid(articleRow, uuid))!;
      const [change] = await recordsOf(articleRow, [row]);
      return answer(change);
    }
  }

  /** The edits a revert would make (a suggest key's revert files them as a suggestion). */
  async function revertOps(userId: number, rawArticleId: string, which: { anchor?: string; run?: string }): Promise<EditOp[]> {
    const { articleRow, articleId, targets } = await targetsOf(userId, rawArticleId, which);
    const planned = await plan(articleRow, targets);
    if (!planned.ops.length) throw nothingReverted(planned.conflicts, articleId);
    return planned.ops;
  }

  // ---- Authorship ----

  async function spansOf(articleRow: number, row: SectionRow): Promise<Span[]> {
    const history = await repo.historyOf(articleRow, row.uuid, REPLAY_LIMIT);
    const changes = history
      .filter((h) => h.before_text !== null && h.after_text !== null)
      .map((h) => ({ before: h.before_text ?? '', after: h.after_text ?? '', by: { kind: h.by_kind, name: h.by_name } as Author, change: h.uuid }));
    return replaySpans(changes, sectionText(row));
  }

  async function authors(userId: number, rawArticleId: string, rawSection: string) {
    const articleRow = await articleRowId(strapi, userId, rawArticleId);
    const articleId = articleUuid(rawArticleId);
    const outline = Outline.of(await sections.items(articleRow));
    const item = outline.resolve(rawSection, { item: 'section', listRoute: `GET /api/articles/${articleId}/outline` });
    const row = (await sections.row(articleRow, item.uuid))!;
    return { spans: await spansOf(articleRow, row) };
  }

  async function authorship(userId: number, rawArticleId: string) {
    const articleRow = await articleRowId(strapi, userId, rawArticleId);
    const items = await sections.items(articleRow);
    const words = { agent: 0, human: 0, editor: 0 };
    const byName = new Map<string, { name: string; kind: Author['kind']; words: number }>();
    for (const row of await sections.rows(articleRow, items.map((i) => i.uuid))) {
      for (const span of await spansOf(articleRow, row)) {
        if (!span.by) continue;
        const n = countWords(span.text);
        if (!n) continue;
        words[span.by.kind] += n;
        const key = `${span.by.kind}\u0000${span.by.name}`;
        const entry = byName.get(key) ?? { name: span.by.name, kind: span.by.kind, words: 0 };
        entry.words += n;
        byName.set(key, entry);
      }
    }
    return { words, byName: [...byName.values()].sort((a, b) => b.words - a.words || a.name.localeCompare(b.name)) };
  }

  /** Webhook events an operator can pick in Settings > Webhooks (bootstrap). */
  function registerWebhookEvents() {
    const store = strapi.get('webhookStore') as { addAllowedEvent?: (key: string, value: string) => void } | undefined;
    for (const [key, value] of Object.entries(WEBHOOK_EVENTS)) store?.addAllowedEvent?.(key, value);
  }

  return {
    recordEdit,
    recordNotes,
    capturing,
    recordPending,
    pendingOf,
    decided,
    rejectedPart,
    list,
    get,
    revert,
    revertOps,
    authors,
    authorship,
    registerWebhookEvents,
  };
};
