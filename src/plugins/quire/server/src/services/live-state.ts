/**
 * One truth per open article (CONTRACT 22; docs/architecture.md "The live canvas"): an article
 * opened live has one stored Yjs state (quire_live_states), and every write that changes its
 * sections or premise changes that state in the same transaction, under the article's lock:
 * the edit engine calls `afterSectionsWrite` (every section write goes through it), the
 * premise `afterPremise`. A person's typing is stored by `store`: the live document's update
 * merged into the stored state, and the sections it changed written through the edit engine,
 * in one transaction. Processes holding the document merge the stored state by state vector
 * (live/), so an update applied twice counts once and a missed event heals at the next.
 *
 * The state is stored as a base plus appended updates (services/live-log): a write appends
 * only the Yjs update it made, compaction folds them into the base in a writer's transaction.
 *
 * Service `liveState` (getService(strapi, 'liveState')).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import * as Y from 'yjs';
import { inTransaction } from '#kernel/db';
import type { ArticleChange, EventActor } from '../domain/article-events';
import type { SectionContent } from '../domain/markdown';
import { Outline } from '../domain/outline';
import { liveRepository } from '../repositories/live';
import { liveLog, savedMarks, savedUpdate, type HeldState as Held } from './live-log';
import { sectionRepository } from '../repositories/sections';
import { lockArticle } from './article-lookup';
import { getService } from './get-service';
import { applyWrite, buildDoc, healDoc, sectionField, setOrder, setText, type OutlineMark, type StoredSection } from '../live/article-doc';
import { storableHtml } from '../live/content';
import type { StoredState, StoreResult, TypedChange } from '../live/ports';

/**
 * Marks revisions recorded by this design (every write in the state's transaction), and its
 * version: 2 keeps the live outline too. A state without it (or of an earlier version) is
 * healed once by content (each section diffed against its row: no change where equal; the
 * outline written whole).
 */
const CURRENT = '$oneTruth';
const VERSION = 2;
const isCurrent = (revs: Record<string, number>) => revs[CURRENT] === VERSION;

/** The live outline's entries (live/article-doc setOutline) of an outline. */
export const outlineMarks = (outline: Outline): Array<OutlineMark & { id: string }> =>
  outline.entriesWithRev().map((entry, i) => ({ id: outline.items[i].uuid, anchor: entry.anchor, level: entry.level, title: entry.title, words: entry.words, source: entry.source, rev: entry.rev }));

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repository = liveRepository(strapi);
  const log = liveLog(strapi);
  const sections = sectionRepository(strapi);
  const service = <K extends Parameters<typeof getService>[1]>(name: K) => getService(strapi, name);
  /** Per open transaction (its Knex handle): the stored states it loaded, by article row id. */
  const open = new WeakMap<object, Map<number, Held | null>>();

  async function held(trx: Knex, articleRowId: number): Promise<Held | null> {
    let byArticle = open.get(trx);
    if (!byArticle) open.set(trx, (byArticle = new Map()));
    if (byArticle.has(articleRowId)) return byArticle.get(articleRowId)!;
    const state = await log.read(trx, articleRowId);
    byArticle.set(articleRowId, state);
    return state;
  }

  const save = (trx: Knex, articleRowId: number, state: Held) => log.save(trx, articleRowId, state);

  /** A section deleted while someone typed in it: its trash entry holds their text (in `trx` when given). */
  async function keepTyped(articleRowId: number, sectionId: string, html: string, trx?: Knex): Promise<void> {
    const content = await service('workers').canvasSection(html || '<p></p>');
    await (trx ? repository.in(trx) : repository).trashContent(articleRowId, sectionId, content);
  }

  /** The article's sections in order with their revisions, and the content of those asked for. */
  async function storedSections(trx: Knex, articleRowId: number, wanted: (item: { uuid: string; rev: number }) => boolean) {
    const outline = Outline.of(await sections.in(trx).items(articleRowId));
    const need = outline.items.filter(wanted).map((item) => item.uuid);
    const html = new Map((await sections.in(trx).rows(articleRowId, need)).map((row) => [row.uuid, String(row.html ?? '')]));
    return { outline, sections: outline.items.map((item): StoredSection => ({ id: item.uuid, rev: Number(item.rev), html: html.get(item.uuid) ?? '' })) };
  }

  /**
   * A section's HTML in a state, or null when even its pruned fragment cannot be written (issue
   * 32, finding 5: saved before the update guard): that section is not stored, the others are.
   */
  const readableHtml = (articleId: string, doc: Y.Doc, sectionId: string) =>
    storableHtml(doc.getXmlFragment(sectionField(sectionId)), (error) => strapi.log.warn(`live ${articleId}: section ${sectionId} not stored: ${error.message}`));

  /**
   * A typed section as the parts it is stored as (CONTRACT 22: a heading at its level or above
   * starts a new one). The split waits while the blocks that would move are still being typed
   * in (they differ from the stored text's): typing that reaches them between the store and
   * the page receiving the split would go into blocks the split deleted. `deferred`: stored
   * whole this time, split at the next store (live/storing asks for it a second later).
   */
  async function splitTyped(html: string, prior: string | null, level: number): Promise<{ contents: SectionContent[]; deferred: boolean }> {
    const workers = service('workers');
    const contents = await workers.splitCanvasSection(html || '<p></p>', level);
    if (contents.length === 1 || prior === html) return { contents, deferred: false };
    const priorParts = prior === null ? [] : await workers.splitCanvasSection(prior || '<p></p>', level);
    const settled = priorParts.length === contents.length && contents.every((part, k) => k === 0 || part.html === priorParts[k].html);
    return settled ? { contents, deferred: false } : { contents: [await workers.canvasSection(html || '<p></p>')], deferred: true };
  }

  const revsOf = (outline: Outline) => ({ ...Object.fromEntries(outline.items.map((item) => [item.uuid, Number(item.rev)])), [CURRENT]: VERSION });

  /**
   * The article's stored state, built from its rows when it has none, and healed where the
   * rows moved on without it (revisions it does not record). In the caller's transaction.
   */
  async function ensure(trx: Knex, articleRowId: number, premise: string): Promise<{ state: Held; changed: boolean }> {
    const state = await held(trx, articleRowId);
    if (!state) {
      const { outline, sections: rows } = await storedSections(trx, articleRowId, () => true);
      const doc = new Y.Doc();
      buildDoc(doc, rows, premise, outlineMarks(outline));
      const built = log.built(doc, revsOf(outline));
      open.get(trx)!.set(articleRowId, built);
      return { state: built, changed: true };
    }
    const revs = isCurrent(state.revs) ? state.revs : {};
    const { outline, sections: rows } = await storedSections(trx, articleRowId, (item) => revs[item.uuid] !== Number(item.rev));
    const changed = healDoc(state.doc, rows, revs, premise, outlineMarks(outline)) || !isCurrent(state.revs);
    if (changed) state.revs = revsOf(outline);
    return { state, changed };
  }

  const api = {
    /**
     * The edit engine's hook (services/edits withSession), in its transaction under the
     * article's lock: the write's sections into the stored state, when the article has one.
     */
    async afterSectionsWrite(trx: Knex, articleRowId: number, write: { changes: ArticleChange[]; actor: EventActor; outline: Outline }): Promise<void> {
      const state = await held(trx, articleRowId);
      if (!state) return;
      const written = new Set<string>();
      const restored: string[] = [];
      const deleted: string[] = [];
      for (const change of write.changes) {
        if (change.type === 'section.deleted') deleted.push(change.sectionId);
        else if (change.type === 'section.inserted' || change.type === 'section.replaced' || change.type === 'section.restored') written.add(change.sectionId);
        if (change.type === 'section.restored') restored.push(change.sectionId);
      }
      const live = [...written].filter((id) => write.outline.find(id));
      const rows = await sections.in(trx).rows(articleRowId, live);
      applyWrite(state.doc, {
        by: write.actor,
        at: new Date().toISOString(),
        written: rows.map((row) => ({ id: row.uuid, rev: Number(row.rev), html: String(row.html ?? '') })),
        restored,
        deleted: deleted.filter((id) => !write.outline.find(id)),
        order: write.outline.items.map((item) => item.uuid),
        outline: outlineMarks(write.outline),
      });
      state.revs = revsOf(write.outline);
      if (state.deferred) state.dirty = true;
      else await save(trx, articleRowId, state);
    },

    /** The premise's hook (services/notes setPremise), in its transaction under the article's lock. */
    async afterPremise(trx: Knex, articleRowId: number, premise: string): Promise<void> {
      const state = await held(trx, articleRowId);
      if (!state || !setText(state.doc.getText('premise'), premise)) return;
      if (state.deferred) state.dirty = true;
      else await save(trx, articleRowId, state);
    },

    /**
     * The stored state of an article being opened: built from the stored article when it has
     * none (then saved), healed where the rows moved on without it. Null: no such article.
     */
    async load(articleId: string): Promise<Uint8Array | null> {
      const article = await repository.article(articleId);
      if (!article || article.user_id == null) return null;
      const saved = await repository.savedState(Number(article.id));
      if (saved) {
        // Mostly nothing to heal: answered without the article's lock.
        const { revs, premise } = savedMarks(saved);
        const items = await sections.items(Number(article.id));
        const premiseAgrees = premise === String(article.premise ?? '');
        if (premiseAgrees && isCurrent(revs) && items.length === Object.keys(revs).length - 1 && items.every((item) => revs[item.uuid] === Number(item.rev))) return savedUpdate(saved);
      }
      return inTransaction(strapi, async (trx) => {
        await lockArticle(strapi, trx, Number(article.user_id), articleId, { outline: false });
        const fresh = await repository.in(trx).article(articleId);
        const { state, changed } = await ensure(trx, Number(article.id), String(fresh?.premise ?? ''));
        if (changed || state.dirty) await save(trx, Number(article.id), state);
        return Y.encodeStateAsUpdate(state.doc);
      });
    },

    /**
     * The stored state as it is now (null: the article or its state is gone), as one update;
     * with `after` (the `through` of an earlier answer), only the updates appended since,
     * unless a compaction folded some of them into the base meanwhile (then the whole state).
     */
    async stored(articleId: string, after = 0): Promise<StoredState | null> {
      const article = await repository.article(articleId);
      return article ? log.stored(Number(article.id), after) : null;
    },

    /**
     * Stores what people typed: in one transaction under the article's lock, the live update
     * merged into the stored state, each section it changed written through the edit engine
     * (by the editor who changed it), the premise through notes, and the state saved when
     * anything was stored. Answers the state after (for the live document to merge), and
     * whether it was saved (else it holds the typing without having stored it).
     */
    async store(articleId: string, typed: TypedChange, options: { coalesceSeconds?: number } = {}): Promise<StoreResult | null> {
      return inTransaction(strapi, async (trx) => {
        const article = await repository.in(trx).article(articleId);
        if (!article || article.user_id == null) return null;
        const ownerId = Number(article.user_id);
        const articleRowId = Number(article.id);
        await lockArticle(strapi, trx, ownerId, articleId, { outline: false });
        // The live document was loaded from the stored state: without one (the article was
        // deleted and made again?) its typing cannot be merged, and is not stored.
        if (!(await held(trx, articleRowId))) return null;
        const { state, changed } = await ensure(trx, articleRowId, String(article.premise ?? ''));
        state.deferred = true;
        const orderBefore = state.doc.getArray<string>('order').toArray();
        const order = new Set(orderBefore);
        const candidates = [...new Set([...typed.sections.keys(), ...(typed.resplit?.keys() ?? [])])].filter((id) => order.has(id));
        const before = new Map(candidates.map((id) => [id, readableHtml(articleId, state.doc, id)]));
        const premiseBefore = state.doc.getText('premise').toString();
        // Typing that reaches a section after its delete (the page's update came late): not a
        // section to write, but its trash entry holds it (the delete's event compared without it).
        const meta = state.doc.getMap('meta');
        const late = [...typed.sections.keys()].filter((id) => !order.has(id) && meta.has(`deleted:${id}`));
        const lateBefore = new Map(late.map((id) => [id, readableHtml(articleId, state.doc, id)]));
        Y.applyUpdate(state.doc, typed.update);
        // The order is the server's: a page's change to it is undone (with the rest of the state, it goes back to the page).
        const reordered = setOrder(state.doc, orderBefore);
        // Written per editor: each revision names who typed it.
        const byEditor = new Map<string, { actor: EventActor; ids: Array<{ id: string; html: string; parts: SectionContent[] }> }>();
        const outline = state.doc.getMap<OutlineMark>('outline');
        const pendingSplits: string[] = [];
        for (const id of candidates) {
          const html = readableHtml(articleId, state.doc, id);
          const prior = before.get(id);
          const again = typed.resplit?.has(id) ?? false;
          if (html === null || (html === prior && !again)) continue;
          const parts = await splitTyped(html, prior ?? null, Number(outline.get(id)?.level ?? 0));
          if (parts.deferred) pendingSplits.push(id);
          if (html === prior && parts.contents.length === 1) continue;
          const actor = typed.sections.get(id) ?? typed.resplit!.get(id)!;
          const group = byEditor.get(actor.name) ?? { actor, ids: [] };
          group.ids.push({ id, html, parts: parts.contents });
          byEditor.set(actor.name, group);
        }
        for (const { actor, ids } of byEditor.values()) {
          await service('edits').apply(ownerId, articleId, ids.map(({ id, html }) => ({ op: 'replace', section: id, html: html || '<p></p>' })), {
            actor,
            coalesceSeconds: options.coalesceSeconds,
            contents: new Map(ids.map(({ parts }, i) => [i, parts])),
          });
        }
        const premise = state.doc.getText('premise').toString();
        const premiseStored = premise !== premiseBefore;
        if (premiseStored) {
          await service('notes').setPremise(ownerId, articleId, premise, typed.premise ?? { kind: 'editor', name: 'an editor' }, { coalesceSeconds: options.coalesceSeconds });
        }
        let trashed = 0;
        for (const id of late) {
          const html = readableHtml(articleId, state.doc, id);
          if (html === null || html === lateBefore.get(id)) continue;
          await keepTyped(articleRowId, id, html, trx);
          trashed += 1;
        }
        state.deferred = false;
        // Saved with the typing it kept in the trash: a restore then diffs against the same text.
        const saved = byEditor.size > 0 || premiseStored || changed || reordered || state.dirty || trashed > 0;
        if (saved) await save(trx, articleRowId, state);
        // What the document lacks (by its vector: only the change), and what the stored state holds.
        const missing = Y.encodeStateAsUpdate(state.doc, typed.vector);
        return { state: missing, vector: Y.encodeStateVector(state.doc), saved, ...(pendingSplits.length ? { pendingSplits } : {}) };
      });
    },

    /** The trash entry of a section deleted while someone typed in it holds their text. */
    async keepInTrash(articleId: string, sectionId: string, html: string): Promise<void> {
      const article = await repository.article(articleId);
      if (!article) return;
      await keepTyped(Number(article.id), sectionId, html);
    },
  };
  return api;
};
