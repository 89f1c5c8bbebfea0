/**
 * /admin/plugins/quire/articles/:id: the editors' canvas (CONTRACT 18). The outline beside the
 * article; every section rendered with data-anchor and data-source; one section at a time in
 * the rich-text editor, saved as HTML; the Brief; review (a section's revisions from its header,
 * the suggestions and the trash below the Brief: canvas/ReviewPanels.tsx); publish and
 * unpublish. While it is open the canvas polls the outline's ETag (If-None-Match) and
 * refreshes the sections not being edited.
 */
import { Badge, Box, Button, Dialog, EmptyStateLayout, Flex, Grid, LinkButton, Typography } from '@strapi/design-system';
import { Clock, ExternalLink, Pencil } from '@strapi/icons';
import { BackButton, Layouts, Page, useAPIErrorHandler, useFetchClient, useNotification, useRBAC } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';
import { NavLink, useNavigate, useParams } from 'react-router-dom';
import type { AdminItem } from '../../../../../kernel/admin-ui/types';
import { useAdminGet } from '../../../../../kernel/admin-ui/use-admin-get';
import { articleUrl, parsed, type Actor, type AdminArticleDetail, type RevisionEntry, type SectionRecord } from '../api';
import { BriefPanel } from '../canvas/BriefPanel';
import { Outline, untitled, type Placement } from '../canvas/Outline';
import { RevisionsDialog, SuggestionsPanel, TrashPanel } from '../canvas/ReviewPanels';
import { SectionEditor } from '../canvas/SectionEditor';
import { Prose } from '../canvas/styles';
import { ArticleActions, ChangedBadge, PreviewButton } from '../components/ArticleManagement';
import { StatusBadge } from '../components/StatusBadge';
import { PERMISSIONS } from '../permissions';
import { t } from '../pluginId';

/** How often the canvas asks whether the outline changed (a 304 costs one indexed read). */
export const POLL_MS = 3000;

interface Loaded {
  sections: SectionRecord[];
  etag: string | null;
}

/** The section open in the editor: the version it started from (its ETag and HTML). */
interface Editing {
  anchor: string;
  etag: string | null;
  html: string;
  /** Bumped when the editor must start again from another version (after a reload). */
  generation: number;
}

/** A save refused because the section changed since it was opened: the editor's text, kept. */
interface Conflict {
  anchor: string;
  mine: string;
  /** Who made the version that stands now, and when (the section's newest revision), once read. */
  theirs?: { by: Actor; at: string };
}

/** An array, as useRBAC asks (an object of permissions is deprecated and warned about on every page). */
const EDIT_AND_PUBLISH = [...PERMISSIONS.edit, ...PERMISSIONS.publish, ...PERMISSIONS.delete];

export const ArticlePage = () => {
  const { id = '' } = useParams<{ id: string }>();
  const { formatMessage, formatDate } = useIntl();
  const m = (key: string, defaultMessage: string, values?: Record<string, unknown>) => formatMessage({ id: t(key), defaultMessage }, values as never);
  const { get, put, post, del } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const {
    allowedActions: { canEdit, canPublish, canDelete },
  } = useRBAC(EDIT_AND_PUBLISH);
  const navigate = useNavigate();
  const { data, error, isLoading, reload: reloadArticle } = useAdminGet<AdminItem<AdminArticleDetail>>(id ? articleUrl(id) : null);
  const article = data?.data;

  const [loaded, setLoaded] = React.useState<Loaded | null>(null);
  const [editing, setEditing] = React.useState<Editing | null>(null);
  const [conflict, setConflict] = React.useState<Conflict | null>(null);
  const [saving, setSaving] = React.useState(false);
  const [publishing, setPublishing] = React.useState(false);
  /** The section whose revisions are shown. */
  const [history, setHistory] = React.useState<string | null>(null);
  const etagRef = React.useRef<string | null>(null);

  const fail = (problem: unknown) => toggleNotification({ type: 'danger', message: formatAPIError(problem as never) });

  /** The sections and the outline's ETag they match (read as text: the JSON reader hides headers). */
  const loadSections = React.useCallback(async () => {
    const { data: answer, etag } = parsed<{ sections: SectionRecord[] }>(await get<string>(articleUrl(id, '/sections'), { responseType: 'text' } as never));
    etagRef.current = etag;
    setLoaded({ sections: answer.sections, etag });
  }, [id]); // eslint-disable-line react-hooks/exhaustive-deps

  /** The current version of a section, with the ETag a save sends back as If-Match. */
  const readSection = async (anchor: string) => {
    const { data: answer, etag } = parsed<{ section: SectionRecord }>(await get<string>(articleUrl(id, `/sections/${anchor}`), { responseType: 'text' } as never));
    return { section: answer.section, etag };
  };

  const openEditor = async (anchor: string) => {
    try {
      const { section, etag } = await readSection(anchor);
      setEditing({ anchor, etag, html: section.html, generation: 0 });
    } catch (problem) {
      fail(problem);
    }
  };

  const found = article?.id === id;
  React.useEffect(() => {
    if (found) loadSections().catch(fail);
  }, [found, loadSections]); // eslint-disable-line react-hooks/exhaustive-deps

  // Live enough: poll the outline's ETag; on a change, reload the sections (the one being
  // edited stays in the editor as it is).
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

  /** Who made a section's current version, and when; undefined when it cannot be read (the dialog then says "someone"). */
  const newestRevision = async (anchor: string) => {
    try {
      const { data: answer } = await get<{ data: { revisions: RevisionEntry[] } }>(articleUrl(id, `/sections/${anchor}/revisions`));
      const newest = answer.data.revisions[0];
      return newest ? { by: newest.by, at: newest.createdAt } : undefined;
    } catch {
      return undefined;
    }
  };

  /** Saves the editor's HTML over the version it opened (If-Match); a newer version is a conflict, not an overwrite. */
  const save = async (html: string, etag = editing?.etag ?? null) => {
    if (!editing) return;
    setSaving(true);
    try {
      await put(articleUrl(id, `/sections/${editing.anchor}`), { html }, etag ? { headers: { 'If-Match': etag } } : undefined);
      toggleNotification({ type: 'success', message: m('canvas.saved', 'Section saved') });
      setEditing(null);
      setConflict(null);
    } catch (problem) {
      if ((problem as { status?: number }).status === 412) {
        const { anchor } = editing;
        setConflict({ anchor, mine: html });
        // Who saved the version that stands (its newest revision): the dialog names them.
        void newestRevision(anchor).then((theirs) => theirs && setConflict((current) => (current?.anchor === anchor ? { ...current, theirs } : current)));
      } else fail(problem);
    } finally {
      setSaving(false);
      await loadSections().catch(() => undefined);
      reloadArticle();
    }
  };

  /** After a conflict: drop the editor's text and continue from the current version. */
  const reloadTheirs = async () => {
    if (!conflict) return;
    try {
      const { section, etag } = await readSection(conflict.anchor);
      setEditing((current) => ({ anchor: conflict.anchor, etag, html: section.html, generation: (current?.generation ?? 0) + 1 }));
      setConflict(null);
    } catch (problem) {
      fail(problem);
    }
  };

  /** After a conflict: save the editor's text on purpose, over the current version (which stays in the history). */
  const keepMine = async () => {
    if (!conflict) return;
    try {
      const { etag } = await readSection(conflict.anchor);
      await save(conflict.mine, etag);
    } catch (problem) {
      fail(problem);
    }
  };

  const move = (anchor: string, placement: Placement) => {
    // Show the new order at once; the server's answer follows.
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
    const last = loaded?.sections[loaded.sections.length - 1];
    let added: string | undefined;
    await write(async () => {
      const { data: answer } = await post<{ data: { added: Array<{ anchor: string }> } }>(articleUrl(id, '/sections'), {
        markdown: `## ${title.replace(/\s+/g, ' ')}`,
        ...(last ? { after: last.anchor } : {}),
      });
      added = answer.data.added[0]?.anchor;
    }, m('canvas.added', 'Section added'));
    if (added) {
      await openEditor(added);
      jump(added);
    }
  };

  const remove = (anchor: string) => {
    if (editing?.anchor === anchor) setEditing(null);
    void write(() => del(articleUrl(id, `/sections/${anchor}`)), m('canvas.deleted', 'Section deleted'));
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
          // Three columns on a laptop; on a tablet the Brief goes below; on a phone all stack.
          <Grid.Root gap={4} style={{ alignItems: 'start' }}>
            <Grid.Item xs={12} m={4} col={3} direction="column" alignItems="stretch">
              <Outline sections={loaded.sections} canEdit={canEdit} onJump={jump} onMove={move} onAdd={add} onDelete={remove} />
            </Grid.Item>
            <Grid.Item xs={12} m={8} col={6} direction="column" alignItems="stretch">
              <Flex tag="article" direction="column" alignItems="stretch" gap={3} aria-label={article.title} data-testid="canvas">
                {loaded.sections.map((section) => (
                  <Box
                    key={section.anchor}
                    tag="section"
                    data-anchor={section.anchor}
                    data-source={section.source}
                    tabIndex={-1}
                    background="neutral0"
                    hasRadius
                    shadow="tableShadow"
                    padding={4}
                    aria-label={untitled(section, noTitle)}
                  >
                    <Flex justifyContent="space-between" alignItems="center" paddingBottom={2} gap={2} wrap="wrap">
                      <Badge
                        backgroundColor={section.source === 'html' ? 'alternative100' : 'neutral150'}
                        textColor={section.source === 'html' ? 'alternative700' : 'neutral700'}
                        data-source-badge={section.source}
                      >
                        {section.source === 'html' ? m('canvas.source.html', 'HTML') : m('canvas.source.markdown', 'Markdown')}
                      </Badge>
                      <Flex gap={1}>
                        <Button
                          size="S"
                          variant="ghost"
                          startIcon={<Clock />}
                          onClick={() => setHistory(section.anchor)}
                          aria-label={m('review.history.label', 'History of "{title}"', { title: untitled(section, noTitle) })}
                        >
                          {m('review.history', 'History')}
                        </Button>
                        {canEdit && editing?.anchor !== section.anchor ? (
                          <Button size="S" variant="ghost" startIcon={<Pencil />} onClick={() => openEditor(section.anchor)}>
                            {m('canvas.edit', 'Edit')}
                          </Button>
                        ) : null}
                      </Flex>
                    </Flex>
                    {editing?.anchor === section.anchor ? (
                      <Prose>
                        <SectionEditor
                          key={`${editing.anchor}-${editing.generation}`}
                          html={editing.html}
                          saving={saving}
                          onSave={(html) => save(html)}
                          onCancel={() => setEditing(null)}
                        />
                      </Prose>
                    ) : (
                      <Prose
                        className="quire-prose"
                        onClick={(event: React.MouseEvent) => {
                          if (!canEdit || editing !== null || (event.target as HTMLElement).closest('a')) return;
                          void openEditor(section.anchor);
                        }}
                        style={{ cursor: canEdit && editing === null ? 'text' : undefined }}
                        dangerouslySetInnerHTML={{ __html: section.html || `<p><em>${m('canvas.empty', 'Empty')}</em></p>` }}
                      />
                    )}
                  </Box>
                ))}
              </Flex>
            </Grid.Item>
            <Grid.Item xs={12} col={3} direction="column" alignItems="stretch">
              <Flex direction="column" alignItems="stretch" gap={4}>
                <BriefPanel articleId={id} canEdit={canEdit} />
                <SuggestionsPanel articleId={id} canEdit={canEdit} version={loaded.etag} sections={loaded.sections} onDecided={refresh} />
                <TrashPanel articleId={id} canEdit={canEdit} version={loaded.etag} sections={loaded.sections} onRestored={refresh} />
              </Flex>
            </Grid.Item>
          </Grid.Root>
        )}
      </Layouts.Content>
      {history && loaded ? (
        <RevisionsDialog
          articleId={id}
          anchor={history}
          title={untitled(loaded.sections.find((s) => s.anchor === history) ?? { title: '', level: 0 }, noTitle)}
          canEdit={canEdit}
          readCurrent={() => readSection(history)}
          onClose={() => setHistory(null)}
          onRestored={refresh}
        />
      ) : null}
      <Dialog.Root open={conflict !== null} onOpenChange={(open: boolean) => !open && setConflict(null)}>
        <Dialog.Content>
          <Dialog.Header>{m('canvas.conflict.title', 'This section changed while you were editing it')}</Dialog.Header>
          <Dialog.Body>
            <Typography data-testid="conflict">
              {conflict?.theirs
                ? m(
                    'canvas.conflict.bodyBy',
                    '{name} ({kind}) saved this section on {at}, after you opened it, so your text was not saved. Reload their version (your changes are dropped), or save yours as a new revision on top of it.',
                    {
                      name: conflict.theirs.by.name || m('review.nobody', 'unknown'),
                      kind: m(`review.kind.${conflict.theirs.by.kind}`, conflict.theirs.by.kind),
                      at: formatDate(conflict.theirs.at, { dateStyle: 'medium', timeStyle: 'short' }),
                    },
                  )
                : m(
                    'canvas.conflict.body',
                    'Someone else (an agent or another editor) saved this section after you opened it, so your text was not saved. Reload their version (your changes are dropped), or save yours as a new revision on top of it.',
                  )}
            </Typography>
          </Dialog.Body>
          <Dialog.Footer>
            <Button variant="tertiary" onClick={reloadTheirs}>
              {m('canvas.conflict.reload', 'Reload theirs')}
            </Button>
            <Button onClick={keepMine} loading={saving}>
              {m('canvas.conflict.keepMine', 'Save mine as a new revision')}
            </Button>
          </Dialog.Footer>
        </Dialog.Content>
      </Dialog.Root>
    </Page.Main>
  );
};
