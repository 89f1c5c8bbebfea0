/**
 * The article's history as change sets (CONTRACT 23), beside the article: each write with who,
 * why, when, the sections it changed and its status; "Undo this change" on each change set
 * still applied (or accepted), and "Undo this run" on one made in a run. A revert is a change
 * set of the editor's (server routes/admin.ts `/quire/articles/{id}/changes/...`), written
 * through the edits engine, so the live document (and every open canvas) gets it at once.
 * Passages changed since are not reverted: the panel lists them. Read again whenever the
 * outline changes (`version`) and after an undo.
 */
import { Badge, Box, Button, Flex, Typography } from '@strapi/design-system';
import * as React from 'react';
import { useChangesApi, type ChangeSet, type Reverted } from '../api/changes';
import { ByLine, Panel } from './review-common';
import { useMessages } from '../messages';

const UNDOABLE = new Set(['applied', 'accepted']);

export const ChangesPanel = ({
  articleId,
  canEdit,
  version,
  untitled,
  onReverted,
}: {
  articleId: string;
  canEdit: boolean;
  version: string | null;
  untitled: string;
  onReverted: () => void;
}) => {
  const { m, notify } = useMessages();
  const api = useChangesApi(articleId);
  const [changes, setChanges] = React.useState<ChangeSet[] | null>(null);
  const [busy, setBusy] = React.useState<string | null>(null);
  /** What the last undo left as it was (passages changed since). */
  const [conflicts, setConflicts] = React.useState<Reverted['conflicts']>([]);
  const load = React.useCallback(
    () => api.list().then((answer) => setChanges(answer.changes)),
    [articleId], // eslint-disable-line react-hooks/exhaustive-deps
  );
  React.useEffect(() => {
    load().catch(() => undefined);
  }, [load, version]);

  const undo = async (key: string, work: () => Promise<Reverted>) => {
    setBusy(key);
    try {
      const answer = await work();
      setConflicts(answer.conflicts);
      if (answer.conflicts.length) notify.warning(m('changes.undone.partly', 'Undone in part: {count, plural, one {# passage was} other {# passages were}} changed since and left as they are.', { count: answer.conflicts.length }));
      else notify.success(m('changes.undone', 'Undone'));
      onReverted();
    } catch (error) {
      notify.failure(error);
    } finally {
      setBusy(null);
      await load().catch(() => undefined);
    }
  };

  if (!changes?.length) return null;
  const runsShown = new Set<string>();
  return (
    <Panel title={m('changes.title', 'Changes')} testId="changes">
      {conflicts.length ? (
        <Box paddingTop={2} data-testid="revert-conflicts">
          <Typography variant="pi" textColor="warning700">
            {m('changes.conflicts', 'Left as they are (changed since):')}
          </Typography>
          <Flex tag="ul" direction="column" alignItems="stretch" gap={1}>
            {conflicts.map((conflict, index) => (
              <Typography tag="li" key={index} variant="pi" data-conflict={conflict.section}>
                “{conflict.text}”: {conflict.reason}
              </Typography>
            ))}
          </Flex>
        </Box>
      ) : null}
      <Flex tag="ol" direction="column" alignItems="stretch" gap={3} paddingTop={3}>
        {changes.map((change) => {
          // "Undo this run" once per run, on its newest change set.
          const runButton = change.run && !runsShown.has(change.run) && canEdit;
          if (change.run) runsShown.add(change.run);
          return (
            <Flex tag="li" key={change.id} direction="column" alignItems="flex-start" gap={1} data-change-set={change.anchor} data-status={change.status}>
              <Flex gap={2} wrap="wrap">
                <Badge>{m(`changes.status.${change.status}`, change.status)}</Badge>
                {change.run ? (
                  <Typography variant="pi" textColor="neutral600">
                    {m('changes.run', 'run {run}', { run: change.run })}
                  </Typography>
                ) : null}
              </Flex>
              <ByLine by={change.by} at={change.at} />
              {change.reason ? <Typography variant="omega" style={{ overflowWrap: 'anywhere' }}>{change.reason}</Typography> : null}
              <Typography variant="pi" textColor="neutral600" style={{ overflowWrap: 'anywhere' }}>
                {change.sections.length
                  ? change.sections
                      .map((section) => m('changes.section', '{title} (+{inserted} −{deleted})', { title: section.title || untitled, inserted: section.inserted, deleted: section.deleted }))
                      .join(' · ')
                  : change.notes?.length
                    ? m('changes.brief', 'The Brief')
                    : ''}
              </Typography>
              {canEdit ? (
                <Flex gap={2} wrap="wrap">
                  {UNDOABLE.has(change.status) && change.sections.length ? (
                    <Button size="S" variant="secondary" loading={busy === change.id} disabled={busy !== null} onClick={() => undo(change.id, () => api.revert(change.anchor))}>
                      {m('changes.undo', 'Undo this change')}
                    </Button>
                  ) : null}
                  {runButton ? (
                    <Button size="S" variant="tertiary" loading={busy === `run:${change.run}`} disabled={busy !== null} onClick={() => undo(`run:${change.run}`, () => api.revertRun(change.run!))}>
                      {m('changes.undoRun', 'Undo this run')}
                    </Button>
                  ) : null}
                </Flex>
              ) : null}
            </Flex>
          );
        })}
      </Flex>
    </Panel>
  );
};
