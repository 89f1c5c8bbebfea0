/**
 * /admin/plugins/quire/articles/:id: the editors' canvas (CONTRACT 18, 19). The outline beside
 * the article; every section rendered with data-anchor and data-source and editable in place,
 * bound to the article's live document (canvas/live.ts: one provider per open article; one
 * TipTap editor per section) so nothing is saved by hand and what others and agents write
 * arrives merged; who is here ([data-presence], data-editing on sections), what just changed
 * (data-changed-by), a section deleted while typed in (kept in the trash, with Restore); the
 * Brief; review (a section's revisions from its header and the trash below the Brief:
 * canvas/ReviewPanels.tsx; suggestions in the sections they change, with a warning to whoever
 * types there, and counted below the Brief: canvas/suggestions/); publish and unpublish. Structure changes (add, move, delete)
 * go through the admin routes; the live document's `order` drives the rendering. The outline
 * (titles, words) is refreshed from HTTP when its ETag changes.
 */
import { Badge, Box, Button, Flex, Grid, LinkButton, Typography, EmptyStateLayout } from '@strapi/design-system';
import { Clock, ExternalLink } from '@strapi/icons';
import { BackButton, Layouts, Page, useAPIErrorHandler, useAuth, useFetchClient, useNotification, useRBAC } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';
import { NavLink, useBlocker, useNavigate, useParams } from 'react-router-dom';
import type { AdminItem } from '../../../../../kernel/admin-ui/types';
import { useAdminGet } from '../../../../../kernel/admin-ui/use-admin-get';
import { articleUrl, parsed, type AdminArticleDetail, type SectionRecord } from '../api';
import { BriefPanel } from '../canvas/BriefPanel';
import { colourFor, storedToken, useLiveArticle, type ChangeMark, type LiveUser } from '../canvas/live';
import { LiveStatusBadge, PresenceBar, type PresentAgent } from '../canvas/Presence';
import { Outline, untitled, type Placement } from '../canvas/Outline';
import { RevisionsDialog, TrashPanel } from '../canvas/ReviewPanels';
import { SectionEditor } from '../canvas/SectionEditor';
import { SectionSuggestions } from '../canvas/suggestions/SectionSuggestions';
import { SuggestionsOverview } from '../canvas/suggestions/SuggestionsOverview';
import { startsTyping, useDecide, useSuggestionsInPlace } from '../canvas/suggestions/use-suggestions';
import { Prose } from '../canvas/styles';
import { ArticleActions, ChangedBadge, PreviewButton } from '../components/ArticleManagement';
import { StatusBadge } from '../components/StatusBadge';
import { PERMISSIONS } from '../permissions';
import { t } from '../pluginId';

/** How often the canvas asks whether the outline changed (a 304 costs one indexed read): titles and word counts. */
export const POLL_MS = 3000;
/** How often the agents present are asked for (they count as present 60 s after a write). */
export const PRESENCE_MS = 5000;
/** How long a section shows who changed it from outside (CONTRACT 19: at least 5 s). */
export const CHANGED_MS = 6000;
/** A deletion counts as "while typing" when this person typed in the section this recently. */
const TYPING_MS = 60_000;

interface Loaded {
  sections: SectionRecord[];
  etag: string | null;
}

/** A section deleted while this person was typing in it: their text, and where it was. */
interface Ghost {
  id: string;
  anchor: string;
  title: string;
  html: string;
  after: string | null;
}

/** An array, as useRBAC asks (an object of permissions is deprecated and warned about on every page). */
const EDIT_AND_PUBLISH = [...PERMISSIONS.edit, ...PERMISSIONS.publish, ...PERMISSIONS.delete];

const isMark = (value: unknown): value is ChangeMark => typeof value === 'object' && value !== null && typeof (value as ChangeMark).name === 'string';

export const ArticlePage = () => {
  const { id = '' } = useParams<{ id: string }>();
  const { formatMessage, formatDate } = useIntl();
  const m = (key: string, defaultMessage: string, values?: Record<string, unknown>) => formatMessage({ id: t(key), defaultMessage }, values as never);
  const { get, post, del } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const {
    allowedActions: { canEdit, canPublish, canDelete },
  } = useRBAC(EDIT_AND_PUBLISH);
  const navigate = useNavigate();
  const { data, error, isLoading, reload: reloadArticle } = useAdminGet<AdminItem<AdminArticleDetail>>(id ? articleUrl(id) : null);
  const article = data?.data;

  const auth = useAuth('ArticlePage', (state) => state.user);
  const me = React.useMemo<LiveUser | null>(() => {
    if (!auth) return null;
    const name = [auth.firstname, auth.lastname].filter(Boolean).join(' ') || auth.username || auth.email || 'Editor';
    return { id: auth.id ?? null, name, color: colourFor(String(auth.id ?? name)) };
  }, [auth?.id, auth?.firstname, auth?.lastname, auth?.username, auth?.email]); // eslint-disable-line react-hooks/exhaustive-deps

  const [loaded, setLoaded] = React.useState<Loaded | null>(null);
  const [publishing, setPublishing] = React.useState(false);
  /** The section whose revisions are shown. */
  const [history, setHistory] = React.useState<string | null>(null);
  const [agents, setAgents] = React.useState<PresentAgent[]>([]);
  /** Sections changed from outside lately: id -> who. */
  const [changed, setChanged] = React.useState<Record<string, string>>({});
  const [ghosts, setGhosts] = React.useState<Ghost[]>([]);
  const [restoring, setRestoring] = React.useState<string | null>(null);
  const etagRef = React.useRef<string | null>(null);
  /** What this person typed lately, per section id: when, and the section's HTML then. */
  const typedRef = React.useRef(new Map<string, { at: number; html: string }>());
  /** Sections this person deleted themselves (no "deleted by" notice for those). */
  const removedHereRef = React.useRef(new Set<string>());

  const fail = (problem: unknown) => toggleNotification({ type: 'danger', message: formatAPIError(problem as never) });

  // The live channel's token: the admin's access token, refreshed first when it expired (the
  // fetch client refreshes on a 401 of any admin call).
  const freshToken = React.useCallback(async () => {
    await get('/admin/users/me').catch(() => undefined);
    return storedToken();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const found = article?.id === id;
  const live = useLiveArticle(found ? id : null, me, freshToken);
  const editable = canEdit && live.status !== 'refused' && !live.readOnly;

  /** The sections and the outline's ETag they match (read as text: the JSON reader hides headers). */
  const loadSections = React.useCallback(async () => {
    const { data: answer, etag } = parsed<{ sections: SectionRecord[] }>(await get<string>(articleUrl(id, '/sections'), { responseType: 'text' } as never));
    etagRef.current = etag;
    setLoaded({ sections: answer.sections, etag });
  }, [id]); // eslint-disable-line react-hooks/exhaustive-deps

  /** The current version of a section, with its ETag (the revisions dialog restores over it). */
  const readSection = async (anchor: string) => {
    const { data: answer, etag } = parsed<{ section: SectionRecord }>(await get<string>(articleUrl(id, `/sections/${anchor}`), { responseType: 'text' } as never));
    return { section: answer.section, etag };
  };

  React.useEffect(() => {
    if (found) loadSections().catch(fail);
  }, [found, loadSections]); // eslint-disable-line react-hooks/exhaustive-deps

  // Titles and word counts: poll the outline's ETag; on a change, reload the sections' records
  // (the editors are bound to the live document and are not touched).
  React.useEffect(() => {
    if (!id) return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      if (stopped || document.hidden || !etagRef.current) return;
      try {
        const response = await get<string>(articleUrl(id, '/outline'), {
          responseType: 'text',
          headers: { 'If-None-Match': etagRef.current },
          validateStatus: (status: number) => status === 304,
        } as never);
        if ((response as { status?: number }).status === 304 || stopped) return;
        await loadSections();
        reloadArticle();
      } catch {
        // A failed poll is retried at the next tick.
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [id, loadSections]); // eslint-disable-line react-hooks/exhaustive-deps

  // The order of the live document wins once it is there; the HTTP outline until then.
  const byId = React.useMemo(() => new Map((loaded?.sections ?? []).map((section) => [section.id, section])), [loaded]);
  const liveOrder = live.synced ? live.order : null;
  const missing = liveOrder?.some((sectionId) => !byId.has(sectionId)) ?? false;
  React.useEffect(() => {
    // A section the server added (an agent, another editor): read its record.
    if (missing) loadSections().catch(() => undefined);
  }, [missing, liveOrder?.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps
  const sections = React.useMemo(
    () => (liveOrder ? liveOrder.map((sectionId) => byId.get(sectionId)).filter((section): section is SectionRecord => Boolean(section)) : (loaded?.sections ?? [])),
    [liveOrder, byId, loaded],
  );

  // What changed from outside (meta `changed:<id>`), and sections deleted while typed in
  // (they leave `order`; meta `deleted:<id>` says who).
  const metaRef = React.useRef<Record<string, unknown> | null>(null);
  const orderRef = React.useRef<string[] | null>(null);
  React.useEffect(() => {
    if (!live.synced) {
      metaRef.current = null;
      orderRef.current = null;
      return;
    }
    const before = metaRef.current;
    metaRef.current = live.meta;
    if (before) {
      const fresh: Record<string, string> = {};
      for (const [key, value] of Object.entries(live.meta)) {
        if (!key.startsWith('changed:') || !isMark(value) || JSON.stringify(before[key]) === JSON.stringify(value)) continue;
        if (value.kind === 'editor' && value.name === me?.name) continue; // our own typing, stored
        fresh[key.slice('changed:'.length)] = value.name;
      }
      if (Object.keys(fresh).length) {
        setChanged((current) => ({ ...current, ...fresh }));
        window.setTimeout(() => setChanged((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !(key in fresh)))), CHANGED_MS);
      }
      if (before.notesRev !== live.meta.notesRev || before.titleRev !== live.meta.titleRev) reloadArticle();
    }
  }, [live.synced, live.meta]); // eslint-disable-line react-hooks/exhaustive-deps

  React.useEffect(() => {
    if (!live.synced || !live.order) return;
    const before = orderRef.current;
    orderRef.current = live.order;
    if (!before) return;
    const now = Date.now();
    const gone = before.filter((sectionId) => !live.order!.includes(sectionId));
    const back = new Set(live.order);
    setGhosts((current) => {
      const kept = current.filter((ghost) => !back.has(ghost.id));
      for (const sectionId of gone) {
        const typed = typedRef.current.get(sectionId);
        if (removedHereRef.current.has(sectionId) || !typed || now - typed.at > TYPING_MS || kept.some((ghost) => ghost.id === sectionId)) continue;
        const record = byId.get(sectionId);
        const index = before.indexOf(sectionId);
        const after = before.slice(0, index).reverse().find((other) => back.has(other)) ?? null;
        kept.push({ id: sectionId, anchor: record?.anchor ?? sectionId, title: record?.title ?? '', html: typed.html, after });
      }
      return kept;
    });
    if (gone.length || live.order.some((sectionId) => !before.includes(sectionId))) {
      loadSections().catch(() => undefined);
      reloadArticle();
    }
  }, [live.synced, live.order]); // eslint-disable-line react-hooks/exhaustive-deps

  // Agents who wrote in the last 60 s (the server's presence route), asked now and then and
  // whenever the live document says something changed.
  const metaVersion = JSON.stringify(live.meta).length;
  React.useEffect(() => {
    if (!found) return;
    let stopped = false;
    const ask = async () => {
      if (document.hidden) return;
      try {
        const { data: answer } = await get<{ data: { present: PresentAgent[] } }>(articleUrl(id, '/presence'));
        if (!stopped) setAgents(answer.data.present.filter((entry) => entry.kind !== 'editor'));
      } catch {
        // No presence route (yet), or a failed ask: the people in the article still show.
      }
    };
    void ask();
    const timer = window.setInterval(ask, PRESENCE_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [found, id, metaVersion]); // eslint-disable-line react-hooks/exhaustive-deps

  // A change the server refused: say why (the document was reopened without it).
  React.useEffect(() => {
    if (live.refusal) toggleNotification({ type: 'danger', message: m('canvas.refused', 'Your last change was not kept: {reason}', { reason: live.refusal.reason }) });
  }, [live.refusal?.at]); // eslint-disable-line react-hooks/exhaustive-deps

  // Nothing lost: leaving with changes the server has not acknowledged asks first.
  const unsaved = live.unsynced > 0 || Boolean(live.provider?.hasUnsyncedChanges);
  const unsavedRef = React.useRef(unsaved);
  unsavedRef.current = unsaved;
  React.useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (!unsavedRef.current && !(live.provider?.hasUnsyncedChanges ?? false)) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [live.provider]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => unsavedRef.current && currentLocation.pathname !== nextLocation.pathname);
  React.useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(m('canvas.leave', 'Some of your changes have not reached the server yet (offline?). Leave anyway and lose them?'))) blocker.proceed();
    else blocker.reset();
  }, [blocker.state]); // eslint-disable-line react-hooks/exhaustive-deps

  // Ctrl+S / Cmd+S: there is nothing to save by hand; say so instead of the browser's dialog.
  React.useEffect(() => {
    const save = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's') return;
      event.preventDefault();
      live.provider?.flushPendingUpdates();
      const offline = live.status !== 'connected';
      toggleNotification({
        type: offline ? 'warning' : 'info',
        message: offline
          ? m('canvas.saveOffline', 'Offline: your changes are kept in this page and sent when the connection is back.')
          : m('canvas.savedAutomatically', 'Saved automatically: everything you type is stored as you go.'),
      });
    };
    window.addEventListener('keydown', save);
    return () => window.removeEventListener('keydown', save);
  }, [live.provider, live.status]); // eslint-disable-line react-hooks/exhaustive-deps

  const onTyped = React.useCallback((sectionId: string, html: string) => {
    typedRef.current.set(sectionId, { at: Date.now(), html });
  }, []);

  /** A write of ours: run it, then show the sections and totals as the server has them. */
  const write = async (work: () => Promise<unknown>, done?: string) => {
    try {
      await work();
      if (done) toggleNotification({ type: 'success', message: done });
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
  /** Sections where this person started typing while suggestions wait there (the warning shows), and those whose warning they dismissed. */
  const [warned, setWarned] = React.useState<Set<string>>(new Set());
  const dismissedRef = React.useRef(new Set<string>());
  /** Typing in a section suggestions wait on may make them stale: say so (once, until dismissed). */
  const typingStarts = (sectionId: string, event: React.KeyboardEvent | React.ClipboardEvent) => {
    if (!startsTyping(event) || !suggestions.bySection.get(sectionId)?.length || dismissedRef.current.has(sectionId) || warned.has(sectionId)) return;
    setWarned((current) => new Set(current).add(sectionId));
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
    void write(() => post(articleUrl(id, `/sections/${anchor}/move`), placement));
  };

  const add = async (title: string) => {
    const last = sections[sections.length - 1];
    let added: string | undefined;
    await write(async () => {
      const { data: answer } = await post<{ data: { added: Array<{ anchor: string }> } }>(articleUrl(id, '/sections'), {
        markdown: `## ${title.replace(/\s+/g, ' ')}`,
        ...(last ? { after: last.anchor } : {}),
      });
      added = answer.data.added[0]?.anchor;
    }, m('canvas.added', 'Section added'));
    if (added) jump(added);
  };

  const remove = (anchor: string) => {
    const doomed = sections.find((section) => section.anchor === anchor);
    if (doomed) removedHereRef.current.add(doomed.id);
    void write(() => del(articleUrl(id, `/sections/${anchor}`)), m('canvas.deleted', 'Section deleted'));
  };

  /** Brings back a section deleted while this person typed in it (the trash holds their text), where it was. */
  const restoreGhost = async (ghost: Ghost) => {
    const mark = live.meta[`deleted:${ghost.id}`];
    const trashId = isMark(mark) && mark.trashId ? mark.trashId : ghost.id;
    const after = ghost.after ? byId.get(ghost.after)?.anchor : undefined;
    setRestoring(ghost.id);
    const ok = await write(() => post(articleUrl(id, `/trash/${encodeURIComponent(trashId)}/restore`), after ? { after } : {}), m('canvas.ghost.restored', 'Section restored'));
    setRestoring(null);
    if (ok) setGhosts((current) => current.filter((other) => other.id !== ghost.id));
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
      () => (publish ? post(articleUrl(id, '/publish'), {}) : del(articleUrl(id, '/publish'))),
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

  const published = article.status === 'published';
  const noTitle = m('canvas.untitled', '(text before the first heading)');
  const peersIn = (sectionId: string) => live.peers.filter((peer) => peer.section === sectionId).map((peer) => peer.name);

  const ghostView = (ghost: Ghost) => {
    const mark = live.meta[`deleted:${ghost.id}`];
    const by = isMark(mark) ? mark.name : null;
    return (
      <Box
        key={`ghost-${ghost.id}`}
        tag="section"
        data-deleted={ghost.id}
        background="danger100"
        borderColor="danger200"
        borderStyle="solid"
        borderWidth="1px"
        hasRadius
        padding={4}
        role="alert"
      >
        <Flex justifyContent="space-between" alignItems="center" gap={2} wrap="wrap" paddingBottom={2}>
          <Typography fontWeight="bold" data-testid="deleted-notice">
            {by
              ? m('canvas.ghost.by', 'Deleted by {name} while you were typing in it. Your text is kept in the trash.', { name: by })
              : m('canvas.ghost', 'This section was deleted while you were typing in it. Your text is kept in the trash.')}
          </Typography>
          <Flex gap={2}>
            {editable ? (
              <Button size="S" onClick={() => restoreGhost(ghost)} loading={restoring === ghost.id}>
                {m('canvas.ghost.restore', 'Restore')}
              </Button>
            ) : null}
            <Button size="S" variant="tertiary" onClick={() => setGhosts((current) => current.filter((other) => other.id !== ghost.id))}>
              {m('canvas.ghost.dismiss', 'Dismiss')}
            </Button>
          </Flex>
        </Flex>
        <Prose className="quire-prose" style={{ opacity: 0.75 }} dangerouslySetInnerHTML={{ __html: ghost.html }} />
      </Box>
    );
  };

  return (
    <Page.Main>
      <Page.Title>{`Quire - ${article.title}`}</Page.Title>
      <Layouts.Header
        navigationAction={<BackButton fallback=".." />}
        title={article.title}
        subtitle={m(
          'article.subtitle',
          'By {owner} · {words, plural, one {# word} other {# words}} · {sections, plural, one {# section} other {# sections}} · updated {updatedAt}',
          {
            owner: article.owner?.username ?? m('articles.owner.deleted', 'Deleted user'),
            words: article.words,
            sections: article.sections,
            updatedAt: formatDate(article.updatedAt, { dateStyle: 'medium', timeStyle: 'short' }),
          },
        )}
        secondaryAction={
          <Flex gap={1}>
            <StatusBadge status={article.status} />
            <ChangedBadge article={article} />
          </Flex>
        }
        primaryAction={
          <Flex gap={2} wrap="wrap" data-testid="publishing">
            <ArticleActions article={article} canEdit={canEdit} canDelete={canDelete} onRenamed={reloadArticle} onDeleted={() => navigate('../..', { relative: 'path' })} />
            <PreviewButton articleId={article.id} version={loaded?.etag ?? undefined} />
            {published && article.publicUrl ? (
              <LinkButton href={article.publicUrl} isExternal variant="tertiary" endIcon={<ExternalLink />}>
                {m('canvas.openPublic', 'Open the public page')}
              </LinkButton>
            ) : null}
            {canPublish && published ? (
              <Button variant="secondary" onClick={() => setPublished(false)} loading={publishing}>
                {m('canvas.unpublish', 'Unpublish')}
              </Button>
            ) : null}
            {canPublish ? (
              <Button onClick={() => setPublished(true)} loading={publishing}>
                {published ? m('canvas.republish', 'Republish') : m('canvas.publish', 'Publish')}
              </Button>
            ) : null}
          </Flex>
        }
      />
      <Layouts.Content>
        {!loaded ? (
          <Page.Loading />
        ) : (
          <Flex direction="column" alignItems="stretch" gap={4}>
            <Flex justifyContent="space-between" alignItems="center" gap={3} wrap="wrap">
              <PresenceBar me={me} peers={live.peers} agents={agents} />
              <LiveStatusBadge status={live.status} synced={live.synced} unsynced={live.unsynced} reason={live.reason} />
            </Flex>
            {/* Three columns on a laptop; on a tablet the Brief goes below; on a phone all stack. */}
            <Grid.Root gap={4} style={{ alignItems: 'start' }}>
              <Grid.Item xs={12} m={4} col={3} direction="column" alignItems="stretch">
                <Outline sections={sections} canEdit={canEdit} onJump={jump} onMove={move} onAdd={add} onDelete={remove} />
              </Grid.Item>
              <Grid.Item xs={12} m={8} col={6} direction="column" alignItems="stretch">
                <Flex tag="article" direction="column" alignItems="stretch" gap={3} aria-label={article.title} data-testid="canvas" data-live={live.synced ? 'on' : 'off'}>
                  {ghosts.filter((ghost) => ghost.after === null).map(ghostView)}
                  {sections.map((section) => {
                    const editing = peersIn(section.id);
                    const waiting = suggestions.bySection.get(section.id) ?? [];
                    const header = (
                      <Flex gap={2} alignItems="center">
                        <Badge
                          backgroundColor={section.source === 'html' ? 'alternative100' : 'neutral150'}
                          textColor={section.source === 'html' ? 'alternative700' : 'neutral700'}
                          data-source-badge={section.source}
                        >
                          {section.source === 'html' ? m('canvas.source.html', 'HTML') : m('canvas.source.markdown', 'Markdown')}
                        </Badge>
                        <Button
                          size="S"
                          variant="ghost"
                          startIcon={<Clock />}
                          onClick={() => setHistory(section.anchor)}
                          aria-label={m('review.history.label', 'History of "{title}"', { title: untitled(section, noTitle) })}
                        >
                          {m('review.history', 'History')}
                        </Button>
                        {editing.length ? (
                          <Typography variant="pi" textColor="neutral600" data-testid="editing-names">
                            {m('canvas.editingBy', '{names} editing', { names: editing.join(', ') })}
                          </Typography>
                        ) : null}
                        {changed[section.id] ? (
                          <Typography variant="pi" textColor="success600" data-testid="changed-names">
                            {m('canvas.changedBy', 'Changed by {name}', { name: changed[section.id] })}
                          </Typography>
                        ) : null}
                      </Flex>
                    );
                    return (
                      <React.Fragment key={section.id}>
                        <Box
                          tag="section"
                          data-anchor={section.anchor}
                          data-source={section.source}
                          data-section-id={section.id}
                          data-editing={editing.length ? editing.join(', ') : undefined}
                          data-changed-by={changed[section.id]}
                          data-suggestions={waiting.length || undefined}
                          onKeyDown={(event: React.KeyboardEvent) => typingStarts(section.id, event)}
                          onPaste={(event: React.ClipboardEvent) => typingStarts(section.id, event)}
                          tabIndex={-1}
                          background="neutral0"
                          hasRadius
                          shadow="tableShadow"
                          padding={4}
                          aria-label={untitled(section, noTitle)}
                          style={editing.length ? { boxShadow: `0 0 0 2px ${live.peers.find((peer) => peer.section === section.id)?.color ?? 'transparent'}` } : undefined}
                        >
                          {live.synced && live.provider && me ? (
                            <Prose>
                              <SectionEditor provider={live.provider} sectionId={section.id} user={me} editable={editable} header={header} onTyped={onTyped} />
                            </Prose>
                          ) : (
                            <>
                              <Flex paddingBottom={2} style={{ minHeight: '3.2rem' }}>
                                {header}
                              </Flex>
                              <Prose className="quire-prose" dangerouslySetInnerHTML={{ __html: section.html || `<p><em>${m('canvas.empty', 'Empty')}</em></p>` }} />
                            </>
                          )}
                          <SectionSuggestions
                            items={waiting}
                            title={untitled(section, noTitle)}
                            canEdit={canEdit}
                            warn={warned.has(section.id)}
                            onDismissWarning={() => {
                              dismissedRef.current.add(section.id);
                              setWarned((current) => new Set([...current].filter((other) => other !== section.id)));
                            }}
                            decide={decide}
                          />
                        </Box>
                        {ghosts.filter((ghost) => ghost.after === section.id).map(ghostView)}
                      </React.Fragment>
                    );
                  })}
                  {ghosts.filter((ghost) => ghost.after !== null && !sections.some((section) => section.id === ghost.after)).map(ghostView)}
                </Flex>
              </Grid.Item>
              <Grid.Item xs={12} col={3} direction="column" alignItems="stretch">
                <Flex direction="column" alignItems="stretch" gap={4}>
                  <BriefPanel articleId={id} canEdit={editable} live={live.synced && live.doc ? live.doc : null} notesRev={live.meta.notesRev} />
                  <SuggestionsOverview list={suggestions.list} sections={sections} untitled={noTitle} canEdit={canEdit} decide={decide} onJump={jump} />
                  <TrashPanel articleId={id} canEdit={canEdit} version={loaded.etag} sections={sections} onRestored={refresh} />
                </Flex>
              </Grid.Item>
            </Grid.Root>
          </Flex>
        )}
      </Layouts.Content>
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
