/**
 * /admin/plugins/quire/articles/:id: the editors' canvas (CONTRACT 18, 19). The outline beside
 * the article; every section rendered with data-anchor and data-source and editable in place,
 * bound to the article's live document (canvas/live.ts: one provider per open article; one
 * TipTap editor per section) so nothing is saved by hand and what others and agents write
 * arrives merged; who is here ([data-presence], data-editing on sections), what just changed
 * (data-changed-by), a section deleted while typed in (kept in the trash, with Restore); the
 * Brief; review (a section's revisions from its header and the trash below the Brief:
 * canvas/ReviewPanels.tsx; suggestions in the sections they change, with a warning to whoever
 * types there, and listed below the Brief: canvas/suggestions/); publish and unpublish. Structure changes (add anywhere, move,
 * delete) go through the admin routes; the live document's `order` drives the rendering, and its
 * `outline` and `presence` give the titles, word counts and agents present (no polling while
 * it is there).
 *
 * This page wires the parts together: the sections (canvas/useCanvasSections.ts), what changed
 * from outside (useOutsideChanges.ts), the agents present (usePresentAgents.ts), nothing lost
 * on leaving (useNothingLost.ts), the header (ArticleHeader.tsx), the article column with its
 * insert controls (SectionList.tsx, AddSection.tsx).
 */
import { Flex, Grid, LinkButton, EmptyStateLayout } from '@strapi/design-system';
import { BackButton, Layouts, Page, useAuth } from '@strapi/strapi/admin';
import * as React from 'react';
import { NavLink, useNavigate, useParams } from 'react-router-dom';
import { AddSectionDialog, useWhereLabel } from '../canvas/AddSection';
import { ArticleHeader } from '../canvas/ArticleHeader';
import { AuthorsView } from '../canvas/AuthorsView';
import { ChangesPanel } from '../canvas/ChangesPanel';
import { BriefPanel } from '../canvas/BriefPanel';
import { colourFor, storedToken, useLiveArticle, type LiveUser } from '../canvas/live';
import { LiveStatusBadge, PresenceBar } from '../canvas/Presence';
import { Outline, untitled, type Placement } from '../canvas/Outline';
import { RevisionsDialog, TrashPanel } from '../canvas/ReviewPanels';
import { inlineChangesOf, SectionSuggestions } from '../canvas/suggestions/SectionSuggestions';
import { SuggestionsOverview } from '../canvas/suggestions/SuggestionsOverview';
import { startsTyping, useDecide, useSuggestionsInPlace } from '../canvas/suggestions/use-suggestions';
import { SectionList } from '../canvas/SectionList';
import { SectionThreads, type ThreadActions } from '../canvas/threads/SectionThreads';
import { useThreads } from '../canvas/threads/use-threads';
import { useCanvasSections } from '../canvas/useCanvasSections';
import { useHeadingSplit } from '../canvas/useHeadingSplit';
import { useNothingLost } from '../canvas/useNothingLost';
import { isMark, useOutsideChanges, type Ghost } from '../canvas/useOutsideChanges';
import { usePresentAgents } from '../canvas/usePresentAgents';
import { UndoContext, UndoRefused, useArticleUndo } from '../canvas/undo';
import { PERMISSIONS } from '../permissions';
import { useArticle, useArticlesApi } from '../api/articles';
import { useLiveApi } from '../api/live';
import { useSectionsApi } from '../api/sections';
import { useTrashApi } from '../api/trash';
import { useMessages } from '../messages';
import { usePermissions } from '#kernel/admin-ui/use-permissions';
import { adminDisplayName } from '../../../shared/display-name';

export { POLL_MS } from '../canvas/useCanvasSections';
export { CHANGED_MS } from '../canvas/useOutsideChanges';



export const ArticlePage = () => {
  const { id = '' } = useParams<{ id: string }>();
  const { m, notify } = useMessages();
  const sectionsApi = useSectionsApi(id);
  const articlesApi = useArticlesApi();
  const liveApi = useLiveApi();
  const trashApi = useTrashApi();
  const { canEdit, canPublish, canDelete } = usePermissions(PERMISSIONS.edit, PERMISSIONS.publish, PERMISSIONS.delete);
  const navigate = useNavigate();
  const { data, error, isLoading, reload: reloadArticle } = useArticle(id || null);
  const article = data?.data;

  const auth = useAuth('ArticlePage', (state) => state.user);
  const me = React.useMemo<LiveUser | null>(() => {
    if (!auth) return null;
    const name = adminDisplayName(auth) || 'Editor';
    return { id: auth.id ?? null, name, color: colourFor(String(auth.id ?? name)) };
  }, [auth?.id, auth?.firstname, auth?.lastname, auth?.username, auth?.email]); // eslint-disable-line react-hooks/exhaustive-deps

  const [publishing, setPublishing] = React.useState(false);
  /** The Authors toggle: the text coloured by who wrote it, in place of the editors. */
  const [authors, setAuthors] = React.useState(false);
  /** The section whose revisions are shown. */
  const [history, setHistory] = React.useState<string | null>(null);
  const [restoring, setRestoring] = React.useState<string | null>(null);
  /** The add-section dialog: where the new section goes (null: closed). */
  const [inserting, setInserting] = React.useState<{ placement: Placement | null; where: string } | null>(null);
  const where = useWhereLabel();

  const fail = (problem: unknown) => notify.failure(problem);

  // The live channel's token: the admin's access token, refreshed first when it expired (the
  // fetch client refreshes on a 401 of any admin call).
  const freshToken = React.useCallback(async () => {
    await liveApi.touchSession().catch(() => undefined);
    return storedToken();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const found = article?.id === id;
  const live = useLiveArticle(found ? id : null, me, freshToken);
  const editable = canEdit && live.status !== 'refused' && !live.readOnly;

  const { loaded, setLoaded, sections, byId, loadSections, readSection } = useCanvasSections(id, found, live, reloadArticle, fail);
  const outside = useOutsideChanges(live, me, byId, { sections: () => loadSections().catch(() => undefined), article: reloadArticle });
  const agents = usePresentAgents(live.presence);
  // Offline, what the page last heard of others is stale: it lists nobody but this person.
  const present = live.status === 'connected' ? live.peers : [];
  useNothingLost(live);
  // One undo history for this person across the sections, the premise and the notes (canvas/undo.ts).
  const undoHistory = useArticleUndo(live.doc, editable, (problem) => (problem instanceof UndoRefused ? notify.warning(problem.message) : fail(problem)));
  // A heading typed in a section splits it on the server: the caret follows into the new section.
  useHeadingSplit(live.synced ? live.doc : null);

  // A change the server refused: say why (the document was reopened without it).
  React.useEffect(() => {
    if (live.refusal) notify.danger(m('canvas.refused', 'Your last change was not kept: {reason}', { reason: live.refusal.reason }));
  }, [live.refusal?.at]); // eslint-disable-line react-hooks/exhaustive-deps

  /** A write of ours: run it, then show the sections and totals as the server has them. */
  const write = async (work: () => Promise<unknown>, done?: string) => {
    try {
      await work();
      if (done) notify.success(done);
      return true;
    } catch (problem) {
      fail(problem);
      return false;
    } finally {
      await loadSections().catch(() => undefined);
      reloadArticle();
    }
  };

  /** After a restore or an accepted suggestion: the outline, sections and totals as the server has them now. */
  const refresh = () => {
    loadSections().catch(fail);
    reloadArticle();
  };

  // Suggestions in the sections they change (CONTRACT 20): read again at once when the live
  // document says one was made or decided (meta suggestionsRev), and when the outline changes.
  const suggestions = useSuggestionsInPlace(id, { version: loaded?.etag ?? null, liveRev: live.meta.suggestionsRev, live: live.synced && live.status === 'connected' });
  const decide = useDecide(id, suggestions.reload, refresh);
  // Threads (CONTRACT 24): read again at once when the live document says one was opened,
  // answered, resolved or reopened (meta threadsRev), and when the outline changes.
  const threads = useThreads(id, { version: loaded?.etag ?? null, liveRev: live.meta.threadsRev, live: live.synced && live.status === 'connected' });
  /** The selection the editor asked to comment on. */
  const [threadDraft, setThreadDraft] = React.useState<{ section: string; quote: string; occurrence: number } | null>(null);
  const threadWrite = async (work: () => Promise<unknown>) => {
    try {
      await work();
      return true;
    } catch (problem) {
      fail(problem);
      return false;
    } finally {
      await threads.reload().catch(() => undefined);
    }
  };
  const threadActions: ThreadActions = {
    reply: (anchor, body) => threadWrite(() => threads.api.reply(anchor, body)),
    setStatus: (anchor, status) => threadWrite(() => (status === 'resolved' ? threads.api.resolve(anchor) : threads.api.reopen(anchor))),
  };
  const createThread = async (body: string) => {
    const draft = threadDraft;
    if (!draft) return false;
    const ok = await threadWrite(() => threads.api.create({ section: draft.section, quote: draft.quote, occurrence: draft.occurrence, body }));
    if (ok) setThreadDraft(null);
    return ok;
  };
  /** Sections where this person started typing while suggestions wait there (the warning shows), and those whose warning they dismissed. */
  const [warned, setWarned] = React.useState<Set<string>>(new Set());
  const dismissedRef = React.useRef(new Set<string>());
  /** Typing in a section suggestions wait on may make them stale: say so (once, until dismissed). */
  const typingStarts = (sectionId: string, event: React.KeyboardEvent | React.ClipboardEvent) => {
    if (!startsTyping(event) || !suggestions.bySection.get(sectionId)?.length || dismissedRef.current.has(sectionId) || warned.has(sectionId)) return;
    setWarned((current) => new Set(current).add(sectionId));
  };
  const dismissWarning = (sectionId: string) => {
    dismissedRef.current.add(sectionId);
    setWarned((current) => new Set([...current].filter((other) => other !== sectionId)));
  };

  const move = (anchor: string, placement: Placement) => {
    // Show the new order at once (until the live document's order follows).
    setLoaded((current) => {
      if (!current) return current;
      const moving = current.sections.find((s) => s.anchor === anchor)!;
      const others = current.sections.filter((s) => s.anchor !== anchor);
      const target = others.findIndex((s) => s.anchor === ('after' in placement ? placement.after : placement.before));
      others.splice('after' in placement ? target + 1 : target, 0, moving);
      return { ...current, sections: others };
    });
    void write(() => sectionsApi.move(anchor, placement));
  };

  /** A new section headed `title`: at `placement` (after or before a section), or at the end. */
  const add = async (title: string, placement: Placement | null) => {
    const last = sections[sections.length - 1];
    const at = placement ?? (last ? { after: last.anchor } : {});
    let added: string | undefined;
    await write(async () => {
      const answer = await sectionsApi.add({ markdown: `## ${title.replace(/\s+/g, ' ')}`, ...at });
      added = answer.added[0]?.anchor;
    }, m('canvas.added', 'Section added'));
    if (added) jump(added);
  };

  const remove = (anchor: string) => {
    const doomed = sections.find((section) => section.anchor === anchor);
    if (doomed) outside.removingHere(doomed.id);
    void write(() => sectionsApi.remove(anchor), m('canvas.deleted', 'Section deleted'));
  };

  /** Brings back a section deleted while this person typed in it (the trash holds their text), where it was. */
  const restoreGhost = async (ghost: Ghost) => {
    const mark = live.meta[`deleted:${ghost.id}`];
    const trashId = isMark(mark) && mark.trashId ? mark.trashId : ghost.id;
    const after = ghost.after ? byId.get(ghost.after)?.anchor : undefined;
    setRestoring(ghost.id);
    const ok = await write(() => trashApi.restoreSection(id, trashId, after ? { after } : {}), m('canvas.ghost.restored', 'Section restored'));
    setRestoring(null);
    if (ok) outside.dismissGhost(ghost.id);
  };

  const jump = (anchor: string) => {
    window.requestAnimationFrame(() => {
      const element = document.querySelector<HTMLElement>(`[data-anchor="${anchor}"]`);
      element?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      element?.focus({ preventScroll: true });
    });
  };

  const setPublished = async (publish: boolean) => {
    setPublishing(true);
    await write(
      () => (publish ? articlesApi.publish(id) : articlesApi.unpublish(id)),
      publish ? m('canvas.published', 'Published') : m('canvas.unpublished', 'Unpublished: the public page is down'),
    );
    setPublishing(false);
  };

  if (isLoading && !article) return <Page.Loading />;
  if (!article) {
    const missing = (error as { status?: number } | undefined)?.status === 404;
    return (
      <Page.Main>
        <Layouts.Header navigationAction={<BackButton fallback=".." />} title={m('article.back', 'Articles')} />
        <Layouts.Content>
          {missing ? (
            <EmptyStateLayout
              content={m('article.notFound', 'This article does not exist (any more).')}
              action={
                <LinkButton tag={NavLink} to=".." variant="secondary">
                  {m('article.backToList', 'Back to the articles')}
                </LinkButton>
              }
            />
          ) : (
            <Page.Error />
          )}
        </Layouts.Content>
      </Page.Main>
    );
  }

  const noTitle = m('canvas.untitled', '(text before the first heading)');
  const deletedBy = (ghostId: string) => {
    const mark = live.meta[`deleted:${ghostId}`];
    return isMark(mark) ? mark.name : null;
  };

  return (
    <Page.Main>
      <Page.Title>{`Quire - ${article.title}`}</Page.Title>
      <ArticleHeader
        article={article}
        version={loaded?.etag ?? null}
        canEdit={canEdit}
        canDelete={canDelete}
        canPublish={canPublish}
        publishing={publishing}
        onPublish={setPublished}
        onRenamed={reloadArticle}
        onDeleted={() => navigate('../..', { relative: 'path' })}
        authors={authors}
        onAuthors={setAuthors}
      />
      <Layouts.Content>
        {!loaded ? (
          <Page.Loading />
        ) : (
          <Flex direction="column" alignItems="stretch" gap={4}>
            <Flex justifyContent="space-between" alignItems="center" gap={3} wrap="wrap">
              <PresenceBar me={me} peers={present} agents={live.status === 'connected' ? agents : []} />
              <LiveStatusBadge status={live.status} synced={live.synced} unsynced={live.unsynced} reason={live.reason} readOnly={live.readOnly} unreachable={live.unreachable} />
            </Flex>
            {/* Three columns on a laptop; on a tablet the Brief goes below; on a phone all stack. */}
            <UndoContext.Provider value={undoHistory}>
            <Grid.Root gap={4} style={{ alignItems: 'start' }}>
              <Grid.Item xs={12} m={4} col={3} direction="column" alignItems="stretch">
                <Outline sections={sections} canEdit={canEdit} onJump={jump} onMove={move} onAdd={() => setInserting({ placement: null, where: where.atEnd })} onDelete={remove} />
              </Grid.Item>
              <Grid.Item xs={12} m={8} col={6} direction="column" alignItems="stretch">
                {authors ? <AuthorsView articleId={id} sections={sections} version={loaded.etag} /> : null}
                {/* Kept mounted while hidden: the editors stay bound to the live document. */}
                <div hidden={authors}>
                  <SectionList
                    title={article.title}
                    sections={sections}
                    provider={live.provider}
                    synced={live.synced}
                    me={me}
                    peers={present}
                    editable={editable}
                    canEdit={canEdit}
                    changed={outside.changed}
                    ghosts={outside.ghosts}
                    deletedBy={deletedBy}
                    restoring={restoring}
                    onRestoreGhost={restoreGhost}
                    onDismissGhost={outside.dismissGhost}
                    onHistory={setHistory}
                    onTyped={outside.onTyped}
                    onInsert={(placement, label) => setInserting({ placement, where: label })}
                    suggestionsOn={(sectionId) => suggestions.bySection.get(sectionId)?.length ?? 0}
                    onTypingStarts={typingStarts}
                    threads={{
                      marks: (section) =>
                        (threads.bySection.get(section.anchor) ?? []).filter((t) => t.status === 'open' && !t.detached).map(({ anchor, quote, start }) => ({ anchor, quote, start })),
                      view: (section) => (
                        <SectionThreads
                          threads={threads.bySection.get(section.anchor) ?? []}
                          canEdit={canEdit}
                          actions={threadActions}
                          draft={threadDraft?.section === section.anchor ? threadDraft : null}
                          onCreate={createThread}
                          onCancelDraft={() => setThreadDraft(null)}
                        />
                      ),
                      onComment: canEdit ? (section, quote, occurrence) => setThreadDraft({ section: section.anchor, quote, occurrence }) : undefined,
                    }}
                    inlineChanges={(section) => inlineChangesOf(suggestions.bySection.get(section.id) ?? [])}
                    suggestionsView={(section, name, inline) => (
                      <SectionSuggestions
                        items={suggestions.bySection.get(section.id) ?? []}
                        section={section.anchor}
                        inline={inline}
                        title={name}
                        canEdit={canEdit}
                        warn={warned.has(section.id)}
                        onDismissWarning={() => dismissWarning(section.id)}
                        decide={decide}
                      />
                    )}
                  />
                </div>
              </Grid.Item>
              <Grid.Item xs={12} col={3} direction="column" alignItems="stretch">
                <Flex direction="column" alignItems="stretch" gap={4}>
                  <BriefPanel articleId={id} canEdit={editable} live={live.synced && live.doc ? live.doc : null} notesRev={live.meta.notesRev} />
                  <SuggestionsOverview list={suggestions.list} sections={sections} untitled={noTitle} canEdit={canEdit} decide={decide} onJump={jump} />
                  <ChangesPanel articleId={id} canEdit={canEdit} version={loaded.etag} untitled={noTitle} onReverted={refresh} />
                  <TrashPanel articleId={id} canEdit={canEdit} version={loaded.etag} sections={sections} onRestored={refresh} />
                </Flex>
              </Grid.Item>
            </Grid.Root>
            </UndoContext.Provider>
          </Flex>
        )}
      </Layouts.Content>
      <AddSectionDialog where={inserting?.where ?? null} onClose={() => setInserting(null)} onAdd={(title) => void add(title, inserting?.placement ?? null)} />
      {history && loaded ? (
        <RevisionsDialog
          articleId={id}
          anchor={history}
          title={untitled(sections.find((s) => s.anchor === history) ?? { title: '', level: 0 }, noTitle)}
          canEdit={canEdit}
          readCurrent={() => readSection(history)}
          onClose={() => setHistory(null)}
          onRestored={refresh}
        />
      ) : null}
    </Page.Main>
  );
};
