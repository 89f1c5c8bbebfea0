/**
 * Threads (CONTRACT 24): comments on quoted text of a section, for people and agents.
 *
 * A thread is anchored to offsets in its section's text as a reader sees it (the text of the
 * section's rendered HTML, blocks on their own lines: what search shows of canvas sections),
 * with the quote and some context. Every write of a section goes through the edits engine,
 * which hands this service the old and new content of the sections it replaced and the ids it
 * deleted, inside its transaction (`followEdits`): the anchors are mapped through a character
 * diff (domain/threads), and detached when their text is gone. The live canvas stores typing
 * through the same engine (at most 2 s after it), so threads follow typing too.
 *
 * A comment by a person (JWT, session) that mentions `@<skill>` of an organization the
 * article's owner owns starts that skill (the triggers plugin's `skills` service, through the
 * contract) with the thread as input, and posts its reply in the thread when it finishes.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { ApiError, invalidArgument } from '#kernel/errors';
import { iso } from '#kernel/db';
import { anchorsOf, newId, resolveAnchor, sortIds, type AnchorScope } from '../domain/anchors';
import type { ArticleChange, EventActor } from '../domain/article-events';
import type { SectionContent } from '../domain/markdown';
import type { Outline } from '../domain/outline';
import { sectionScope } from '../domain/scopes';
import { anchorAt, locateQuote, mapAnchor, mentionsOf, nearestQuote, replyOf, splitPosition } from '../domain/threads';
import { COMMENT_MAX, type CommentRecord, type ExecutionLink, type ThreadRecord } from '../schemas/threads';
import { sectionRepository } from '../repositories/sections';
import { articleRowId, foundByAnchor } from './article-lookup';
import { threadRepository, type CommentRow, type ThreadRow } from '../repositories/threads';
import { triggersService } from '../triggers';
import { getService } from './get-service';

/** Comments and thread changes one credential may make a minute (like other writes, per credential). */
export const COMMENTS_PER_MINUTE = 60;
/** Replies (and notes) skills may post in one thread an hour (CONTRACT 24). */
export const AGENT_REPLIES_PER_HOUR = 5;
/** How long a mention's execution is waited for before the thread says it gave up. */
export const MENTION_WAIT_MS = 10 * 60_000;
/** Mentions started by one comment, at most. */
const MENTIONS_PER_COMMENT = 3;
/** Who posts the thread's notes about mentions that started nothing. */
const QUIRE: EventActor = { kind: 'agent', name: 'quire' };
/** Between the reader-text paragraphs of sections a write produced from one. */
const SECTION_JOIN = '\n\n';

/** A section the edits engine rewrote: its row before, and the sections (ids, contents) that took its place. */
export interface SectionRewrite {
  before: { source: string; html: string };
  ids: string[];
  contents: SectionContent[];
}

/** Who comments, as the routes know them. */
export interface Commenter {
  actor: EventActor;
  /** The credential the comment limit counts (controllers/conditional credentialOf). */
  credential: string;
  /** Only people's comments start skills: not API keys, OAuth clients or skills. */
  person: boolean;
}

const threadScope = (articleId: string): AnchorScope => ({ item: 'thread', listRoute: `GET /api/articles/${articleId}/threads` });

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

function commentRecord(row: CommentRow): CommentRecord {
  return {
    id: row.uuid,
    body: row.body,
    html: row.html,
    by: { kind: row.by_kind as EventActor['kind'], name: row.by_name },
    at: iso(row.created_at)!,
    executions: (json(row.executions) as ExecutionLink[] | null) ?? [],
  };
}

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const repo = threadRepository(strapi);
  const sectionRows = sectionRepository(strapi);
  const workers = () => getService(strapi, 'workers');
  const events = () => getService(strapi, 'events');
  const sections = () => getService(strapi, 'sections');
  const rateLimit = () => getService(strapi, 'rateLimit');
  /** Waits for mentioned executions, until they finish or the plugin stops. */
  const watching = new Set<Promise<void>>();
  let closing = false;

  /** A section's text as a reader sees it: the text of its HTML (Markdown sections: of their rendering). */
  async function readerText(section: { html: string | null }): Promise<string> {
    const content: SectionContent = await workers().canvasSection(section.html ?? '', 'section');
    return content.htmlText ?? '';
  }

  function threadRecord(row: ThreadRow, anchor: string, outline: Outline, comments: CommentRow[]): ThreadRecord {
    return {
      id: row.uuid,
      anchor,
      section: outline.find(row.section_id) ? outline.anchorOf(row.section_id) : row.section_id,
      quote: row.quote,
      start: Number(row.quote_start),
      end: Number(row.quote_end),
      status: row.status as ThreadRecord['status'],
      detached: Boolean(row.detached),
      comments: comments.map(commentRecord),
      createdAt: iso(row.created_at)!,
      by: { kind: row.by_kind as EventActor['kind'], name: row.by_name },
      resolvedAt: iso(row.resolved_at),
      resolvedBy: row.resolved_by_kind ? { kind: row.resolved_by_kind as EventActor['kind'], name: row.resolved_by_name ?? '' } : null,
    };
  }

  /** The caller's article: its row id and outline (404 for anyone else's). */
  async function article(userId: number, articleId: string) {
    const rowId = await articleRowId(strapi, userId, articleId);
    const { outline } = await sections().outlineOf(userId, articleId);
    return { rowId, outline: outline as Outline };
  }

  /** The thread an anchor names, with its anchor among the article's threads. */
  async function find(rowId: number, articleId: string, rawAnchor: string): Promise<{ row: ThreadRow; anchor: string }> {
    const ids = await repo.ids(rowId);
    const uuid = resolveAnchor(sortIds(ids), rawAnchor, threadScope(articleId));
    const row = (await repo.get(rowId, uuid))!;
    return { row, anchor: anchorsOf(ids).get(uuid)! };
  }

  async function recordOf(rowId: number, outline: Outline, uuid: string): Promise<ThreadRecord> {
    const ids = await repo.ids(rowId);
    const row = (await repo.get(rowId, uuid))!;
    return threadRecord(row, anchorsOf(ids).get(uuid)!, outline, await repo.commentsOf([row.id]));
  }

  async function limit(commenter: Commenter) {
    await rateLimit().consume('thread-comments', commenter.credential, { points: COMMENTS_PER_MINUTE, durationSec: 60 }, 1, `Too many comments and thread changes (at most ${COMMENTS_PER_MINUTE} a minute per credential).`);
  }

  async function render(body: string, field = 'body'): Promise<string> {
    return workers().renderMarkdown(body, field);
  }

  /** Who may see what: the record read back after a write, as the article stands. */
  async function fresh(userId: number, articleId: string, uuid: string): Promise<ThreadRecord> {
    const { rowId, outline } = await article(userId, articleId);
    return recordOf(rowId, outline, uuid);
  }

  const api = {
    async list(userId: number, articleId: string, query: { status?: 'open' | 'resolved'; section?: string }): Promise<{ threads: ThreadRecord[] }> {
      const { rowId, outline } = await article(userId, articleId);
      const sectionId = query.section !== undefined ? outline.resolve(query.section, sectionScope(articleId)).uuid : undefined;
      const rows = await repo.list(rowId, { status: query.status, sectionId });
      const ids = await repo.ids(rowId);
      const anchors = anchorsOf(ids);
      const comments = await repo.commentsOf(rows.map((r) => r.id));
      const byThread = new Map<number, CommentRow[]>();
      for (const c of comments) byThread.set(Number(c.thread_id), [...(byThread.get(Number(c.thread_id)) ?? []), c]);
      // Outline order (a deleted section's threads last), then time (the rows come oldest first).
      const order = new Map(outline.items.map((item, i) => [item.uuid, i]));
      const place = (row: ThreadRow) => order.get(row.section_id) ?? Number.MAX_SAFE_INTEGER;
      const ordered = rows.map((row, i) => ({ row, i })).sort((a, b) => place(a.row) - place(b.row) || a.i - b.i);
      return { threads: ordered.map(({ row }) => threadRecord(row, anchors.get(row.uuid)!, outline, byThread.get(row.id) ?? [])) };
    },

    async get(userId: number, articleId: string, rawAnchor: string): Promise<{ thread: ThreadRecord }> {
      const { rowId, outline } = await article(userId, articleId);
      const { row, anchor } = await find(rowId, articleId, rawAnchor);
      return { thread: threadRecord(row, anchor, outline, await repo.commentsOf([row.id])) };
    },

    async create(
      userId: number,
      articleId: string,
      input: { section: string; quote: string; body: string; occurrence?: number },
      commenter: Commenter,
    ): Promise<{ thread: ThreadRecord }> {
      const rowId = await articleRowId(strapi, userId, articleId);
      const uuid = newId();
      const commentUuid = newId();
      let html: string | undefined;
      // The offsets are those of the revision the quote was found in: when the section changes
      // between the read and the insert (which the edits hook would then not see), read it again.
      for (let attempt = 1; ; attempt += 1) {
        const { row: section, anchor: sectionAnchor } = await foundByAnchor(sectionRows.byAnchor, {
          userId,
          rawArticleId: articleId,
          rawAnchor: input.section,
          scope: sectionScope(articleId),
        });
        const text = await readerText(section);
        const occurrence = input.occurrence ?? 1;
        const start = locateQuote(text, input.quote, occurrence);
        if (start < 0) {
          const found = occurrence > 1 && locateQuote(text, input.quote, 1) >= 0;
          throw invalidArgument(
            found
              ? `quote occurs fewer than ${occurrence} times in section ${sectionAnchor}.`
              : `quote does not occur in section ${sectionAnchor}: it must be text of the section as a reader sees it (no Markdown or HTML), exactly.`,
            `Call GET /api/articles/${articleId}/sections/${sectionAnchor} and copy the words from its text${found ? ', or pass a smaller occurrence' : ''}.`,
          );
        }
        if (html === undefined) {
          await limit(commenter);
          html = await render(input.body);
        }
        const anchor = anchorAt(text, start, start + input.quote.length);
        const written = await strapi.db.transaction(async () => {
          if ((await sectionRows.rev(rowId, section.uuid)) !== Number(section.rev)) return false;
          const threadRowId = await repo.create({
            uuid,
            articleId: rowId,
            sectionId: section.uuid,
            quote: anchor.quote,
            quoteStart: anchor.start,
            quoteEnd: anchor.end,
            quotePrefix: anchor.prefix,
            quoteSuffix: anchor.suffix,
            status: 'open',
            detached: false,
            byKind: commenter.actor.kind,
            byName: commenter.actor.name,
          });
          await repo.addComment({ uuid: commentUuid, threadId: threadRowId, articleId: rowId, body: input.body, html, byKind: commenter.actor.kind, byName: commenter.actor.name, executions: [] });
          await events().record({ articleId, ownerId: userId }, commenter.actor, [{ type: 'thread.created', threadId: uuid }]);
          return true;
        });
        if (written) break;
        if (attempt >= 3) {
          throw new ApiError('conflict', `Section ${sectionAnchor} kept changing while the thread was being opened: no thread was made.`, 'Retry in a moment, once the section is not being edited.');
        }
      }
      if (commenter.person) await mentions(userId, articleId, rowId, uuid, commentUuid, input.body, commenter.actor);
      return { thread: await fresh(userId, articleId, uuid) };
    },

    async reply(userId: number, articleId: string, rawAnchor: string, body: string, commenter: Commenter): Promise<{ comment: CommentRecord }> {
      const rowId = await articleRowId(strapi, userId, articleId);
      const { row } = await find(rowId, articleId, rawAnchor);
      await limit(commenter);
      const html = await render(body);
      const commentUuid = newId();
      await strapi.db.transaction(async () => {
        await repo.addComment({ uuid: commentUuid, threadId: row.id, articleId: rowId, body, html, byKind: commenter.actor.kind, byName: commenter.actor.name, executions: [] });
        await events().record({ articleId, ownerId: userId }, commenter.actor, [{ type: 'comment.created', threadId: row.uuid, commentId: commentUuid }]);
      });
      if (commenter.person) await mentions(userId, articleId, rowId, row.uuid, commentUuid, body, commenter.actor);
      return { comment: commentRecord((await repo.comment(commentUuid))!) };
    },

    async setStatus(userId: number, articleId: string, rawAnchor: string, status: 'open' | 'resolved', commenter: Commenter): Promise<{ thread: ThreadRecord }> {
      const rowId = await articleRowId(strapi, userId, articleId);
      const { row } = await find(rowId, articleId, rawAnchor);
      await limit(commenter);
      if (row.status !== status) {
        await strapi.db.transaction(async () => {
          await repo.setStatus(row.id, status, status === 'resolved' ? commenter.actor : null, new Date());
          const change: ArticleChange = status === 'resolved' ? { type: 'thread.resolved', threadId: row.uuid } : { type: 'thread.reopened', threadId: row.uuid };
          await events().record({ articleId, ownerId: userId }, commenter.actor, [change]);
        });
      }
      return { thread: await fresh(userId, articleId, row.uuid) };
    },

    /**
     * The edits engine's hook, inside its transaction, after its writes (never in a dry run): the
     * anchors of the threads on the sections it rewrote follow their text; those on sections it
     * deleted are detached. Costs one indexed query when no thread is on those sections.
     */
    async followEdits(
      trx: Knex,
      articleRowId: number,
      rewritten: Map<string, SectionRewrite>,
      deleted: string[],
      restored: Map<string, { html: string | null }> = new Map(),
    ): Promise<void> {
      const r = repo.in(trx);
      if (deleted.length) await r.detach(articleRowId, deleted);
      if (restored.size) await reattach(r, articleRowId, restored);
      if (!rewritten.size) return;
      const threads = await r.onSections(articleRowId, [...rewritten.keys()]);
      if (!threads.length) return;
      const texts = new Map<string, { before: string; after: string[] }>();
      for (const id of new Set(threads.map((t) => t.section_id))) {
        const rewrite = rewritten.get(id)!;
        texts.set(id, { before: await readerText(rewrite.before), after: await Promise.all(rewrite.contents.map((c) => readerText(c))) });
      }
      for (const thread of threads) {
        const rewrite = rewritten.get(thread.section_id)!;
        const { before, after } = texts.get(thread.section_id)!;
        const joined = after.join(SECTION_JOIN);
        const mapped = mapAnchor(before, joined, {
          start: Number(thread.quote_start),
          end: Number(thread.quote_end),
          quote: thread.quote,
          prefix: thread.quote_prefix ?? '',
          suffix: thread.quote_suffix ?? '',
        });
        // The section that now holds the start (a write may have split the section in several).
        const lengths = after.map((t) => t.length);
        const at = splitPosition(lengths, SECTION_JOIN.length, mapped.start);
        const base = lengths.slice(0, at.index).reduce((sum, n) => sum + n + SECTION_JOIN.length, 0);
        const own = after[at.index];
        const start = at.offset;
        const end = Math.max(start, Math.min(own.length, mapped.end - base));
        const placed = mapped.detached ? { ...mapped, start, end: start } : { ...anchorAt(own, start, end), detached: end <= start };
        if (placed.detached) placed.quote = thread.quote;
        await r.moveAnchor({ id: thread.id, sectionId: rewrite.ids[at.index], ...placed });
      }
    },

    /** Resolves when the mention waits started so far are over (tests, shutdown). */
    async settled(): Promise<void> {
      while (watching.size) await Promise.allSettled([...watching]);
    },

    async close(): Promise<void> {
      closing = true;
      await api.settled();
    },
  };

  /**
   * A section back from the trash takes back the threads its deletion detached: those whose
   * quote stands at their place in its text (or within a few dozen characters of it). A thread
   * whose words had been deleted before stays detached.
   */
  async function reattach(r: ReturnType<typeof repo.in>, articleRowId: number, restored: Map<string, { html: string | null }>) {
    const detached = await r.detachedOn(articleRowId, [...restored.keys()]);
    const texts = new Map<string, string>();
    for (const thread of detached) {
      if (!texts.has(thread.section_id)) texts.set(thread.section_id, await readerText(restored.get(thread.section_id)!));
      const text = texts.get(thread.section_id)!;
      const at = nearestQuote(text, thread.quote, Number(thread.quote_start));
      if (at >= 0) await r.moveAnchor({ id: thread.id, sectionId: thread.section_id, ...anchorAt(text, at, at + thread.quote.length), detached: false });
    }
  }

  // ---- Mentions ----

  /** Notes and replies posted by the mention machinery in this thread in the last hour. */
  const budgetLeft = async (threadRowId: number) => AGENT_REPLIES_PER_HOUR - (await repo.agentCommentsSince(threadRowId, new Date(Date.now() - 3_600_000)));

  /** Posts an agent's comment (a skill's reply, or a note about a mention) in the thread, within the hourly budget. */
  async function post(ownerId: number, articleId: string, articleRowId: number, threadUuid: string, by: EventActor, body: string): Promise<boolean> {
    const thread = await repo.get(articleRowId, threadUuid);
    if (!thread || (await budgetLeft(thread.id)) <= 0) {
      strapi.log.info(`quire: a reply of ${by.name} in thread ${threadUuid} was not posted: the thread had its ${AGENT_REPLIES_PER_HOUR} agent replies this hour.`);
      return false;
    }
    const text = body.length > COMMENT_MAX ? `${body.slice(0, COMMENT_MAX - 1)}…` : body;
    const html = await render(text).catch(() => '');
    const uuid = newId();
    await strapi.db.transaction(async () => {
      await repo.addComment({ uuid, threadId: thread.id, articleId: articleRowId, body: text, html, byKind: by.kind, byName: by.name, executions: [], origin: 'mention' });
      await events().record({ articleId, ownerId }, by, [{ type: 'comment.created', threadId: threadUuid, commentId: uuid }]);
    });
    return true;
  }

  async function setLink(commentUuid: string, index: number, status: ExecutionLink['status']) {
    const comment = await repo.comment(commentUuid);
    if (!comment) return;
    const links = ((json(comment.executions) as ExecutionLink[] | null) ?? []).map((l, i) => (i === index ? { ...l, status } : l));
    await repo.setExecutions(comment.id, links);
  }

  /**
   * Starts the skills a person's comment mentions (once each), lists them on the comment, and
   * waits for each in the background; the thread says when a skill is unknown or would not start.
   */
  async function mentions(ownerId: number, articleId: string, articleRowId: number, threadUuid: string, commentUuid: string, body: string, by: EventActor) {
    const names = mentionsOf(body, MENTIONS_PER_COMMENT);
    if (!names.length) return;
    const skills = triggersService(strapi, 'skills');
    const thread = (await repo.get(articleRowId, threadUuid))!;
    const { outline } = await sections().outlineOf(ownerId, articleId);
    const section = (outline as Outline).find(thread.section_id) ? (outline as Outline).anchorOf(thread.section_id) : thread.section_id;
    const input = { articleId, threadId: threadUuid, section, quote: thread.quote, comment: { body, by } };
    const links: ExecutionLink[] = [];
    const notes: string[] = [];
    const started: Array<{ index: number; name: string; organizationId: string; ids: { processInstanceId: string; workflowId: string; executionId: string } }> = [];
    for (const name of names) {
      const found = await skills.findForOwner(ownerId, name).catch(() => null);
      if (!found) {
        links.push({ id: null, skill: name, status: 'not-found' });
        notes.push(`@${name}: no skill of that name was found in the organizations of this article's owner, so nothing was started. GET /api/skills?organizationId=... lists the skills.`);
        continue;
      }
      if ((await budgetLeft(thread.id)) <= 0) {
        links.push({ id: null, skill: name, status: 'limited' });
        continue;
      }
      try {
        const result = await skills.call(found.organizationId, name, input, { waitSeconds: 0 });
        links.push({ id: result.executionId, skill: name, status: result.status });
        started.push({ index: links.length - 1, name, organizationId: found.organizationId, ids: { processInstanceId: result.processInstanceId, workflowId: result.workflowId, executionId: result.executionId } });
      } catch (error) {
        links.push({ id: null, skill: name, status: 'refused' });
        notes.push(`@${name} did not start: ${error instanceof ApiError ? error.message : 'the skill could not be triggered.'}`);
      }
    }
    const comment = (await repo.comment(commentUuid))!;
    await repo.setExecutions(comment.id, links);
    for (const note of notes) await post(ownerId, articleId, articleRowId, threadUuid, QUIRE, note);
    for (const s of started) {
      const work = watch(ownerId, articleId, articleRowId, threadUuid, commentUuid, s).catch((error) => {
        strapi.log.warn(`quire: the mention of ${s.name} in thread ${threadUuid} failed: ${error?.message ?? error}`);
      });
      watching.add(work);
      void work.finally(() => watching.delete(work));
    }
  }

  /** Waits for one mentioned execution, then posts its reply (or says it failed) in the thread. */
  async function watch(
    ownerId: number,
    articleId: string,
    articleRowId: number,
    threadUuid: string,
    commentUuid: string,
    s: { index: number; name: string; organizationId: string; ids: { processInstanceId: string; workflowId: string; executionId: string } },
  ): Promise<void> {
    const skills = triggersService(strapi, 'skills');
    const deadline = Date.now() + MENTION_WAIT_MS;
    const skill: EventActor = { kind: 'agent', name: s.name };
    let last = 'pending';
    for (;;) {
      const left = deadline - Date.now();
      if (closing) return;
      const outcome = await skills.outcome(s.organizationId, s.ids, Math.max(0, Math.min(left, 1_000)));
      if (!outcome) {
        await setLink(commentUuid, s.index, 'failed');
        await post(ownerId, articleId, articleRowId, threadUuid, skill, `@${s.name} failed: its execution ${s.ids.executionId} is gone.`);
        return;
      }
      if (outcome.status === 'success') {
        await setLink(commentUuid, s.index, 'success');
        const reply = replyOf(outcome.output);
        if (reply) await post(ownerId, articleId, articleRowId, threadUuid, skill, reply);
        return;
      }
      if (outcome.status === 'failed') {
        await setLink(commentUuid, s.index, 'failed');
        await post(ownerId, articleId, articleRowId, threadUuid, skill, `@${s.name} failed (execution ${s.ids.executionId}): ${outcome.error.message}`);
        return;
      }
      if (outcome.status !== last) await setLink(commentUuid, s.index, outcome.status);
      last = outcome.status;
      if (Date.now() >= deadline) {
        await setLink(commentUuid, s.index, 'failed');
        await post(ownerId, articleId, articleRowId, threadUuid, skill, `@${s.name} did not finish within ${MENTION_WAIT_MS / 60_000} minutes (execution ${s.ids.executionId}); Quire stopped waiting for its reply.`);
        return;
      }
    }
  }

  return api;
};
