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
 * contract) with the thread as input, and posts its reply in the thread when it finishes. The
 * wait survives a restart: the comment stores its executions (with what is needed to ask for
 * them again) and `awaiting`; the process waiting holds a lease on the comment, renewed while it
 * waits and let go when it stops; at boot and every half minute a process takes over the waits
 * nobody holds (a process that stopped, or crashed and let its lease expire).
 */
import { randomUUID } from 'node:crypto';
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
/** How long a process holds a comment's wait before another may take it over (renewed at half of it while waiting). */
export const MENTION_LEASE_MS = 60_000;
/** How often a process looks for waits nobody holds (a process that stopped while waiting). */
export const MENTION_SWEEP_MS = 30_000;
/** Waits taken over in one look. */
const SWEEP_BATCH = 50;
/** Statuses of a link still to be waited for. */
const WAITING = new Set<ExecutionLink['status']>(['pending', 'running']);
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

/** A link as stored: with the ids that ask the triggers plugin for its execution again (not shown). */
type StoredLink = ExecutionLink & { organizationId?: string; processInstanceId?: string; workflowId?: string };
const storedLinks = (row: { executions: unknown }): StoredLink[] => (json(row.executions) as StoredLink[] | null) ?? [];
const awaited = (links: StoredLink[]) => links.some((l) => WAITING.has(l.status));

/** A comment whose executions one process waits for, and where to post what they answer. */
interface Wait {
  commentId: number;
  commentUuid: string;
  createdAt: number;
  ownerId: number;
  articleId: string;
  articleRowId: number;
  threadUuid: string;
}

function commentRecord(row: CommentRow): CommentRecord {
  return {
    id: row.uuid,
    body: row.body,
    html: row.html,
    by: { kind: row.by_kind as EventActor['kind'], name: row.by_name },
    at: iso(row.created_at)!,
    executions: storedLinks(row).map(({ id, skill, status }) => ({ id, skill, status })),
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
  /** The comments this process waits for (a sweep does not start a second wait on them). */
  const watched = new Set<number>();
  /** Who holds a lease: this process, until it stops. */
  const leaseBy = `${process.pid}-${randomUUID()}`;
  let closing = false;
  let sweepTimer: NodeJS.Timeout | null = null;

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

    /**
     * Takes over the waits nobody holds now (at boot: those of a process that stopped), then
     * looks again every MENTION_SWEEP_MS (a process that crashed: once its lease expired).
     */
    async start(): Promise<void> {
      closing = false;
      await api.sweep();
      if (sweepTimer) return;
      sweepTimer = setInterval(() => void api.sweep(), MENTION_SWEEP_MS);
      sweepTimer.unref();
    },

    /** Starts waiting for the comments whose executions nobody waits for; how many. */
    async sweep(): Promise<number> {
      if (closing) return 0;
      try {
        const rows = await repo.unclaimedWaits(new Date(), SWEEP_BATCH);
        let started = 0;
        for (const row of rows) {
          if (watched.has(Number(row.comment_id))) continue;
          spawn({
            commentId: Number(row.comment_id),
            commentUuid: row.comment_uuid,
            createdAt: new Date(iso(row.created_at)!).getTime(),
            ownerId: Number(row.owner_id),
            articleId: row.article_uuid,
            articleRowId: Number(row.article_row_id),
            threadUuid: row.thread_uuid,
          });
          started += 1;
        }
        return started;
      } catch (error) {
        strapi.log.warn(`quire: looking for mention replies to resume failed: ${(error as Error)?.message ?? error}`);
        return 0;
      }
    },

    /** Stops waiting (the waits are let go, for the next process to take over). */
    async close(): Promise<void> {
      closing = true;
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
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

  /** An agent's comment to post in a thread (a skill's reply, a note), checked against the hourly budget: null when over it. */
  async function draft(threadRowId: number, threadUuid: string, by: EventActor, body: string): Promise<{ text: string; html: string } | null> {
    if ((await budgetLeft(threadRowId)) <= 0) {
      strapi.log.info(`quire: a reply of ${by.name} in thread ${threadUuid} was not posted: the thread had its ${AGENT_REPLIES_PER_HOUR} agent replies this hour.`);
      return null;
    }
    const text = body.length > COMMENT_MAX ? `${body.slice(0, COMMENT_MAX - 1)}…` : body;
    return { text, html: await render(text).catch(() => '') };
  }

  /** Writes a drafted agent comment, with its event, in the open transaction. */
  async function write(ownerId: number, articleId: string, articleRowId: number, threadRowId: number, threadUuid: string, by: EventActor, drafted: { text: string; html: string }) {
    const uuid = newId();
    await repo.addComment({ uuid, threadId: threadRowId, articleId: articleRowId, body: drafted.text, html: drafted.html, byKind: by.kind, byName: by.name, executions: [], origin: 'mention' });
    await events().record({ articleId, ownerId }, by, [{ type: 'comment.created', threadId: threadUuid, commentId: uuid }]);
  }

  /** Posts an agent's comment (a note about a mention) in the thread, within the hourly budget. */
  async function post(ownerId: number, articleId: string, articleRowId: number, threadUuid: string, by: EventActor, body: string): Promise<boolean> {
    const thread = await repo.get(articleRowId, threadUuid);
    if (!thread) return false;
    const drafted = await draft(thread.id, threadUuid, by, body);
    if (!drafted) return false;
    await strapi.db.transaction(() => write(ownerId, articleId, articleRowId, thread.id, threadUuid, by, drafted));
    return true;
  }

  /**
   * Records what became of one mentioned execution and, when it said something, posts it in the
   * thread: both in one transaction, so a restart neither loses nor repeats the reply.
   */
  async function settle(w: Wait, index: number, status: ExecutionLink['status'], said: { by: EventActor; body: string } | null) {
    const thread = await repo.get(w.articleRowId, w.threadUuid);
    const drafted = thread && said ? await draft(thread.id, w.threadUuid, said.by, said.body) : null;
    await strapi.db.transaction(async () => {
      const comment = await repo.comment(w.commentUuid);
      if (!comment) return;
      const links = storedLinks(comment).map((l, i) => (i === index ? { ...l, status } : l));
      await repo.setExecutions(comment.id, links, awaited(links));
      if (thread && drafted) await write(w.ownerId, w.articleId, w.articleRowId, thread.id, w.threadUuid, said!.by, drafted);
    });
  }

  /**
   * Starts the skills a person's comment mentions (once each), lists them on the comment, and
   * waits for them in the background; the thread says when a skill is unknown or would not start.
   */
  async function mentions(ownerId: number, articleId: string, articleRowId: number, threadUuid: string, commentUuid: string, body: string, by: EventActor) {
    const names = mentionsOf(body, MENTIONS_PER_COMMENT);
    if (!names.length) return;
    const skills = triggersService(strapi, 'skills');
    const thread = (await repo.get(articleRowId, threadUuid))!;
    const { outline } = await sections().outlineOf(ownerId, articleId);
    const section = (outline as Outline).find(thread.section_id) ? (outline as Outline).anchorOf(thread.section_id) : thread.section_id;
    const input = { articleId, threadId: threadUuid, section, quote: thread.quote, comment: { body, by } };
    const links: StoredLink[] = [];
    const notes: string[] = [];
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
        links.push({
          id: result.executionId,
          skill: name,
          status: result.status,
          organizationId: found.organizationId,
          processInstanceId: result.processInstanceId,
          workflowId: result.workflowId,
        });
      } catch (error) {
        links.push({ id: null, skill: name, status: 'refused' });
        notes.push(`@${name} did not start: ${error instanceof ApiError ? error.message : 'the skill could not be triggered.'}`);
      }
    }
    const comment = (await repo.comment(commentUuid))!;
    // Stored before anything is waited for: from here on a restart resumes the wait.
    await repo.setExecutions(comment.id, links, awaited(links));
    for (const note of notes) await post(ownerId, articleId, articleRowId, threadUuid, QUIRE, note);
    if (awaited(links)) {
      spawn({ commentId: comment.id, commentUuid, createdAt: new Date(iso(comment.created_at)!).getTime(), ownerId, articleId, articleRowId, threadUuid });
    }
  }

  /** Waits for a comment's executions in the background (tracked for settled() and close()). */
  function spawn(w: Wait) {
    watched.add(w.commentId);
    const work: Promise<void> = watch(w)
      .catch((error) => {
        strapi.log.warn(`quire: waiting for the skills mentioned in thread ${w.threadUuid} failed: ${error?.message ?? error}`);
      })
      .finally(() => {
        watched.delete(w.commentId);
        watching.delete(work);
      });
    watching.add(work);
  }

  /**
   * Holds the comment's lease and waits for each of its executions still pending, then posts
   * its reply (or says it failed) in the thread. MENTION_WAIT_MS counts from the comment, so a
   * wait resumed after a restart does not start over. Lets the lease go when it stops.
   */
  async function watch(w: Wait): Promise<void> {
    const skills = triggersService(strapi, 'skills');
    let leased = Date.now() + MENTION_LEASE_MS;
    if (closing || !(await repo.claimWait(w.commentId, leaseBy, new Date(leased), new Date()))) return;
    const deadline = w.createdAt + MENTION_WAIT_MS;
    try {
      for (;;) {
        if (closing) return;
        const comment = await repo.comment(w.commentUuid);
        if (!comment) return;
        const links = storedLinks(comment);
        const pending = links.flatMap((link, index) => (WAITING.has(link.status) ? [{ link, index }] : []));
        if (!pending.length) return;
        for (const { link, index } of pending) {
          if (closing) return;
          const skill: EventActor = { kind: 'agent', name: link.skill };
          if (!link.id || !link.organizationId || !link.processInstanceId || !link.workflowId) {
            await settle(w, index, 'failed', null);
            continue;
          }
          const ids = { processInstanceId: link.processInstanceId, workflowId: link.workflowId, executionId: link.id };
          const left = deadline - Date.now();
          const outcome = await skills.outcome(link.organizationId, ids, Math.max(0, Math.min(left, Math.ceil(1_000 / pending.length))));
          if (!outcome) {
            await settle(w, index, 'failed', { by: skill, body: `@${link.skill} failed: its execution ${link.id} is gone.` });
          } else if (outcome.status === 'success') {
            const reply = replyOf(outcome.output);
            await settle(w, index, 'success', reply ? { by: skill, body: reply } : null);
          } else if (outcome.status === 'failed') {
            await settle(w, index, 'failed', { by: skill, body: `@${link.skill} failed (execution ${link.id}): ${outcome.error.message}` });
          } else if (Date.now() >= deadline) {
            await settle(w, index, 'failed', {
              by: skill,
              body: `@${link.skill} did not finish within ${MENTION_WAIT_MS / 60_000} minutes (execution ${link.id}); Quire stopped waiting for its reply.`,
            });
          } else if (outcome.status !== link.status) {
            await settle(w, index, outcome.status, null);
          }
        }
        if (leased - Date.now() < MENTION_LEASE_MS / 2) {
          leased = Date.now() + MENTION_LEASE_MS;
          // Another process took it over (this one was too slow to renew): it posts the replies.
          if (!(await repo.claimWait(w.commentId, leaseBy, new Date(leased), new Date()))) return;
        }
      }
    } finally {
      await repo.releaseWait(w.commentId, leaseBy).catch(() => undefined);
    }
  }

  return api;
};
