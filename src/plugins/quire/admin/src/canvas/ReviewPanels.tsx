/**
 * Review beside the article (CONTRACT 12, for an editor): a section's revisions (who, when,
 * words; a version side by side with the current one; restore) and the trash (restore). They
 * call the canvas's admin routes (server routes/admin.ts:
 * `/quire/articles/{id}/sections/{sid}/revisions...`, `/trash...`), which call the content
 * API's history service with the editor as actor. After a restore the page reloads the outline
 * and the sections (`onRestored`). Restoring from the trash asks where (the end, or after a
 * section of the outline: `after`). Suggestions are shown in the sections they touch:
 * canvas/suggestions/.
 */
import { Badge, Box, Button, Field, Flex, Grid, Modal, SingleSelect, SingleSelectOption, Typography } from '@strapi/design-system';
import * as React from 'react';
import type { Actor, Revision, RevisionEntry, SectionRecord, TrashEntry } from '../api';
import { markWordChanges } from '../../../shared/word-diff';
import { ByLine, Marked, Panel } from './review-common';
import { useMessages } from '../messages';
import { useSectionsApi } from '../api/sections';
import { useTrashApi } from '../api/trash';

/** GET .../accepted: versions that came from an accepted suggestion, and who accepted them. */
interface Accepted {
  rev: number;
  acceptedBy: Actor;
}

/** "Suggested by the agent above; accepted by Ada (editor)": who let a suggestion in. */
const AcceptedLine = ({ by }: { by: Actor }) => {
  const { m } = useMessages();
  return (
    <Typography variant="pi" textColor="success700" data-accepted-by={by.name}>
      {m('review.acceptedBy', 'Suggestion accepted by {name} ({kind})', { name: by.name || m('review.nobody', 'unknown'), kind: m(`review.kind.${by.kind}`, by.kind) })}
    </Typography>
  );
};

interface Current {
  section: SectionRecord;
  etag: string | null;
}

/**
 * A section's revisions, newest first (the current one included); one shown beside the current
 * version and restorable. The restore sends the current version's ETag as If-Match: a section
 * an agent changed meanwhile is not overwritten (412), and the dialog shows it again.
 */
export const RevisionsDialog = ({
  articleId,
  anchor,
  title,
  canEdit,
  readCurrent,
  onClose,
  onRestored,
}: {
  articleId: string;
  anchor: string;
  title: string;
  canEdit: boolean;
  readCurrent: () => Promise<Current>;
  onClose: () => void;
  onRestored: () => void;
}) => {
  const { m, notify } = useMessages();
  const sectionsApi = useSectionsApi(articleId);
  const [revisions, setRevisions] = React.useState<RevisionEntry[] | null>(null);
  const [accepted, setAccepted] = React.useState<Map<number, Actor>>(new Map());
  const [current, setCurrent] = React.useState<Current | null>(null);
  const [shown, setShown] = React.useState<Revision | null>(null);
  const [restoring, setRestoring] = React.useState(false);
  const comparison = React.useRef<HTMLDivElement>(null);
  const fail = (error: unknown) => notify.failure(error);

  const load = React.useCallback(async () => {
    const [list, now, decided] = await Promise.all([
      sectionsApi.revisions(anchor),
      readCurrent(),
      sectionsApi.accepted(anchor).then(
        (answer) => answer.accepted as Accepted[],
        () => [] as Accepted[],
      ),
    ]);
    setRevisions(list.revisions as RevisionEntry[]);
    setAccepted(new Map(decided.map((entry) => [entry.rev, entry.acceptedBy])));
    setCurrent(now);
  }, [articleId, anchor]); // eslint-disable-line react-hooks/exhaustive-deps

  React.useEffect(() => {
    load().catch(fail);
  }, [load]); // eslint-disable-line react-hooks/exhaustive-deps

  // A version picked is shown below the list: bring it into view (on a phone the list fills the screen).
  React.useEffect(() => {
    if (shown) comparison.current?.scrollIntoView({ block: 'start' });
  }, [shown]);

  const show = (rev: number) =>
    sectionsApi.revision(anchor, rev).then((answer) => setShown(answer.revision as Revision), fail);

  const restore = async () => {
    if (!shown) return;
    setRestoring(true);
    try {
      await sectionsApi.restoreRevision(anchor, shown.rev, current?.etag ? { headers: { 'If-Match': current.etag } } : undefined);
      notify.success(m('review.restored', 'Revision {rev} restored as a new revision', { rev: shown.rev }));
      onRestored();
      onClose();
    } catch (error) {
      if ((error as { status?: number }).status === 412) {
        notify.warning(m('review.restore.changed', 'This section changed while you were looking: nothing was restored. Here is its history as it is now.'));
        setShown(null);
        await load().catch(fail);
        onRestored();
      } else fail(error);
    } finally {
      setRestoring(false);
    }
  };

  const latest = revisions?.[0]?.rev;
  // The words that differ, marked on both sides (del in that version, ins in the current one).
  const marks = React.useMemo(() => (shown && current ? markWordChanges(shown.html, current.section.html) : null), [shown, current]);
  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onClose()}>
      <Modal.Content style={{ maxWidth: '110rem', width: 'calc(100vw - 2rem)' }} data-testid="revisions-dialog">
        <Modal.Header>
          <Modal.Title>{m('review.revisions', 'Revisions of "{title}"', { title })}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Flex direction="column" alignItems="stretch" gap={4}>
            <Flex tag="ol" direction="column" alignItems="stretch" gap={2} data-testid="revisions">
              {(revisions ?? []).map((revision) => (
                <Flex
                  tag="li"
                  key={revision.rev}
                  gap={2}
                  justifyContent="space-between"
                  alignItems="center"
                  data-rev={revision.rev}
                  wrap="wrap"
                  padding={2}
                  hasRadius
                  background={shown?.rev === revision.rev ? 'primary100' : undefined}
                >
                  <Flex direction="column" alignItems="flex-start" gap={1} style={{ minWidth: 0 }}>
                    <Flex gap={2} wrap="wrap">
                      <Typography fontWeight="bold">{m('review.rev', 'Revision {rev}', { rev: revision.rev })}</Typography>
                      {revision.rev === latest ? <Badge>{m('review.current', 'current')}</Badge> : null}
                      <Typography variant="pi" textColor="neutral600">
                        {m('review.words', '{words, plural, one {# word} other {# words}}', { words: revision.words })} ·{' '}
                        {revision.source === 'html' ? m('canvas.source.html', 'HTML') : m('canvas.source.markdown', 'Markdown')}
                      </Typography>
                    </Flex>
                    <ByLine by={revision.by} at={revision.createdAt} />
                    {accepted.has(revision.rev) ? <AcceptedLine by={accepted.get(revision.rev)!} /> : null}
                  </Flex>
                  {revision.rev !== latest ? (
                    <Button size="S" variant="tertiary" onClick={() => show(revision.rev)} aria-label={m('review.compare.label', 'Compare revision {rev} with the current one', { rev: revision.rev })}>
                      {m('review.compare', 'Compare')}
                    </Button>
                  ) : null}
                </Flex>
              ))}
              {revisions?.length === 1 ? <Typography textColor="neutral600">{m('review.onlyOne', 'This section has not changed since it was written.')}</Typography> : null}
            </Flex>
            {shown && current && marks ? (
              <Grid.Root gap={4} data-testid="side-by-side" ref={comparison}>
                <Grid.Item xs={12} direction="column" alignItems="stretch">
                  <Typography variant="pi" textColor="neutral600" data-testid="compare-legend">
                    {!marks.marked
                      ? m('review.compare.tooMany', 'These versions differ too much to mark word by word.')
                      : marks.changed
                        ? m('review.compare.legend', 'Words struck through on the left are gone since; highlighted words on the right are new.')
                        : m('review.compare.noWords', 'No word differs (only spacing or formatting).')}
                  </Typography>
                </Grid.Item>
                <Grid.Item xs={12} m={6} direction="column" alignItems="stretch">
                  <Typography variant="sigma" tag="h3">
                    {m('review.thatVersion', 'Revision {rev}', { rev: shown.rev })}
                  </Typography>
                  <Box padding={3} hasRadius borderColor="neutral200" borderStyle="solid" borderWidth="1px" data-version={shown.rev}>
                    <Marked dangerouslySetInnerHTML={{ __html: marks.before }} />
                  </Box>
                </Grid.Item>
                <Grid.Item xs={12} m={6} direction="column" alignItems="stretch">
                  <Typography variant="sigma" tag="h3">
                    {m('review.currentVersion', 'Current')}
                  </Typography>
                  <Box padding={3} hasRadius borderColor="neutral200" borderStyle="solid" borderWidth="1px" data-version="current">
                    <Marked dangerouslySetInnerHTML={{ __html: marks.after }} />
                  </Box>
                </Grid.Item>
              </Grid.Root>
            ) : null}
          </Flex>
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{m('review.close', 'Close')}</Button>
          </Modal.Close>
          {shown && canEdit ? (
            <Button onClick={restore} loading={restoring}>
              {m('review.restore', 'Restore revision {rev}', { rev: shown.rev })}
            </Button>
          ) : null}
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};

/** The place picker's values for "at the start" and "at the end" (section anchors are hex, so they cannot clash). */
const AT_START = 'start';
const AT_END = 'end';

/** Where a restored section goes: `before` or `after` a section's anchor, or neither (the end). */
type Place = { before: string } | { after: string } | Record<string, never>;

/**
 * Where a section from the trash goes back: at the end (the default), at the start, or after a
 * section of the outline as it is now.
 */
const RestoreDialog = ({
  entry,
  sections,
  busy,
  failures,
  onCancel,
  onRestore,
}: {
  entry: TrashEntry;
  sections: SectionRecord[];
  busy: boolean;
  /** Restores refused so far: after one, a place that no longer exists goes back to the end. */
  failures: number;
  onCancel: () => void;
  onRestore: (place: Place) => void;
}) => {
  const { m } = useMessages();
  const [place, setPlace] = React.useState<string>(AT_END);
  // The section picked may go meanwhile (an agent deleted it): the restore is refused and says
  // so, and the choice goes back to the end. Not before the person asks: the live canvas drops
  // the section from the list at once, and a choice changing under their pointer would put it
  // somewhere they did not pick.
  React.useEffect(() => {
    if (failures && place !== AT_END && place !== AT_START && !sections.some((s) => s.anchor === place)) setPlace(AT_END);
  }, [failures]); // eslint-disable-line react-hooks/exhaustive-deps
  const untitled = m('canvas.untitled', '(text before the first heading)');
  const title = entry.title || untitled;
  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onCancel()}>
      <Modal.Content style={{ maxWidth: '56rem', width: 'calc(100vw - 2rem)' }} data-testid="restore-dialog">
        <Modal.Header>
          <Modal.Title>{m('review.trash.dialog', 'Restore "{title}"', { title })}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Field.Root name="place" hint={m('review.trash.placeHint', 'It comes back with its content and its history.')}>
            <Field.Label>{m('review.trash.place', 'Put it back')}</Field.Label>
            <SingleSelect value={place} onChange={(value: string | number) => setPlace(String(value))} data-testid="restore-place">
              <SingleSelectOption value={AT_END}>{m('review.trash.atEnd', 'At the end')}</SingleSelectOption>
              {sections.length ? <SingleSelectOption value={AT_START}>{m('review.trash.atStart', 'At the start')}</SingleSelectOption> : null}
              {sections.map((section) => (
                <SingleSelectOption key={section.id} value={section.anchor}>
                  {m('review.trash.after', 'After "{title}"', { title: section.title || untitled })}
                </SingleSelectOption>
              ))}
            </SingleSelect>
            <Field.Hint />
          </Field.Root>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="tertiary" onClick={onCancel}>
            {m('review.cancel', 'Cancel')}
          </Button>
          <Button
            onClick={() => onRestore(place === AT_END || !sections.length ? {} : place === AT_START ? { before: sections[0].anchor } : { after: place })}
            loading={busy}
          >
            {m('review.trash.restore', 'Restore')}
          </Button>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};

/**
 * Deleted sections (kept 30 days), each restorable where the editor picks (the end by
 * default, the start, or after a section of the current outline). Hidden while empty.
 */
export const TrashPanel = ({
  articleId,
  canEdit,
  version,
  sections,
  onRestored,
}: {
  articleId: string;
  canEdit: boolean;
  version: string | null;
  sections: SectionRecord[];
  onRestored: () => void;
}) => {
  const { m, notify } = useMessages();
  const trashApi = useTrashApi();
  const [trash, setTrash] = React.useState<TrashEntry[]>([]);
  const [picking, setPicking] = React.useState<TrashEntry | null>(null);
  const [busy, setBusy] = React.useState(false);
  const [failures, setFailures] = React.useState(0);
  const load = React.useCallback(
    () => trashApi.sections(articleId).then((answer) => setTrash(answer.sections as TrashEntry[])),
    [articleId], // eslint-disable-line react-hooks/exhaustive-deps
  );
  // Reloaded whenever the outline changes (a deletion, a restore).
  React.useEffect(() => {
    load().catch(() => undefined);
  }, [load, version]);

  const untitled = m('canvas.untitled', '(text before the first heading)');
  const restore = async (entry: TrashEntry, place: Place) => {
    setBusy(true);
    try {
      await trashApi.restoreSection(articleId, entry.anchor, place);
      const title = entry.title || untitled;
      const after = 'after' in place ? sections.find((s) => s.anchor === place.after)?.title || untitled : null;
      notify.success(
        after !== null
          ? m('review.trash.restoredAfter', '"{title}" is back, after "{after}"', { title, after })
          : 'before' in place
            ? m('review.trash.restoredStart', '"{title}" is back, at the start', { title })
            : m('review.trash.restored', '"{title}" is back, at the end', { title }),
      );
      setPicking(null);
      onRestored();
    } catch (error) {
      // The dialog stays open (the section picked may have gone meanwhile): pick again.
      notify.failure(error);
      setFailures((n) => n + 1);
      onRestored();
    } finally {
      setBusy(false);
      await load().catch(() => undefined);
    }
  };

  if (!trash.length) return null;
  return (
    <Panel title={m('review.trash', 'Trash ({count})', { count: trash.length })} testId="trash">
      <Box paddingTop={1}>
        <Typography variant="pi" textColor="neutral600">
          {m('review.trash.hint', 'Deleted sections are kept for 30 days.')}
        </Typography>
      </Box>
      <Flex tag="ul" direction="column" alignItems="stretch" gap={2} paddingTop={3}>
        {trash.map((entry) => {
          const title = entry.title || untitled;
          return (
            <Flex tag="li" key={entry.id} justifyContent="space-between" alignItems="center" gap={2} data-trashed={entry.anchor}>
              <Flex direction="column" alignItems="flex-start" gap={1} style={{ minWidth: 0 }}>
                <Typography fontWeight="bold" style={{ overflowWrap: 'anywhere' }}>
                  {title}
                </Typography>
                <Typography variant="pi" textColor="neutral600">
                  {m('review.words', '{words, plural, one {# word} other {# words}}', { words: entry.words })}
                </Typography>
                <ByLine by={entry.by} at={entry.deletedAt} />
              </Flex>
              {canEdit ? (
                <Button size="S" variant="secondary" onClick={() => setPicking(entry)} aria-label={m('review.trash.restoreLabel', 'Restore "{title}"', { title })}>
                  {m('review.trash.restore', 'Restore')}
                </Button>
              ) : null}
            </Flex>
          );
        })}
      </Flex>
      {picking ? <RestoreDialog entry={picking} sections={sections} busy={busy} failures={failures} onCancel={() => setPicking(null)} onRestore={(place) => restore(picking, place)} /> : null}
    </Panel>
  );
};
