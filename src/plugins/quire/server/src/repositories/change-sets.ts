/**
 * quire_change_sets and quire_change_set_sections (CONTRACT 23): one row per change set (who,
 * why, when, status, run), one row per section it touched with the section's text before and
 * after it. Scoped by article row id; listed newest first by row id on the (article_id, id)
 * index (and (article_id, run, id), (article_id, by_kind, id); a section's change sets on
 * (article_id, section_uuid, change_set_id)).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { COMPILED_MAX_ROWS, compiledQuery, repositoryOf, tableName } from '#kernel/db';
import { findByAnchor, type AnchorTarget } from './store';

export const CHANGE_SETS = 'quire_change_sets';
export const CHANGE_SET_SECTIONS = 'quire_change_set_sections';
export const CHANGE_SET_UID = 'plugin::quire.change-set';
export const CHANGE_SET_SECTION_UID = 'plugin::quire.change-set-section';

export const CHANGE_SET_COLUMNS = ['id', 'uuid', 'status', 'by_kind', 'by_name', 'reason', 'run', 'reverted_by', 'notes', 'at'];
export const SECTION_COLUMNS = ['change_set_id', 'section_uuid', 'position', 'title', 'inserted', 'deleted', 'moved'];

export interface ChangeSetRow {
  id: number;
  uuid: string;
  status: string;
  by_kind: string;
  by_name: string;
  reason: string | null;
  run: string | null;
  reverted_by: string | null;
  notes: unknown;
  at: unknown;
  prev?: string | null;
  next?: string | null;
}

export interface ChangeSetSectionRow {
  change_set_id: number;
  section_uuid: string;
  position: number;
  title: string | null;
  inserted: number;
  deleted: number;
  moved: boolean | number | null;
  before_text?: string | null;
  after_text?: string | null;
}

export interface NewSection {
  sectionUuid: string;
  title: string;
  inserted: number;
  deleted: number;
  moved: boolean;
  before: string | null;
  after: string | null;
}

export interface ListFilter {
  beforeId?: number;
  sinceId?: number;
  sinceAt?: Date;
  byKind?: string;
  run?: string;
  section?: string;
  statuses?: string[];
  limit: number;
}

export function changeSetRepository(strapi: Core.Strapi) {
  const sets = (alias?: string) => tableName(strapi, CHANGE_SETS, alias);
  const parts = (alias?: string) => tableName(strapi, CHANGE_SET_SECTIONS, alias);
  /** The ids sorted next to a row's among the article's change sets: its anchor follows from them. */
  const neighbours = (k: Knex) => {
    const neighbour = (op: '<' | '>', direction: 'asc' | 'desc', as: string) =>
      k(sets('p')).select('p.uuid').whereRaw('?? = ??', ['p.article_id', 'c.article_id']).andWhere('p.uuid', op, k.ref('c.uuid')).orderBy('p.uuid', direction).limit(1).as(as);
    return [neighbour('<', 'desc', 'prev'), neighbour('>', 'asc', 'next')];
  };
  async function insertSections(k: Knex, articleRowId: number, changeSetId: number, sections: NewSection[], from: number): Promise<void> {
    if (!sections.length) return;
    const values = sections.flatMap((s, i) => [changeSetId, articleRowId, s.sectionUuid, from + i, s.title, s.inserted, s.deleted, s.moved, s.before, s.after]);
    if (sections.length <= COMPILED_MAX_ROWS) await insertSectionsQuery(k, String(sections.length), sections.length, ...values);
    else await sectionRows(k, sections.length, ...values);
  }

  /** The insert of `n` sections' rows, `values` ten per row. */
  const sectionRows = (k: Knex, n: number, ...values: unknown[]) =>
    k(parts()).insert(
      Array.from({ length: n }, (_, i) => {
        const [change_set_id, article_id, section_uuid, position, title, inserted, deleted, moved, before_text, after_text] = values.slice(i * 10, i * 10 + 10);
        return { change_set_id, article_id, section_uuid, position, title, inserted, deleted, moved, before_text, after_text };
      }),
    );
  // Every write records a change set: its statements are compiled once (kernel/db compiledQuery), per number of sections up to a few.
  const insertSectionsQuery = compiledQuery(sectionRows);
  const insertQuery = compiledQuery((k: Knex, _shape: null, ...values: unknown[]) => {
    const [uuid, article_id, status, by_kind, by_name, reason, run, notes, at, created_at, updated_at] = values;
    return k(sets()).insert({ uuid, article_id, status, by_kind, by_name, reason, run, notes, at, created_at, updated_at }).returning('id');
  });
  const byUuidQuery = compiledQuery((k: Knex, _shape: null, articleRowId: number, uuid: string) =>
    k(sets('c'))
      .where({ 'c.article_id': articleRowId, 'c.uuid': uuid })
      .select(CHANGE_SET_COLUMNS.map((c) => `c.${c}`), ...neighbours(k))
      .limit(1),
  );

  const queries = repositoryOf(strapi, {
    insertSections,
    async insert(k: Knex, articleRowId: number, data: { uuid: string; status: string; by: { kind: string; name: string }; reason: string | null; run: string | null; notes: unknown; at: Date }, sections: NewSection[]): Promise<number> {
      // Null for what is not given, as Knex's insert left it (a compiled statement binds every column).
      const notes = data.notes === null || data.notes === undefined ? null : JSON.stringify(data.notes);
      const [inserted] = await insertQuery<{ id: number }>(k, 'insert', null, data.uuid, articleRowId, data.status, data.by.kind ?? null, data.by.name ?? null, data.reason ?? null, data.run ?? null, notes, data.at, data.at, data.at);
      const id = Number(inserted.id);
      await insertSections(k, articleRowId, id, sections, 0);
      return id;
    },

    /** The newest change set of an article (for coalescing an editor's typing). */
    async newest(k: Knex, articleRowId: number): Promise<ChangeSetRow | undefined> {
      return k(sets()).where({ article_id: articleRowId }).orderBy('id', 'desc').first(CHANGE_SET_COLUMNS);
    },

    /** Extends a change set with a later write to the same section (coalesced typing). */
    async extend(k: Knex, changeSetId: number, sectionUuid: string, update: { after: string | null; title: string; inserted: number; deleted: number }, at: Date): Promise<void> {
      await k(parts()).where({ change_set_id: changeSetId, section_uuid: sectionUuid }).update({ after_text: update.after, title: update.title, inserted: update.inserted, deleted: update.deleted });
      await k(sets()).where({ id: changeSetId }).update({ at, updated_at: at });
    },

    async page(k: Knex, articleRowId: number, filter: ListFilter): Promise<ChangeSetRow[]> {
      const query = k(sets('c')).where('c.article_id', articleRowId);
      if (filter.beforeId !== undefined) query.andWhere('c.id', '<', filter.beforeId);
      if (filter.sinceId !== undefined) query.andWhere('c.id', '>', filter.sinceId);
      if (filter.sinceAt !== undefined) query.andWhere('c.at', '>=', filter.sinceAt);
      if (filter.byKind) query.andWhere('c.by_kind', filter.byKind);
      if (filter.run) query.andWhere('c.run', filter.run);
      if (filter.statuses) query.whereIn('c.status', filter.statuses);
      if (filter.section) {
        query.whereExists(k(parts('s')).select(k.raw('1')).whereRaw('?? = ??', ['s.change_set_id', 'c.id']).andWhere('s.article_id', articleRowId).andWhere('s.section_uuid', filter.section));
      }
      return query
        .orderBy('c.id', 'desc')
        .limit(filter.limit)
        .select(
          CHANGE_SET_COLUMNS.map((c) => `c.${c}`),
          ...neighbours(k),
        );
    },

    /** The sections of some change sets (without their texts), in order. */
    async sectionsOf(k: Knex, changeSetIds: number[], withTexts = false): Promise<ChangeSetSectionRow[]> {
      if (!changeSetIds.length) return [];
      return k(parts())
        .whereIn('change_set_id', changeSetIds)
        .orderBy([{ column: 'change_set_id' }, { column: 'position' }])
        .select(withTexts ? [...SECTION_COLUMNS, 'before_text', 'after_text'] : SECTION_COLUMNS);
    },

    /** A change set by its full id. */
    async byUuid(k: Knex, articleRowId: number, uuid: string): Promise<ChangeSetRow | undefined> {
      return (await byUuidQuery<ChangeSetRow>(k, 'byUuid', null, articleRowId, uuid))[0];
    },

    /** The change sets of a run, newest first. */
    async ofRun(k: Knex, articleRowId: number, run: string): Promise<ChangeSetRow[]> {
      return k(sets('c')).where({ 'c.article_id': articleRowId, 'c.run': run }).orderBy('c.id', 'desc').select(CHANGE_SET_COLUMNS.map((c) => `c.${c}`), ...neighbours(k));
    },

    /** The change sets that wrote a section, oldest first (the authors' replay), with who and which. */
    async historyOf(k: Knex, articleRowId: number, sectionUuid: string, limit: number): Promise<Array<ChangeSetSectionRow & { uuid: string; by_kind: string; by_name: string }>> {
      const rows = await k(parts('s'))
        .join(sets('c'), 'c.id', 's.change_set_id')
        .where({ 's.article_id': articleRowId, 's.section_uuid': sectionUuid })
        .whereIn('c.status', ['applied', 'accepted', 'reverted'])
        .orderBy('s.change_set_id', 'desc')
        .limit(limit)
        .select('s.before_text', 's.after_text', 's.change_set_id', 'c.uuid', 'c.by_kind', 'c.by_name');
      return rows.reverse();
    },

    async setStatus(k: Knex, articleRowId: number, uuid: string, from: string[], status: string, revertedBy?: string): Promise<boolean> {
      const changes: Record<string, unknown> = { status, updated_at: new Date() };
      if (revertedBy !== undefined) changes.reverted_by = revertedBy;
      return (await k(sets()).where({ article_id: articleRowId, uuid }).whereIn('status', from).update(changes)) > 0;
    },

    /** Replaces a change set's sections (a pending suggestion's, when accepted: what it actually did). */
    async replaceSections(k: Knex, articleRowId: number, changeSetId: number, sections: NewSection[]): Promise<void> {
      await k(parts()).where({ change_set_id: changeSetId }).delete();
      await insertSections(k, articleRowId, changeSetId, sections, 0);
    },

    /** Drops some sections of a change set (a pending suggestion accepted for them). */
    async removeSections(k: Knex, changeSetId: number, sectionUuids: string[]): Promise<void> {
      if (sectionUuids.length) await k(parts()).where({ change_set_id: changeSetId }).whereIn('section_uuid', sectionUuids).delete();
    },

    /** Moves some sections of a change set to another (a pending suggestion rejected for them). */
    async moveSections(k: Knex, fromId: number, toId: number, sectionUuids: string[]): Promise<void> {
      if (sectionUuids.length) await k(parts()).where({ change_set_id: fromId }).whereIn('section_uuid', sectionUuids).update({ change_set_id: toId });
    },

    async idOf(k: Knex, articleRowId: number, uuid: string): Promise<number | undefined> {
      const row = await k(sets()).where({ article_id: articleRowId, uuid }).first('id');
      return row ? Number(row.id) : undefined;
    },
  });
  return Object.assign(queries, {
    /** One change set of the caller's article by anchor (store `findByAnchor`: one indexed query). */
    byAnchor: (target: AnchorTarget) => findByAnchor(strapi, CHANGE_SETS, CHANGE_SET_COLUMNS, target),
  });
}
