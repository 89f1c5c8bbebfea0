/**
 * The threads on one section, under its text (CONTRACT 24): each with its quote, its comments
 * (who, when, the comment's HTML), a reply box, and Resolve or Reopen; resolved ones folded to
 * a line. Above them, once the editor selected text and asked to comment, the box that opens a
 * thread on it. Writing needs edit; a reader sees the threads only.
 */
import { Badge, Box, Button, Flex, Typography } from '@strapi/design-system';
import { Check, ArrowClockwise, Message } from '@strapi/icons';
import * as React from 'react';
import type { ThreadRecord } from '../../api/threads';
import { useMessages } from '../../messages';
import { ByLine } from '../review-common';
import { Prose } from '../styles';

export interface ThreadActions {
  reply: (anchor: string, body: string) => Promise<boolean>;
  setStatus: (anchor: string, status: 'open' | 'resolved') => Promise<boolean>;
}

/** A text box and a button; cleared once what it sends is taken. */
const Compose = ({ label, action, onSend, onCancel, testId }: { label: string; action: string; onSend: (body: string) => Promise<boolean>; onCancel?: () => void; testId: string }) => {
  const { m } = useMessages();
  const [body, setBody] = React.useState('');
  const [busy, setBusy] = React.useState(false);
  const send = async () => {
    if (!body.trim()) return;
    setBusy(true);
    const ok = await onSend(body);
    setBusy(false);
    if (ok) setBody('');
  };
  return (
    <Flex direction="column" alignItems="stretch" gap={2} data-testid={testId}>
      <textarea
        aria-label={label}
        placeholder={label}
        value={body}
        rows={2}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) void send();
        }}
        style={{ width: '100%', font: 'inherit', padding: '0.5rem', borderRadius: 4, border: '1px solid #dcdce4', resize: 'vertical' }}
      />
      <Flex gap={2}>
        <Button size="S" onClick={() => void send()} loading={busy} disabled={!body.trim()}>
          {action}
        </Button>
        {onCancel ? (
          <Button size="S" variant="tertiary" onClick={onCancel}>
            {m('threads.cancel', 'Cancel')}
          </Button>
        ) : null}
      </Flex>
    </Flex>
  );
};

const Thread = ({ thread, canEdit, actions }: { thread: ThreadRecord; canEdit: boolean; actions: ThreadActions }) => {
  const { m } = useMessages();
  const resolved = thread.status === 'resolved';
  const [open, setOpen] = React.useState(!resolved);
  React.useEffect(() => setOpen(!resolved), [resolved]);
  return (
    <Box tag="li" data-thread-card={thread.anchor} data-status={thread.status} padding={3} hasRadius background={resolved ? 'neutral100' : 'warning100'} style={{ listStyle: 'none' }}>
      <Flex justifyContent="space-between" alignItems="center" gap={2} wrap="wrap">
        <Typography variant="omega" fontWeight="semiBold" style={{ fontStyle: 'italic' }}>
          “{thread.quote}”
        </Typography>
        <Flex gap={2}>
          {thread.detached ? <Badge>{m('threads.detached', 'Text gone')}</Badge> : null}
          {resolved ? (
            <Button size="S" variant="ghost" onClick={() => setOpen(!open)}>
              {open ? m('threads.fold', 'Hide') : m('threads.show', 'Resolved: show')}
            </Button>
          ) : null}
          {canEdit ? (
            resolved ? (
              <Button size="S" variant="secondary" startIcon={<ArrowClockwise />} onClick={() => void actions.setStatus(thread.anchor, 'open')}>
                {m('threads.reopen', 'Reopen')}
              </Button>
            ) : (
              <Button size="S" variant="success-light" startIcon={<Check />} onClick={() => void actions.setStatus(thread.anchor, 'resolved')}>
                {m('threads.resolve', 'Resolve')}
              </Button>
            )
          ) : null}
        </Flex>
      </Flex>
      {open ? (
        <Flex direction="column" alignItems="stretch" gap={2} paddingTop={2}>
          <Flex tag="ol" direction="column" alignItems="stretch" gap={2} style={{ margin: 0, padding: 0 }}>
            {thread.comments.map((comment) => (
              <Box tag="li" key={comment.id} data-comment={comment.id} style={{ listStyle: 'none' }}>
                <ByLine by={comment.by} at={comment.at} />
                <Prose className="quire-prose" style={{ fontSize: '1.3rem' }} dangerouslySetInnerHTML={{ __html: comment.html }} />
              </Box>
            ))}
          </Flex>
          {canEdit ? <Compose label={m('threads.replyLabel', 'Reply to this thread')} action={m('threads.reply', 'Reply')} onSend={(body) => actions.reply(thread.anchor, body)} testId="thread-reply" /> : null}
        </Flex>
      ) : null}
    </Box>
  );
};

interface Props {
  threads: ThreadRecord[];
  canEdit: boolean;
  actions: ThreadActions;
  /** The selection the editor asked to comment on, in this section. */
  draft: { quote: string } | null;
  onCreate: (body: string) => Promise<boolean>;
  onCancelDraft: () => void;
}

export const SectionThreads = ({ threads, canEdit, actions, draft, onCreate, onCancelDraft }: Props) => {
  const { m } = useMessages();
  if (!threads.length && !draft) return null;
  return (
    <Flex direction="column" alignItems="stretch" gap={2} paddingTop={3} data-threads>
      {draft ? (
        <Box padding={3} hasRadius background="primary100" data-testid="new-thread">
          <Flex gap={2} paddingBottom={2} alignItems="center">
            <Message />
            <Typography variant="omega" style={{ fontStyle: 'italic' }}>
              “{draft.quote}”
            </Typography>
          </Flex>
          <Compose label={m('threads.newLabel', 'Your comment on the selected text')} action={m('threads.create', 'Comment')} onSend={onCreate} onCancel={onCancelDraft} testId="thread-create" />
        </Box>
      ) : null}
      {threads.length ? (
        <Flex tag="ul" direction="column" alignItems="stretch" gap={2} style={{ margin: 0, padding: 0 }} aria-label={m('threads.label', 'Comments')}>
          {threads.map((thread) => (
            <Thread key={thread.anchor} thread={thread} canEdit={canEdit} actions={actions} />
          ))}
        </Flex>
      ) : null}
    </Flex>
  );
};
