/**
 * A section deleted while this person was typing in it: who deleted it (when the live document
 * says), the text they typed, Restore (where it was; the trash holds the text) and Dismiss.
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

export const DeletedSection = ({ ghost, by, canRestore, restoring, onRestore, onDismiss }: Props) => {
  const { m } = useMessages();
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
      <Prose className="quire-prose" style={{ opacity: 0.75 }} dangerouslySetInnerHTML={{ __html: ghost.html }} />
    </Box>
  );
};
