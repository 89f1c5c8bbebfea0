/**
 * A section deleted while this person was typing in it: who deleted it (when the live document
 * says), the text they typed, Restore (where it was; the trash holds the text) and Dismiss.
 * The text stays editable in the page and takes the focus the deleted section's editor had, so
 * what is typed after the deletion lands here instead of nowhere (CONTRACT 22); it stays until
 * Restore or Dismiss (it is not stored: the trash holds the text as it was when deleted).
 */
import { Box, Button, Flex, Typography } from '@strapi/design-system';
import * as React from 'react';
import { useMessages } from '../messages';
import { Prose } from './styles';
import type { Ghost } from './useOutsideChanges';

interface Props {
  ghost: Ghost;
  /** Who deleted it, if known. */
  by: string | null;
  canRestore: boolean;
  restoring: boolean;
  onRestore: (ghost: Ghost) => void;
  onDismiss: (ghostId: string) => void;
}

/** Puts the caret at the end of `element`'s text and focuses it. */
function focusAtEnd(element: HTMLElement) {
  element.focus();
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  range.collapse(false);
  selection.removeAllRanges();
  selection.addRange(range);
}

export const DeletedSection = ({ ghost, by, canRestore, restoring, onRestore, onDismiss }: Props) => {
  const { m } = useMessages();
  const textRef = React.useRef<HTMLDivElement>(null);
  // The deleted section's editor went away with the focus: when nothing else has it, the typing
  // goes on here. (Someone who was elsewhere keeps their focus.)
  React.useEffect(() => {
    const active = document.activeElement;
    if (textRef.current && (!active || active === document.body)) focusAtEnd(textRef.current);
  }, []);
  // The HTML is set once: what is typed afterwards belongs to the element, not to React.
  const initial = React.useMemo(() => ({ __html: ghost.html }), []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Box tag="section" data-deleted={ghost.id} background="danger100" borderColor="danger200" borderStyle="solid" borderWidth="1px" hasRadius padding={4} role="alert">
      <Flex justifyContent="space-between" alignItems="center" gap={2} wrap="wrap" paddingBottom={2}>
        <Typography fontWeight="bold" data-testid="deleted-notice">
          {by
            ? m('canvas.ghost.by', 'Deleted by {name} while you were typing in it. Your text is kept in the trash.', { name: by })
            : m('canvas.ghost', 'This section was deleted while you were typing in it. Your text is kept in the trash.')}
        </Typography>
        <Flex gap={2}>
          {canRestore ? (
            <Button size="S" onClick={() => onRestore(ghost)} loading={restoring}>
              {m('canvas.ghost.restore', 'Restore')}
            </Button>
          ) : null}
          <Button size="S" variant="tertiary" onClick={() => onDismiss(ghost.id)}>
            {m('canvas.ghost.dismiss', 'Dismiss')}
          </Button>
        </Flex>
      </Flex>
      <Prose
        ref={textRef}
        className="quire-prose"
        contentEditable
        suppressContentEditableWarning
        data-ghost-text
        aria-label={m('canvas.ghost.text', 'Your text in the deleted section (kept in this page until you restore or dismiss it)')}
        style={{ opacity: 0.85, outline: 'none' }}
        dangerouslySetInnerHTML={initial}
      />
    </Box>
  );
};
