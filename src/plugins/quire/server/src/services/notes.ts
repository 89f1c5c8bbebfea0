/**
 * Notes and the premise: the Brief of an article (CONTRACT section 8). Note writes take the
 * article's write lock; SQL is in repositories/notes and repositories/articles.
 */
import type { Core } from '@strapi/strapi';
import { anchorsOf, resolveAnchor, sortIds, type AnchorScope } from '../domain/anchors';
import { inTransaction, iso } from '#kernel/db';
import { preconditionFailed, preconditionHolds, type Precondition } from '#kernel/conditional';
import { noteTag } from '../domain/etags';
import { articleRepository } from '../repositories/articles';
import { noteRepository, type NewNote } from '../repositories/notes';
import { premiseRevisionRepository } from '../repositories/premise-revisions';
import { articleNotFound, articleRowId, articleUuid, foundByAnchor, lockArticle } from './article-lookup';
import type { EventActor } from '../domain/article-events';

import { NOTE_KINDS, type NoteAuthor, type NoteKind, type NoteMapEntry, type NoteRecord } from '../schemas/records';
import { getService } from './get-service';

export { NOTE_KINDS };
export type { NoteAuthor, NoteKind, NoteMapEntry, NoteRecord };

export interface NoteInput {
  kind: NoteKind;
  title: string;
  body?: string | null;
  url?: string | null;
}

export type NotePatch = Partial<NoteInput>;

export const noteScope = (articleId: string): AnchorScope => ({
  item: 'note',
  listRoute: `GET /api/articles/${articleId}/notes`,
});

/** A note without a body stores null; an empty body is no body. */
const bodyOf = (body: string | null | undefined) => (body ? body : null);
const urlOf = (url: string | null | undefined) => (url ? url : null);

const mapEntry = (row, anchor: string): NoteMapEntry => ({ anchor, kind: row.kind, title: row.title, url: row.url ?? null });

const fullRecord = (row, anchor: string): NoteRecord => ({
  anchor,
  kind: row.kind,
  title: row.title,
  body: row.body ?? null,
  url: row.url ?? null,
  createdBy: row.author,
  html: row.html ?? '',
});

/** Rows in the order the notes were added, with their anchors. */
function withAnchors<T extends { id: number | string; uuid: string }>(rows: T[]): { row: T; anchor: string }[] {
  const anchors = anchorsOf(rows.map((r) => r.uuid));
  return [...rows].sort((a, b) => Number(a.id) - Number(b.id)).map((row) => ({ row, anchor: anchors.get(row.uuid)! }));
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const notes = noteRepository(strapi);
  const articles = articleRepository(strapi);
  const premises = premiseRevisionRepository(strapi);
  const workers = () => getService(strapi, 'workers');
  const events = () => getService(strapi, 'events');
  const changeSets = () => getService(strapi, 'changeSets');
  /** Who an article event names when a caller passes no actor (other plugins' agents). */
  const someone = (kind: EventActor['kind'] = 'human'): EventActor => ({ kind, name: '' });

  const toMap = (rows) => withAnchors(rows).map(({ row, anchor }) => mapEntry(row, anchor));

  function resolve(rows: { uuid: string }[], rawAnchor: string, articleId: string): string {
    return resolveAnchor(sortIds(rows.map((r) => r.uuid)), rawAnchor, noteScope(articleId));
  }

  /** 412 unless the note (found under the article's lock) is at the revision If-Match names. */
  function checkPrecondition(rows: { uuid: string; rev: number }[], uuid: string, precondition: Precondition | undefined, articleId: string) {
    const row = rows.find((r) => r.uuid === uuid)!;
    const current = noteTag(uuid, Number(row.rev));
    if (preconditionHolds(precondition, current)) return;
    const anchor = anchorsOf(rows.map((r) => r.uuid)).get(uuid);
    throw preconditionFailed(
      `The note ${anchor} has changed since you read it (it is at revision ${row.rev} now): nothing was changed.`,
      `Call GET /api/articles/${articleId}/notes/${anchor} for its current version and ETag, merge your change into it, and retry with that ETag in If-Match.`,
      current,
    );
  }

  const api = {
    /** The notes map of an article row. */
    async mapOf(articleRowId: number): Promise<NoteMapEntry[]> {
      return toMap(await notes.mapRows(articleRowId));
    },

    /** Full notes of an article row, in the order they were added. */
    async recordsOf(articleRowId: number): Promise<NoteRecord[]> {
      const rows = await notes.fullRows(articleRowId);
      return withAnchors(rows).map(({ row, anchor }) => fullRecord(row, anchor));
    },

    /** The HTML of each note's body, rendered off the event loop (before any transaction). */
    async renderBodies(inputs: NoteInput[]): Promise<string[]> {
      const htmls: string[] = [];
      // One at a time: a long list of notes takes one worker, not the whole pool.
      for (const input of inputs) htmls.push(input.body ? await workers().renderMarkdown(input.body) : '');
      return htmls;
    },

    /** Inserts notes of an article row (one INSERT per batch), keeping their order; `htmls` from renderBodies. */
    async insertMany(articleRowId: number, inputs: NoteInput[], createdBy: NoteAuthor, htmls: string[]): Promise<string[]> {
      const rows: NewNote[] = inputs.map((input, i) => ({ kind: input.kind, title: input.title, body: bodyOf(input.body), url: urlOf(input.url), html: htmls[i] }));
      return notes.insertMany(articleRowId, rows, createdBy);
    },

    async list(userId: number, rawArticleId: string): Promise<NoteMapEntry[]> {
      return api.mapOf(await articleRowId(strapi, userId, rawArticleId));
    },

    /** One note by anchor (see findByAnchor: one indexed query). */
    async get(userId: number, rawArticleId: string, rawAnchor: string): Promise<NoteRecord> {
      return (await api.getTagged(userId, rawArticleId, rawAnchor)).note;
    },

    /** One note and its ETag. */
    async getTagged(userId: number, rawArticleId: string, rawAnchor: string): Promise<{ note: NoteRecord; etag: string }> {
      const { row, anchor } = await foundByAnchor(notes.byAnchor, {
        userId,
        rawArticleId,
        rawAnchor,
        scope: noteScope(articleUuid(rawArticleId)),
      });
      return { note: fullRecord(row, anchor), etag: noteTag(row.uuid, Number(row.rev)) };
    },

    async add(userId: number, rawArticleId: string, input: NoteInput, createdBy: NoteAuthor, actor: EventActor = someone(createdBy)) {
      const htmls = await api.renderBodies([input]);
      return inTransaction(strapi, async (trx) => {
        const { id: articleRowId } = await lockArticle(strapi, trx, userId, rawArticleId, { outline: false });
        const [uuid] = await api.insertMany(articleRowId, [input], createdBy, htmls);
        await events().record({ articleId: articleUuid(rawArticleId), ownerId: userId }, actor, [{ type: 'note.added', noteId: uuid, rev: 1 }]);
        await changeSets().recordNotes(trx, { articleRow: articleRowId, articleId: articleUuid(rawArticleId), actor, notes: [{ id: uuid, title: input.title }] });
        const all = withAnchors(await notes.in(trx).fullRows(articleRowId));
        const created = all.find(({ row }) => row.uuid === uuid)!;
        return { note: fullRecord(created.row, created.anchor), notes: all.map(({ row, anchor }) => mapEntry(row, anchor)), etag: noteTag(uuid, 1) };
      });
    },

    /** Changes only the fields passed, in one UPDATE (concurrent patches of other fields survive). */
    async update(userId: number, rawArticleId: string, rawAnchor: string, patch: NotePatch, precondition?: Precondition, actor: EventActor = someone()) {
      const articleId = articleUuid(rawArticleId);
      const html = 'body' in patch ? (patch.body ? await workers().renderMarkdown(patch.body) : '') : undefined;
      return inTransaction(strapi, async (trx) => {
        const { id: articleRowId } = await lockArticle(strapi, trx, userId, rawArticleId, { outline: false });
        const rows = await notes.in(trx).mapRows(articleRowId);
        const uuid = resolve(rows, rawAnchor, articleId);
        checkPrecondition(rows, uuid, precondition, articleId);
        const changes: Partial<NewNote> = {};
        if (patch.kind !== undefined) changes.kind = patch.kind;
        if (patch.title !== undefined) changes.title = patch.title;
        if ('body' in patch) Object.assign(changes, { body: bodyOf(patch.body), html });
        if ('url' in patch) changes.url = urlOf(patch.url);
        const updated = await notes.in(trx).update(articleRowId, uuid, changes);
        await events().record({ articleId, ownerId: userId }, actor, [{ type: 'note.updated', noteId: uuid, rev: Number(updated.rev) }]);
        await changeSets().recordNotes(trx, { articleRow: articleRowId, articleId, actor, notes: [{ id: uuid, title: String(updated.title ?? '') }] });
        const fresh = rows.map((row) => (row.uuid === uuid ? updated : row));
        const all = withAnchors(fresh);
        const anchor = all.find(({ row }) => row.uuid === uuid)!.anchor;
        return { note: fullRecord(updated, anchor), notes: all.map(({ row, anchor: a }) => mapEntry(row, a)), etag: noteTag(uuid, Number(updated.rev)) };
      });
    },

    async remove(userId: number, rawArticleId: string, rawAnchor: string, precondition?: Precondition, actor: EventActor = someone()) {
      const articleId = articleUuid(rawArticleId);
      return inTransaction(strapi, async (trx) => {
        const { id: articleRowId } = await lockArticle(strapi, trx, userId, rawArticleId, { outline: false });
        const rows = await notes.in(trx).mapRows(articleRowId);
        const uuid = resolve(rows, rawAnchor, articleId);
        checkPrecondition(rows, uuid, precondition, articleId);
        await notes.in(trx).remove(articleRowId, uuid);
        await events().record({ articleId, ownerId: userId }, actor, [{ type: 'note.deleted', noteId: uuid }]);
        await changeSets().recordNotes(trx, { articleRow: articleRowId, articleId, actor, notes: [{ id: uuid, title: String(rows.find((row) => row.uuid === uuid)?.title ?? '') }] });
        return { notes: toMap(rows.filter((row) => row.uuid !== uuid)) };
      });
    },

    /** The premise's versions, newest first. */
    async premiseRevisions(userId: number, rawArticleId: string) {
      const id = await articleRowId(strapi, userId, rawArticleId);
      const rows = await premises.list(id);
      return rows.map((row) => ({
        rev: Number(row.rev),
        premise: row.premise ?? null,
        by: row.by_kind ? { kind: row.by_kind, name: row.by_name ?? '' } : null,
        at: iso(row.made_at)!,
      }));
    },

    /** The Brief: premise and full notes. */
    async brief(userId: number, rawArticleId: string) {
      const uuid = articleUuid(rawArticleId);
      const article = await articles.premiseOf(userId, uuid);
      if (!article) throw articleNotFound(rawArticleId);
      return { premise: article.premise, notes: await api.recordsOf(article.id) };
    },

    /**
     * Sets or (null, "") clears the premise, keeping it in the premise's history; `actor` names who
     * (history and the article event). `coalesceSeconds` (the live canvas): the same person's
     * change within that many seconds of their last one replaces it in history (one per burst).
     */
    async setPremise(userId: number, rawArticleId: string, premise: string | null, actor: EventActor = someone(), options: { coalesceSeconds?: number } = {}) {
      const uuid = articleUuid(rawArticleId);
      const value = premise ? premise : null;
      const now = new Date();
      await inTransaction(strapi, async (trx) => {
        const before = await premises.in(trx).article(userId, uuid);
        if (!before) throw articleNotFound(rawArticleId);
        await lockArticle(strapi, trx, userId, rawArticleId, { outline: false });
        await premises.in(trx).setPremise(before.id, value, now);
        // One truth for the live canvas: the article's stored Yjs state holds the premise too.
        await getService(strapi, 'liveState').afterPremise(trx, before.id, value ?? '');
        const last = await premises.in(trx).last(before.id);
        const row = { premise: value, by_kind: actor.kind, by_name: actor.name, made_at: now };
        const burst =
          last && options.coalesceSeconds !== undefined && last.by_kind === actor.kind && last.by_name === actor.name &&
          now.getTime() - new Date(iso(last.made_at)!).getTime() < options.coalesceSeconds * 1000;
        if (burst) {
          await premises.in(trx).replace(Number(last.id), row);
        } else {
          let rev = last ? Number(last.rev) + 1 : 1;
          // The premise from before history was kept is its first version.
          if (!last && before.premise) {
            await premises.in(trx).insert({ article_id: before.id, rev, premise: before.premise, by_kind: null, by_name: null, made_at: before.updatedAt });
            rev += 1;
          }
          await premises.in(trx).insert({ article_id: before.id, rev, ...row });
        }
        await events().record({ articleId: uuid, ownerId: userId }, actor, [{ type: 'brief.changed', rev: null }]);
        if (!burst) await changeSets().recordNotes(trx, { articleRow: before.id, articleId: uuid, actor, notes: [{ id: 'premise', title: 'Premise' }] });
      });
      return { premise: value };
    },
  };
  return api;
};
