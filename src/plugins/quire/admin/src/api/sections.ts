/**
 * An article's sections (the canvas): the outline and its ETag, the sections, one section
 * with its ETag, add, move, delete, and a section's versions (history, restore).
 */
import { dataOf, readVersioned, useClient, type Versioned } from '#kernel/admin-ui/fetch';
import type { FetchOptions } from '@strapi/strapi/admin';
import { articleUrl } from './articles';
import type { Actor } from '../api';
import type { AddSectionsInput, AdminAcceptedRevision, AdminSections, MoveSectionInput, Outline, RevisionList, RevisionOnly, RevisionRestored, SectionOnly, SectionsAdded } from './schema-types';

export function useSectionsApi(articleId: string) {
  const client = useClient();
  const url = (rest: string) => articleUrl(articleId, rest);
  return {
    /** Every section, in order, with the outline's ETag they match. */
    list: (): Promise<Versioned<AdminSections>> => readVersioned(client, url('/sections')),
    /** The outline, unless it still has this ETag (then null: 304). */
    outlineIfChanged: async (etag: string): Promise<Versioned<Outline> | null> => {
      const response = await client.get(url('/outline'), { responseType: 'text', headers: { 'If-None-Match': etag }, validateStatus: (status: number) => status === 304 || (status >= 200 && status < 300) });
      if (response.status === 304) return null;
      return { value: JSON.parse(response.data).data as Outline, etag: response.headers?.get('ETag') ?? null };
    },
    /** One section as it is now, with the ETag a restore sends back as If-Match. */
    read: (anchor: string): Promise<Versioned<SectionOnly>> => readVersioned(client, url(`/sections/${anchor}`)),
    /**
     * One section as it is now with its ETag, and who made this version (its newest revision's
     * author): what useConditionalMutation re-reads after a 412 to say who changed it.
     */
    current: async (anchor: string): Promise<Versioned<SectionOnly & { by: Actor | null }>> => {
      const [version, history] = await Promise.all([
        readVersioned<SectionOnly>(client, url(`/sections/${anchor}`)),
        dataOf<RevisionList>(client.get(url(`/sections/${anchor}/revisions`))).catch(() => null),
      ]);
      return { value: { ...version.value, by: history?.revisions[0]?.by ?? null }, etag: version.etag };
    },
    add: (input: AddSectionsInput) => dataOf<SectionsAdded>(client.post(url('/sections'), input)),
    move: (anchor: string, placement: MoveSectionInput) => dataOf<Outline>(client.post(url(`/sections/${anchor}/move`), placement)),
    remove: (anchor: string) => dataOf<Outline>(client.del(url(`/sections/${anchor}`))),
    revisions: (anchor: string) => dataOf<RevisionList>(client.get(url(`/sections/${anchor}/revisions`))),
    /** The versions that came from an accepted suggestion, and who accepted each. */
    accepted: (anchor: string) => dataOf<{ accepted: AdminAcceptedRevision[] }>(client.get(url(`/sections/${anchor}/accepted`))),
    revision: (anchor: string, rev: number) => dataOf<RevisionOnly>(client.get(url(`/sections/${anchor}/revisions/${rev}`))),
    /** Restores a version as a new one; `request` carries If-Match (useConditionalMutation's write). */
    restoreRevision: (anchor: string, rev: number, request?: FetchOptions) =>
      dataOf<RevisionRestored>(client.post(url(`/sections/${anchor}/revisions/${rev}/restore`), {}, request)),
  };
}
