/**
 * NOT WIRED YET: these panels call the admin routes of revisions, trash and suggestions
 * (`/quire/articles/{id}/sections/{sid}/revisions...`, `/trash...`, `/suggestions...`), which
 * need the revisions engine (CONTRACT 10-14, branch revcore) on main. Once it has landed: add
 * those admin routes (routes/admin.ts, controllers/admin-canvas.ts, calling services history and
 * suggestions with the editor as actor), then render RevisionsDialog from a section's header,
 * TrashPanel and SuggestionsPanel below the Brief (ArticlePage.tsx).
 *
 * Review beside the article: a section's revisions (who, when, words; a version side by side
 * with the current one, restore), the trash (restore), and pending suggestions (each result's
 * diff, accept or reject). The routes are the content API's (CONTRACT 12 and 14), for an editor.
 */
import { Badge, Box, Button, Flex, Modal, Typography } from '@strapi/design-system';
import { useAPIErrorHandler, useFetchClient, useNotification } from '@strapi/strapi/admin';
import * as React from 'react';
import { useIntl } from 'react-intl';
import { articleUrl } from '../api';
import { t } from '../pluginId';
import { Prose } from './styles';

interface Actor {
  kind: 'agent' | 'human' | 'editor';
  name: string;
}
interface RevisionEntry {
  rev: number;
  title: string;
  words: number;
  source: 'markdown' | 'html';
  createdAt: string;
  by: Actor;
}
interface Revision extends RevisionEntry {
  html: string;
  markdown: string | null;
}
interface TrashEntry {
  id: string;
  anchor: string;
  title: string;
  words: number;
  deletedAt: string;
  by: Actor;
}
interface Suggestion {
  anchor: string;
  status: string;
  note: string | null;
  createdAt: string;
  by: Actor;
  results: Array<{ op: string; diff?: string; added?: Array<{ title: string }>; updated?: Array<{ title: string }>; removed?: string[] }>;
}

const useMessages = () => {
  const { formatMessage } = useIntl();
  return (id: string, defaultMessage: string, values?: Record<string, unknown>) => formatMessage({ id: t(id), defaultMessage }, values as never);
};

/** "by Ada (agent)" */
export const ByLine = ({ by, at }: { by: Actor; at: string }) => {
  const m = useMessages();
  const { formatDate } = useIntl();
  return (
    <Typography variant="pi" textColor="neutral600">
      {m('review.by', '{name} ({kind}), {at}', { name: by.name, kind: m(`review.kind.${by.kind}`, by.kind), at: formatDate(at, { dateStyle: 'medium', timeStyle: 'short' }) })}
    </Typography>
  );
};

/** A unified diff with its added and removed lines coloured. */
const Diff = ({ text }: { text: string }) => (
  <Box tag="pre" padding={2} background="neutral100" hasRadius style={{ overflow: 'auto', fontSize: '1.2rem', lineHeight: 1.5 }} data-testid="diff">
    {text.split('\n').map((line, i) => (
      <Box
        key={i}
        tag="span"
        display="block"
        background={line.startsWith('+') && !line.startsWith('+++') ? 'success100' : line.startsWith('-') && !line.startsWith('---') ? 'danger100' : undefined}
      >
        {line || ' '}
      </Box>
    ))}
  </Box>
);

/** A section's revisions: newest first; one shown beside the current version, restorable. */
export const RevisionsDialog = ({ articleId, anchor, currentHtml, canEdit, onClose, onRestored }: { articleId: string; anchor: string; currentHtml: string; canEdit: boolean; onClose: () => void; onRestored: () => void }) => {
  const m = useMessages();
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const [revisions, setRevisions] = React.useState<RevisionEntry[] | null>(null);
  const [shown, setShown] = React.useState<Revision | null>(null);
  const fail = (error: unknown) => toggleNotification({ type: 'danger', message: formatAPIError(error as never) });

  React.useEffect(() => {
    get<{ data: { revisions: RevisionEntry[] } }>(articleUrl(articleId, `/sections/${anchor}/revisions`)).then(({ data }) => setRevisions(data.data.revisions), fail);
  }, [articleId, anchor]); // eslint-disable-line react-hooks/exhaustive-deps

  const show = (rev: number) =>
    get<{ data: { revision: Revision } }>(articleUrl(articleId, `/sections/${anchor}/revisions/${rev}`)).then(({ data }) => setShown(data.data.revision), fail);

  const restore = async () => {
    if (!shown) return;
    try {
      await post(articleUrl(articleId, `/sections/${anchor}/revisions/${shown.rev}/restore`), {});
      toggleNotification({ type: 'success', message: m('review.restored', 'Revision {rev} restored as a new revision', { rev: shown.rev }) });
      onRestored();
      onClose();
    } catch (error) {
      fail(error);
    }
  };

  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onClose()}>
      <Modal.Content style={{ maxWidth: '110rem', width: '95vw' }}>
        <Modal.Header>
          <Modal.Title>{m('review.revisions', 'Revisions')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Flex direction="column" alignItems="stretch" gap={4}>
            <Flex tag="ol" direction="column" alignItems="stretch" gap={1} data-testid="revisions">
              {(revisions ?? []).map((revision, i) => (
                <Flex tag="li" key={revision.rev} gap={3} justifyContent="space-between" data-rev={revision.rev} wrap="wrap">
                  <Flex gap={2} wrap="wrap">
                    <Typography fontWeight="bold">{m('review.rev', 'Revision {rev}', { rev: revision.rev })}</Typography>
                    {i === 0 ? <Badge>{m('review.current', 'current')}</Badge> : null}
                    <ByLine by={revision.by} at={revision.createdAt} />
                    <Typography variant="pi">{m('review.words', '{words, plural, one {# word} other {# words}}', { words: revision.words })}</Typography>
                  </Flex>
                  {i > 0 ? (
                    <Button size="S" variant="tertiary" onClick={() => show(revision.rev)}>
                      {m('review.compare', 'Compare')}
                    </Button>
                  ) : null}
                </Flex>
              ))}
            </Flex>
            {shown ? (
              <Flex gap={4} alignItems="flex-start" wrap="wrap" data-testid="side-by-side">
                <Box flex="1" style={{ minWidth: '28rem' }}>
                  <Typography variant="sigma">{m('review.thatVersion', 'Revision {rev}', { rev: shown.rev })}</Typography>
                  <Prose dangerouslySetInnerHTML={{ __html: shown.html }} />
                </Box>
                <Box flex="1" style={{ minWidth: '28rem' }}>
                  <Typography variant="sigma">{m('review.currentVersion', 'Current')}</Typography>
                  <Prose dangerouslySetInnerHTML={{ __html: currentHtml }} />
                </Box>
              </Flex>
            ) : null}
          </Flex>
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{m('review.close', 'Close')}</Button>
          </Modal.Close>
          {shown && canEdit ? <Button onClick={restore}>{m('review.restore', 'Restore revision {rev}', { rev: shown.rev })}</Button> : null}
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};

/** Deleted sections (30 days), each restorable at the end of the article. */
export const TrashPanel = ({ articleId, canEdit, version, onRestored }: { articleId: string; canEdit: boolean; version: string | null; onRestored: () => void }) => {
  const m = useMessages();
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const [trash, setTrash] = React.useState<TrashEntry[]>([]);
  React.useEffect(() => {
    get<{ data: { sections: TrashEntry[] } }>(articleUrl(articleId, '/trash')).then(({ data }) => setTrash(data.data.sections), () => undefined);
  }, [articleId, version]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!trash.length) return null;
  const restore = async (entry: TrashEntry) => {
    try {
      await post(articleUrl(articleId, `/trash/${entry.anchor}/restore`), {});
      toggleNotification({ type: 'success', message: m('review.trash.restored', '"{title}" is back, at the end', { title: entry.title }) });
      onRestored();
    } catch (error) {
      toggleNotification({ type: 'danger', message: formatAPIError(error as never) });
    }
  };
  return (
    <Box background="neutral0" hasRadius shadow="tableShadow" padding={4} data-testid="trash">
      <Typography variant="delta" tag="h2">
        {m('review.trash', 'Trash')}
      </Typography>
      <Flex tag="ul" direction="column" alignItems="stretch" gap={2} paddingTop={3}>
        {trash.map((entry) => (
          <Flex tag="li" key={entry.id} justifyContent="space-between" gap={2} data-trashed={entry.anchor}>
            <Flex direction="column" alignItems="flex-start">
              <Typography fontWeight="bold">{entry.title || m('canvas.untitled', '(text before the first heading)')}</Typography>
              <ByLine by={entry.by} at={entry.deletedAt} />
            </Flex>
            {canEdit ? (
              <Button size="S" variant="secondary" onClick={() => restore(entry)}>
                {m('review.trash.restore', 'Restore')}
              </Button>
            ) : null}
          </Flex>
        ))}
      </Flex>
    </Box>
  );
};

/** Pending suggestions: what each would do (the diff of its dry run), accept or reject. */
export const SuggestionsPanel = ({ articleId, canEdit, version, onDecided }: { articleId: string; canEdit: boolean; version: string | null; onDecided: () => void }) => {
  const m = useMessages();
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const [pending, setPending] = React.useState<Suggestion[]>([]);
  const load = React.useCallback(
    () => get<{ data: { suggestions: Suggestion[] } }>(articleUrl(articleId, '/suggestions'), { params: { status: 'pending' } }).then(({ data }) => setPending(data.data.suggestions), () => undefined),
    [articleId], // eslint-disable-line react-hooks/exhaustive-deps
  );
  React.useEffect(() => {
    void load();
  }, [load, version]);
  if (!pending.length) return null;
  const decide = async (suggestion: Suggestion, decision: 'accept' | 'reject') => {
    try {
      await post(articleUrl(articleId, `/suggestions/${suggestion.anchor}/${decision}`), {});
      toggleNotification({ type: 'success', message: decision === 'accept' ? m('review.accepted', 'Suggestion accepted') : m('review.rejected', 'Suggestion rejected') });
    } catch (error) {
      toggleNotification({ type: 'danger', message: formatAPIError(error as never) });
    }
    await load();
    onDecided();
  };
  return (
    <Box background="neutral0" hasRadius shadow="tableShadow" padding={4} data-testid="suggestions">
      <Typography variant="delta" tag="h2">
        {m('review.suggestions', 'Suggestions ({count})', { count: pending.length })}
      </Typography>
      <Flex tag="ul" direction="column" alignItems="stretch" gap={3} paddingTop={3}>
        {pending.map((suggestion) => (
          <Box tag="li" key={suggestion.anchor} data-suggestion={suggestion.anchor} padding={3} hasRadius borderColor="neutral200" borderStyle="solid" borderWidth="1px">
            <ByLine by={suggestion.by} at={suggestion.createdAt} />
            {suggestion.note ? <Typography tag="p">{suggestion.note}</Typography> : null}
            {suggestion.results.map((result, i) => (
              <Box key={i} paddingTop={2}>
                <Typography variant="sigma">
                  {result.op}
                  {[...(result.updated ?? []), ...(result.added ?? [])].map((s) => ` · ${s.title}`).join('')}
                </Typography>
                {result.diff ? <Diff text={result.diff} /> : null}
              </Box>
            ))}
            {canEdit ? (
              <Flex gap={2} paddingTop={3} justifyContent="flex-end">
                <Button size="S" variant="danger-light" onClick={() => decide(suggestion, 'reject')}>
                  {m('review.reject', 'Reject')}
                </Button>
                <Button size="S" variant="success" onClick={() => decide(suggestion, 'accept')}>
                  {m('review.accept', 'Accept')}
                </Button>
              </Flex>
            ) : null}
          </Box>
        ))}
      </Flex>
    </Box>
  );
};
