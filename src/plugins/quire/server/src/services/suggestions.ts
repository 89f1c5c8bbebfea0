/**
 * Suggestions (CONTRACT section 14): edits proposed, not applied. A suggestion keeps the ops as
 * sent, the same ops with every anchor resolved to a full id, the revisions of the sections they
 * touch (its base) and the dry run's results. Accepting applies the resolved ops through the
 * one edits engine, in one transaction, only if none of those sections changed since (else 412,
 * and the suggestion is stale).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { ApiError } from '#kernel/errors';
import { preconditionFailed, type Precondition } from '#kernel/conditional';
import { iso } from '#kernel/db';
import { anchorsOf, newId, resolveAnchor, sortIds, type AnchorScope } from '../domain/anchors';
import { outlineTag } from '../domain/etags';
import type { EditOp } from '../schemas/inputs/edits';
import { quireConfig } from '../config';
import { Outline } from '../domain/outline';
import { articleRepository } from '../repositories/articles';
import { sectionRepository } from '../repositories/sections';
import { articleRowId, articleUuid } from './article-lookup';
import { suggestionRepository } from '../repositories/suggestions';
import type { Actor, EditOutcome, OpResult } from './edit-types';
import { getService } from './get-service';
import { withWrite } from './write-context';

export type SuggestionStatus = 'pending' | 'accepted' | 'rejected' | 'stale';

/**
 * What a suggestion would leave of the sections it touches or makes (its dry run's end state,
 * kept with it so the canvas can show it in place even once the article moved on): in the
 * article's order; `html` null for a section it deletes; `after` for a section it adds, the
 * section that was there before it (null: at the start).
 */
export interface Proposed {
  sections: Array<{ id: string; html: string | null; added: boolean; after: string | null }>;
}

/** One place a suggestion shows in the canvas: an existing section, and what the suggestion makes of it. */
export interface InPlace {
  section: string;
  change: 'edit' | 'delete' | 'insert' | 'move';
  /** The section's stored HTML now ('' for an insert). */
  current: string;
  /** What the suggestion would make it ('' for a delete; the new sections for an insert). */
  suggested: string;
}

const suggestionScope = (articleId: string): AnchorScope => ({ item: 'suggestion', listRoute: `GET /api/articles/${articleId}/suggestions` });

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

/** Ops as stored for the record: the fields that were sent (undefined ones dropped). */
const cleanOps = (ops: EditOp[]) => JSON.parse(JSON.stringify(ops));

function toRecord(row, anchor: string) {
  return {
    id: row.uuid,
    anchor,
    status: row.status as SuggestionStatus,
    note: row.note ?? null,
    ops: json(row.ops) as Record<string, unknown>[],
    createdAt: iso(row.created_at)!,
    by: { kind: row.by_kind as Actor['kind'], name: row.by_name },
    decidedAt: iso(row.decided_at),
    decidedBy: row.decided_by_kind ? { kind: row.decided_by_kind as Actor['kind'], name: row.decided_by_name ?? '' } : null,
    reason: row.status === 'rejected' ? row.reason || null : null,
    results: json(row.results) as OpResult[],
  };
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const suggestions = suggestionRepository(strapi);
  const sectionRows = sectionRepository(strapi);
  const articles = articleRepository(strapi);
  const edits = () => getService(strapi, 'edits');
  const events = () => getService(strapi, 'events');
  const changeSets = () => getService(strapi, 'changeSets');

  /** Every suggestion id of an article (for anchors), and the one an anchor names. */
  async function find(articleRow: number, rawAnchor: string, articleId: string) {
    const ids = await suggestions.ids(articleRow);
    const uuid = resolveAnchor(sortIds(ids), rawAnchor, suggestionScope(articleId));
    const row = await suggestions.get(articleRow, uuid);
    return { row, anchor: anchorsOf(ids).get(uuid)! };
  }

  async function recordOf(articleRow: number, uuid: string) {
    const ids = await suggestions.ids(articleRow);
    const row = await suggestions.get(articleRow, uuid);
    return toRecord(row, anchorsOf(ids).get(uuid)!);
  }

  /** The outline's ETag as committed now. */
  async function outlineEtag(articleRow: number, articleId: string): Promise<string> {
    return outlineTag(articleId, await articles.outlineRevOfRow(articleRow));
  }

  const notPending = (status: string, anchor: string, articleId: string) =>
    new ApiError(
      'conflict',
      `Suggestion ${anchor} is ${status}: only a pending suggestion can be accepted or rejected.`,
      `Call GET /api/articles/${articleId}/suggestions?status=pending for the suggestions still waiting.`,
    );

  /**
   * Refuses a suggestion past the pending ones an article holds or a credential may have
   * (issue 25: unlimited suggestions grew without bound). Checked before the dry run, so a
   * refused one costs no diff; and again after the row is in (`mine`: rows up to its id count,
   * itself included), so concurrent ones cannot all slip under the limit.
   */
  async function checkRoom(articleRow: number, articleId: string, credential: string | undefined, mine?: number) {
    const { suggestionsPendingPerArticle: perArticle, suggestionsPendingPerCredential: perCredential } = quireConfig(strapi);
    const pending = async (where: { article_id?: number; by_credential?: string }) => (await suggestions.countPending(where, mine)) + (mine === undefined ? 1 : 0);
    const review = `Wait until a person with write access accepts or rejects some of them (GET /api/articles/${articleId}/suggestions?status=pending lists this article's), then suggest again.`;
    if ((await pending({ article_id: articleRow })) > perArticle) {
      throw tooMany(`This article already has ${perArticle} suggestions waiting for review, the most it holds: this one was not filed.`, review);
    }
    if (credential && (await pending({ by_credential: credential })) > perCredential) {
      throw tooMany(`Your credential already has ${perCredential} suggestions waiting for review across your articles, the most one may have: this one was not filed.`, review);
    }
  }

  /** A dry run's end state of the sections it touched or made (its `afterOps`, inside the rolled-back transaction). */
  async function capture(trx: Knex, articleRow: number, state: { outline: Outline; touched: Record<string, number>; produced: string[][] }): Promise<Proposed> {
    const added = new Set(state.produced.flat().filter((id) => !(id in state.touched)));
    const ids = [...new Set([...Object.keys(state.touched), ...added])];
    const rows = new Map((await sectionRows.in(trx).rows(articleRow, ids)).map((row) => [row.uuid, row]));
    const order = state.outline.items.map((item) => item.uuid);
    const listed: Proposed['sections'] = [];
    let before: string | null = null;
    for (const id of order) {
      if (ids.includes(id)) listed.push({ id, html: rows.get(id)?.html ?? '', added: added.has(id), after: added.has(id) ? before : null });
      if (!added.has(id)) before = id;
    }
    for (const id of ids) if (!order.includes(id)) listed.push({ id, html: null, added: false, after: null });
    return { sections: listed };
  }

  /**
   * Where each of an article's open suggestions shows in the canvas (CONTRACT 20): per section
   * it touches, the section's stored HTML now and what the suggestion makes of it (the canvas
   * marks the words). `stale`: a section it changes has changed since it was made (or an accept
   * found so), so it can only be applied by hand. New sections show in the one before them.
   */
  async function inPlace(userId: number, rawArticleId: string) {
    const articleRow = await articleRowId(strapi, userId, rawArticleId);
    const rows = (await suggestions.list(articleRow)).filter((r) => r.status === 'pending' || r.status === 'stale');
    const anchors = anchorsOf(await suggestions.ids(articleRow));
    const items = Outline.of(await sectionRows.items(articleRow)).items;
    const revs = new Map(items.map((item) => [item.uuid, item.rev]));
    const first = items[0]?.uuid ?? null;
    const htmlOf = new Map((await sectionRows.rows(articleRow, items.map((item) => item.uuid))).map((row) => [row.uuid, row.html ?? '']));
    const sets = await changeSets().pendingOf(articleRow, rows.map((r) => r.uuid));
    const out: Array<ReturnType<typeof toRecord> & { stale: boolean; places: InPlace[]; changeSet: { id: string; anchor: string; reason: string | null } | null }> = [];
    for (const row of rows.reverse()) {
      const base = json(row.base) as Record<string, number>;
      const stale = row.status === 'stale' || Object.entries(base).some(([id, rev]) => revs.get(id) !== rev);
      let proposed = json(row.proposed) as Proposed | null;
      // Made before suggestions kept their end state: a dry run now (none when it no longer applies).
      if (!proposed && !stale) proposed = await dryRunProposed(userId, rawArticleId, json(row.resolved_ops), { kind: row.by_kind, name: row.by_name }).catch(() => null);
      const moved = new Set((json(row.resolved_ops) as EditOp[]).filter((op) => op.op === 'move').map((op) => (op as { section: string }).section));
      const places: InPlace[] = [];
      for (const entry of proposed?.sections ?? []) {
        if (entry.added) {
          const at = entry.after && revs.has(entry.after) ? entry.after : first;
          if (!at) continue;
          const same = places.find((p) => p.section === at && p.change === 'insert');
          if (same) same.suggested += entry.html ?? '';
          else places.push({ section: at, change: 'insert', current: '', suggested: entry.html ?? '' });
          continue;
        }
        if (!revs.has(entry.id)) continue; // gone since
        const current = htmlOf.get(entry.id) ?? '';
        if (entry.html === null) places.push({ section: entry.id, change: 'delete', current, suggested: '' });
        else if (entry.html !== current) places.push({ section: entry.id, change: 'edit', current, suggested: entry.html });
        else if (moved.has(entry.id)) places.push({ section: entry.id, change: 'move', current, suggested: entry.html });
      }
      out.push({ ...toRecord(row, anchors.get(row.uuid)!), stale, places, changeSet: sets.get(row.uuid) ?? null });
    }
    return { suggestions: out };
  }

  /** A suggestion's end state, by a dry run of its ops against the article as it is now. */
  async function dryRunProposed(userId: number, rawArticleId: string, ops: EditOp[], actor: Actor): Promise<Proposed> {
    let proposed: Proposed = { sections: [] };
    const articleRow = await articleRowId(strapi, userId, rawArticleId);
    await edits().apply(userId, rawArticleId, ops, { actor, dryRun: true, afterOps: async (trx: Knex, state) => void (proposed = await capture(trx, articleRow, state)) });
    return proposed;
  }

  /**
   * The ops of a suggestion that change the given sections (by anchor), and the rest (indexes into its ops).
   * `strict` (a reject per section): each anchor must be a section now that one of its ops changes,
   * else 400 naming it (nothing written).
   */
  async function partOf(articleRow: number, articleId: string, row, anchors: string[], strict = false) {
    const outline = Outline.of(await sectionRows.items(articleRow));
    const next = `Call GET /api/articles/${articleId}/suggestions/${row.uuid} for its operations and the sections they change.`;
    const resolveOne = (a: string) => {
      if (!strict) return outline.resolve(a, { item: 'section', listRoute: `GET /api/articles/${articleId}/outline` }).uuid;
      try {
        return outline.resolve(a, { item: 'section', listRoute: `GET /api/articles/${articleId}/outline` }).uuid;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        throw new ApiError('invalid-argument', `No section ${a} in this article (sections): nothing was rejected.`, `Pass sections as anchors of sections this suggestion changes. ${next}`);
      }
    };
    const named = anchors.map((a) => ({ anchor: a, id: resolveOne(a) }));
    const ids = new Set(named.map((n) => n.id));
    const resolved = json(row.resolved_ops) as Array<EditOp & { section?: string; after?: string; before?: string }>;
    const target = (op: (typeof resolved)[number]) => op.section ?? op.after ?? op.before ?? '';
    if (strict) {
      const changed = new Set(resolved.map(target));
      const outside = named.find((n) => !changed.has(n.id));
      if (outside) throw new ApiError('invalid-argument', `Section ${outside.anchor} is not one this suggestion changes (sections): nothing was rejected.`, `Pass sections as anchors of sections this suggestion changes. ${next}`);
    }
    const taken = resolved.map((op, i) => (ids.has(target(op)) ? i : -1)).filter((i) => i >= 0);
    if (!taken.length) {
      throw new ApiError('invalid-argument', 'None of this suggestion\'s operations changes those sections: nothing was accepted.', next);
    }
    return { ids, taken, rest: resolved.map((_, i) => i).filter((i) => !taken.includes(i)) };
  }

  /**
   * Rejects the ops of some sections of a pending suggestion, with the reviewer's reason; it stays
   * pending with the others. Recorded as a partial accept is: the suggestion narrowed to the rest,
   * and the part a `rejected` change set of its own (services/change-sets rejectedPart), in one transaction.
   */
  async function rejectPart(userId: number, articleRow: number, articleId: string, row, anchor: string, part: { ids: Set<string>; taken: number[]; rest: number[] }, reason: string | null, actor: Actor) {
    const ops = json(row.ops) as EditOp[];
    const resolved = json(row.resolved_ops) as EditOp[];
    const base = json(row.base) as Record<string, number>;
    const pick = <T,>(list: T[], indexes: number[]) => indexes.map((i) => list[i]);
    const restBase = Object.fromEntries(Object.entries(base).filter(([id]) => !part.ids.has(id)));
    // What the rest would make: the rejected sections, and sections it would have added after them, dropped.
    const proposed = json(row.proposed) as Proposed | null;
    const gone = new Set([...part.ids, ...(proposed?.sections ?? []).filter((e) => e.added && e.after && part.ids.has(e.after)).map((e) => e.id)]);
    const restProposed = proposed ? { sections: proposed.sections.filter((e) => !gone.has(e.id)) } : undefined;
    await strapi.db.transaction(async ({ trx }) => {
      const narrowed = await suggestions.in(trx).narrow(articleRow, row.uuid, { ops: pick(ops, part.rest), resolvedOps: pick(resolved, part.rest), base: restBase, proposed: restProposed });
      if (!narrowed) throw notPending((await suggestions.in(trx).statusOf(articleRow, row.uuid)) ?? 'gone', anchor, articleId);
      await changeSets().rejectedPart(trx, articleRow, articleId, row.uuid, [...gone], reason);
      // Every open canvas reloads its suggestions (live meta suggestionsRev).
      const decidedBy = { kind: actor.kind, name: actor.name };
      await events().record({ articleId, ownerId: userId }, actor, [{ type: 'suggestion.decided', suggestionId: row.uuid, state: 'rejected', decidedBy, sections: [...part.ids] }]);
    });
    return { suggestion: await recordOf(articleRow, row.uuid) };
  }

  /** Accepts the ops of some sections of a pending suggestion; it stays pending with the others. */
  async function acceptPart(userId: number, rawArticleId: string, articleRow: number, row, anchor: string, part: { ids: Set<string>; taken: number[]; rest: number[] }) {
    const articleId = articleUuid(rawArticleId);
    const ops = json(row.ops) as EditOp[];
    const resolved = json(row.resolved_ops) as EditOp[];
    const base = json(row.base) as Record<string, number>;
    const pick = <T,>(list: T[], indexes: number[]) => indexes.map((i) => list[i]);
    const partBase = Object.fromEntries(Object.entries(base).filter(([id]) => part.ids.has(id)));
    const restBase = Object.fromEntries(Object.entries(base).filter(([id]) => !part.ids.has(id)));
    let outcome: EditOutcome;
    try {
      outcome = await withWrite({ acceptedPart: { suggestion: row.uuid, sections: [...part.ids] } }, () =>
        edits().apply(userId, rawArticleId, pick(resolved, part.taken), {
          actor: { kind: row.by_kind, name: row.by_name },
          base: partBase,
          within: async (trx: Knex) => {
            const narrowed = await suggestions.in(trx).narrow(articleRow, row.uuid, { ops: pick(ops, part.rest), resolvedOps: pick(resolved, part.rest), base: restBase });
            if (!narrowed) throw notPending((await suggestions.in(trx).statusOf(articleRow, row.uuid)) ?? 'gone', anchor, articleId);
          },
        }),
      );
    } catch (error) {
      if (error instanceof ApiError && error.code === 'precondition-failed') throw staleError(anchor, articleId, await outlineEtag(articleRow, articleId));
      throw error;
    }
    return {
      data: { suggestion: await recordOf(articleRow, row.uuid), outline: outcome.outline.entries() },
      etag: outlineTag(articleId, outcome.outlineRev),
    };
  }

  const api = {
    inPlace,
    /**
     * Makes a suggestion of ops: a dry run against the article as it is (the same checks as
     * the edits themselves: a bad op is refused now, not at review), then one stored row.
     * `credential` is who its pending ones are counted against (controllers/conditional credentialOf).
     */
    async create(userId: number, rawArticleId: string, ops: EditOp[], input: { note?: string | null; actor: Actor; credential?: string; ifMatch?: Precondition; single?: boolean }) {
      const articleRow = await articleRowId(strapi, userId, rawArticleId);
      const articleId = articleUuid(rawArticleId);
      await checkRoom(articleRow, articleId, input.credential);
      let proposed: Proposed | null = null;
      // The dry run also captures the sections it would change: the suggestion's pending change set (CONTRACT 23).
      const { result, drafts } = await changeSets().capturing(() => edits().apply(userId, rawArticleId, ops, {
        actor: input.actor,
        ifMatch: input.ifMatch,
        dryRun: true,
        single: input.single,
        afterOps: async (trx: Knex, state) => void (proposed = await capture(trx, articleRow, state)),
      }));
      const outcome = result as EditOutcome;
      const uuid = newId();
      const now = new Date();
      const createdId = await suggestions.create({
        uuid,
        articleId: articleRow,
        note: input.note ?? null,
        ops: cleanOps(ops),
        resolvedOps: cleanOps(outcome.resolvedOps.map(({ ifMatch, ...op }: EditOp & { ifMatch?: string }) => op as EditOp)),
        base: outcome.touched,
        results: outcome.results,
        proposed,
        byKind: input.actor.kind,
        byName: input.actor.name,
        byCredential: input.credential ?? null,
        createdAt: now,
        updatedAt: now,
      });
      try {
        await checkRoom(articleRow, articleId, input.credential, createdId);
      } catch (error) {
        await suggestions.removeRow(createdId);
        throw error;
      }
      await changeSets().recordPending(articleRow, articleId, uuid, input.actor, drafts, input.note ?? null);
      await events().record({ articleId, ownerId: userId }, input.actor, [{ type: 'suggestion.made', suggestionId: uuid }]);
      return { suggestion: await recordOf(articleRow, uuid) };
    },

    async list(userId: number, rawArticleId: string, status?: SuggestionStatus) {
      const articleRow = await articleRowId(strapi, userId, rawArticleId);
      const rows = await suggestions.list(articleRow);
      const anchors = anchorsOf(rows.map((r) => r.uuid));
      return { suggestions: rows.filter((r) => !status || r.status === status).map((r) => toRecord(r, anchors.get(r.uuid)!)) };
    },

    async get(userId: number, rawArticleId: string, rawAnchor: string) {
      const articleRow = await articleRowId(strapi, userId, rawArticleId);
      const { row, anchor } = await find(articleRow, rawAnchor, articleUuid(rawArticleId));
      return { suggestion: toRecord(row, anchor) };
    },

    /**
     * Applies a pending suggestion's ops atomically, as its author's change, on the revisions
     * it was made against. Claimed under the article's lock, so two accepts cannot both apply.
     */
    async accept(userId: number, rawArticleId: string, rawAnchor: string, actor: Actor, only?: string[]) {
      const articleId = articleUuid(rawArticleId);
      const articleRow = await articleRowId(strapi, userId, rawArticleId);
      const { row, anchor } = await find(articleRow, rawAnchor, articleId);
      if (row.status === 'stale') throw staleError(anchor, articleId, await outlineEtag(articleRow, articleId));
      if (row.status !== 'pending') throw notPending(row.status, anchor, articleId);
      // Per section (CONTRACT 23): the ops of those sections are applied, the rest stays pending.
      const part = only?.length ? await partOf(articleRow, articleId, row, only) : null;
      if (part && part.rest.length) return acceptPart(userId, rawArticleId, articleRow, row, anchor, part);
      let outcome: EditOutcome;
      // The ops are the author's change (revisions and the event's `by` name them); the editor decided.
      const author: Actor = { kind: row.by_kind, name: row.by_name };
      try {
        // The write fulfils the suggestion's pending change set (services/change-sets recordEdit).
        outcome = await withWrite({ accepting: row.uuid }, () => edits().apply(userId, rawArticleId, json(row.resolved_ops), {
          actor: author,
          base: json(row.base),
          within: async (trx: Knex) => {
            const claimed = await suggestions.in(trx).decide(articleRow, row.uuid, ['pending'], 'accepted', { by: actor });
            if (!claimed) throw notPending((await suggestions.in(trx).statusOf(articleRow, row.uuid)) ?? 'gone', anchor, articleId);
            const decidedBy = { kind: actor.kind, name: actor.name };
            await events().record({ articleId, ownerId: userId }, author, [{ type: 'suggestion.decided', suggestionId: row.uuid, state: 'accepted', decidedBy }]);
          },
          // The revisions it made (section id -> rev): the history names the editor who accepted them.
          afterOps: async (trx: Knex, state) => {
            const applied: Record<string, number> = {};
            for (const id of new Set([...Object.keys(state.touched), ...state.produced.flat()])) {
              const item = state.outline.find(id);
              if (item && item.rev !== state.touched[id]) applied[id] = item.rev;
            }
            await suggestions.in(trx).setApplied(articleRow, row.uuid, applied);
          },
        }));
      } catch (error) {
        // The article changed under it (a touched section, an anchor gone, a count no longer right): stale.
        if (error instanceof ApiError && error.status < 500 && error.code !== 'conflict') {
          const staled = await suggestions.decide(articleRow, row.uuid, ['pending'], 'stale');
          if (staled) await events().record({ articleId, ownerId: userId }, actor, [{ type: 'suggestion.decided', suggestionId: row.uuid, state: 'stale' }]);
          throw staleError(anchor, articleId, await outlineEtag(articleRow, articleId), error.code === 'precondition-failed' ? undefined : error.message);
        }
        throw error;
      }
      await changeSets().decided(articleRow, articleId, row.uuid, 'accepted');
      return {
        data: { suggestion: await recordOf(articleRow, row.uuid), outline: outcome.outline.entries() },
        etag: outlineTag(articleId, outcome.outlineRev),
      };
    },

    /**
     * Who accepted each version of a section that came from a suggestion (rev -> the editor or
     * person who decided), for the panel's history.
     */
    async acceptedRevisions(articleRow: number, sectionId: string): Promise<Map<number, Actor>> {
      const rows = await suggestions.acceptedWithRevisions(articleRow);
      const found = new Map<number, Actor>();
      for (const r of rows) {
        const rev = (json(r.applied) as Record<string, number> | null)?.[sectionId];
        if (rev !== undefined && r.decided_by_kind) found.set(Number(rev), { kind: r.decided_by_kind as Actor['kind'], name: r.decided_by_name ?? '' });
      }
      return found;
    },

    async reject(userId: number, rawArticleId: string, rawAnchor: string, reason: string | null, actor: Actor, only?: string[]) {
      const articleId = articleUuid(rawArticleId);
      const articleRow = await articleRowId(strapi, userId, rawArticleId);
      const { row, anchor } = await find(articleRow, rawAnchor, articleId);
      // Per section (CONTRACT 23): those sections' ops are rejected, the rest stays pending.
      if (only?.length) {
        if (row.status !== 'pending') throw notPending(row.status, anchor, articleId);
        const part = await partOf(articleRow, articleId, row, only, true);
        if (part.rest.length) return rejectPart(userId, articleRow, articleId, row, anchor, part, reason, actor);
      }
      const done = await suggestions.decide(articleRow, row.uuid, ['pending', 'stale'], 'rejected', { by: actor, reason });
      if (!done) throw notPending((await suggestions.statusOf(articleRow, row.uuid)) ?? row.status, anchor, articleId);
      const decidedBy = { kind: actor.kind, name: actor.name };
      await events().record({ articleId, ownerId: userId }, actor, [{ type: 'suggestion.decided', suggestionId: row.uuid, state: 'rejected', decidedBy }]);
      await changeSets().decided(articleRow, articleId, row.uuid, 'rejected');
      return { suggestion: await recordOf(articleRow, row.uuid) };
    },
  };
  return api;
};

/** 412 with the outline's current ETag (the version the nextAction's GET returns). */
/** 429 with the Retry-After every rate-limited answer carries (CONTRACT section 1): a review takes a while. */
const tooMany = (message: string, nextAction: string) => new ApiError('rate-limited', message, nextAction, { headers: { 'Retry-After': '60' } });

function staleError(anchor: string, articleId: string, outlineEtag: string, why?: string) {
  return preconditionFailed(
    `Suggestion ${anchor} is stale: the article changed since it was made${why ? ` (${why})` : ''}. Nothing was changed.`,
    `Call GET /api/articles/${articleId}/outline for the current article, and make a new suggestion (or edit) against it.`,
    outlineEtag,
  );
}

