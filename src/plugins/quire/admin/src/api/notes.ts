/** The Brief of an article: its premise and notes. Note writes are conditional (If-Match with the note's ETag). */
import { dataOf, readVersioned, useClient, type Versioned } from '#kernel/admin-ui/fetch';
import type { FetchOptions } from '@strapi/strapi/admin';
import { articleUrl } from './articles';
import type { Brief, CreateNoteInput, NoteOnly, NotesOnly, NoteWithMap, PatchBriefInput, PatchNoteInput, PremiseOnly } from './schema-types';

export function useNotesApi(articleId: string) {
  const client = useClient();
  const url = (rest: string) => articleUrl(articleId, rest);
  return {
    brief: () => dataOf<Brief>(client.get(url('/brief'))),
    savePremise: (input: PatchBriefInput) => dataOf<PremiseOnly>(client.put(url('/brief'), input)),
    /** A note as it is now, with the ETag its edits send back as If-Match. */
    read: (anchor: string): Promise<Versioned<NoteOnly>> => readVersioned(client, url(`/notes/${anchor}`)),
    create: (input: CreateNoteInput) => dataOf<NoteWithMap>(client.post(url('/notes'), input)),
    update: (anchor: string, input: PatchNoteInput, request?: FetchOptions) => dataOf<NoteWithMap>(client.put(url(`/notes/${anchor}`), input, request)),
    remove: (anchor: string, request?: FetchOptions) => dataOf<NotesOnly>(client.del(url(`/notes/${anchor}`), request)),
  };
}
