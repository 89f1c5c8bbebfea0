/**
 * The canvas's admin routes (routes/admin.ts, adminCanvasRoutes): an editor acting on any user's
 * article. Each call resolves the article's owner (admin-articles `actorFor`), whom the content
 * services are called for (ownership stays theirs), with the editor as the actor the revisions
 * record (`by.kind` editor, the admin's name); notes an editor writes are `human`. Conditional
 * writes (If-Match, 412) and ETags are the edits engine's, as on the content API. Review
 * (revisions, trash, suggestions) calls the history and suggestions services the same way: a
 * restore is a new revision by the editor; accepting applies a suggestion as its author's
 * change, decided by the editor (`decidedBy`), with the content API's 412 (stale) and 409.
 * Change sets (the Changes panel, the Authors view) call the changeSets service: a revert is a
 * change set of the editor's.
 */
import type { Core } from '@strapi/strapi';
import { adminController, reply } from '#kernel/routes';
import { outlineTag } from '../domain/etags';
import { adminCanvasRoutes } from '../routes/admin';
import { getService, type QuireServiceMap } from '../services/get-service';
import { writeContext } from '../services/write-context';
import { editorOf, precondition, tagged } from './conditional';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = <K extends keyof QuireServiceMap>(name: K) => getService(strapi, name);
  const history = () => service('history');
  const suggestions = () => service('suggestions');
  const changeSets = () => service('changeSets');
  const located = (ctx, articleId: string) => service('adminArticles').actorFor(Number(ctx.state.user.id), articleId);
  const ownerOf = async (ctx, articleId: string) => (await located(ctx, articleId)).actor.ownerId;
  /** The admin as the revisions name them. */
  const editor = editorOf;
  /** "Undo this change" / "Undo this run": a change set of the editor's, with the reason given. */
  const revert = async (ctx, articleId: string, which: { anchor?: string; run?: string }, body: { dryRun?: boolean; reason?: string }) => {
    const owner = await ownerOf(ctx, articleId);
    return writeContext.run({ reason: body.reason ?? null }, () => changeSets().revert(owner, articleId, which, { actor: editor(ctx), dryRun: body.dryRun }));
  };
  const sectionWrite = (ctx, ifMatch: string | undefined) => ({ actor: editor(ctx), ifMatch });

  return adminController(adminCanvasRoutes, {
    outline: async ({ params, headers }, ctx) => {
      const { outline, etag } = await service('sections').outline(await ownerOf(ctx, params.id), params.id);
      return tagged(headers['If-None-Match'], { outline }, etag);
    },
    sections: async ({ params }, ctx) => {
      const { articleRowId, outlineRev } = await located(ctx, params.id);
      return reply(200, { sections: await service('sections').listSections(articleRowId) }, { ETag: outlineTag(params.id, outlineRev) });
    },
    section: async ({ params }, ctx) => {
      const { section, etag } = await service('sections').getTagged(await ownerOf(ctx, params.id), params.id, params.sid);
      return reply(200, { section }, { ETag: etag });
    },
    replace: async ({ params, body, headers }, ctx) => {
      const { data, etag } = await service('sections').replace(await ownerOf(ctx, params.id), params.id, params.sid, body, sectionWrite(ctx, headers['If-Match']));
      return reply(200, data, { ETag: etag });
    },
    add: async ({ params, body, headers }, ctx) => {
      const { data, etag } = await service('sections').add(await ownerOf(ctx, params.id), params.id, body.markdown, body, { actor: editor(ctx), outlineIfMatch: precondition(headers['If-Match']) });
      return reply(201, data, { ETag: etag });
    },
    move: async ({ params, body, headers }, ctx) => {
      const { data, etag } = await service('sections').move(await ownerOf(ctx, params.id), params.id, params.sid, body, sectionWrite(ctx, headers['If-Match']));
      return reply(200, data, { ETag: etag });
    },
    removeSection: async ({ params, headers }, ctx) => {
      const { data, etag } = await service('sections').remove(await ownerOf(ctx, params.id), params.id, params.sid, sectionWrite(ctx, headers['If-Match']));
      return reply(200, data, { ETag: etag });
    },
    presence: async ({ params }, ctx) => ({ data: { present: await service('live').presence(await ownerOf(ctx, params.id), params.id) } }),
    brief: async ({ params }, ctx) => ({ data: await service('notes').brief(await ownerOf(ctx, params.id), params.id) }),
    premise: async ({ params, body }, ctx) => ({ data: await service('notes').setPremise(await ownerOf(ctx, params.id), params.id, body.premise, editor(ctx)) }),
    addNote: async ({ params, body }, ctx) => {
      const { etag, ...data } = await service('notes').add(await ownerOf(ctx, params.id), params.id, body, 'human', editor(ctx));
      return reply(201, data, { ETag: etag });
    },
    note: async ({ params }, ctx) => {
      const { note, etag } = await service('notes').getTagged(await ownerOf(ctx, params.id), params.id, params.nid);
      return reply(200, { note }, { ETag: etag });
    },
    updateNote: async ({ params, body, headers }, ctx) => {
      const { etag, ...data } = await service('notes').update(await ownerOf(ctx, params.id), params.id, params.nid, body, precondition(headers['If-Match']), editor(ctx));
      return reply(200, data, { ETag: etag });
    },
    removeNote: async ({ params, headers }, ctx) => ({ data: await service('notes').remove(await ownerOf(ctx, params.id), params.id, params.nid, precondition(headers['If-Match']), editor(ctx)) }),
    publish: async ({ params }, ctx) => ({ data: await service('publications').publish(await ownerOf(ctx, params.id), params.id, editor(ctx)) }),
    unpublish: async ({ params }, ctx) => ({ data: await service('publications').unpublish(await ownerOf(ctx, params.id), params.id, editor(ctx)) }),
    // To the trash (30 days), not for good: the panel's Trash view restores it.
    removeArticle: async ({ params }, ctx) => ({ data: await service('adminArticles').trash(editor(ctx), params.id) }),
    revisions: async ({ params }, ctx) => ({ data: await history().list(await ownerOf(ctx, params.id), params.id, params.sid) }),
    acceptedRevisions: async ({ params }, ctx) => ({ data: await history().acceptedVersions(await ownerOf(ctx, params.id), params.id, params.sid) }),
    revision: async ({ params }, ctx) => ({ data: await history().get(await ownerOf(ctx, params.id), params.id, params.sid, params.rev) }),
    restoreRevision: async ({ params, headers }, ctx) => {
      const { data, etag } = await history().restore(await ownerOf(ctx, params.id), params.id, params.sid, params.rev, sectionWrite(ctx, headers['If-Match']));
      return reply(200, data, { ETag: etag });
    },
    trash: async ({ params }, ctx) => ({ data: await service('trash').list(await ownerOf(ctx, params.id), params.id) }),
    restoreFromTrash: async ({ params, body, headers }, ctx) => {
      const { data, etag } = await service('trash').restore(await ownerOf(ctx, params.id), params.id, params.anchor, body, { actor: editor(ctx), ifMatch: precondition(headers['If-Match']) });
      return reply(200, data, { ETag: etag });
    },
    suggestions: async ({ params, query }, ctx) => ({ data: await suggestions().list(await ownerOf(ctx, params.id), params.id, query.status) }),
    suggestionsInPlace: async ({ params }, ctx) => ({ data: await suggestions().inPlace(await ownerOf(ctx, params.id), params.id) }),
    suggestion: async ({ params }, ctx) => ({ data: await suggestions().get(await ownerOf(ctx, params.id), params.id, params.anchor) }),
    // Per section (CONTRACT 23): `sections` names the ones accepted; the rest stays pending.
    acceptSuggestion: async ({ params, body }, ctx) => {
      const { data, etag } = await suggestions().accept(await ownerOf(ctx, params.id), params.id, params.anchor, editor(ctx), body?.sections);
      return reply(200, data, { ETag: etag });
    },
    rejectSuggestion: async ({ params, body }, ctx) => ({ data: await suggestions().reject(await ownerOf(ctx, params.id), params.id, params.anchor, body.reason, editor(ctx), body.sections) }),
    changes: async ({ params, query }, ctx) => ({ data: await changeSets().list(await ownerOf(ctx, params.id), params.id, query) }),
    revertChange: async ({ params, body }, ctx) => ({ data: await revert(ctx, params.id, { anchor: params.anchor }, body) }),
    revertRun: async ({ params, body }, ctx) => ({ data: await revert(ctx, params.id, { run: body.run }, body) }),
    authors: async ({ params }, ctx) => ({ data: await changeSets().authors(await ownerOf(ctx, params.id), params.id, params.sid) }),
    // Rate limited per admin, apart from the users' own budgets.
    unfurl: async ({ query }, ctx) => ({ data: await service('unfurl').preview(`admin:${ctx.state.user.id}`, query.url) }),
  });
};
