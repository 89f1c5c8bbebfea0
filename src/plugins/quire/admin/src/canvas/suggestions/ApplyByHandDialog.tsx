/**
 * A stale suggestion (its section changed since it was made: it cannot be accepted as is),
 * applied by hand: its text beside the section's current one, the words that differ marked, so
 * the editor can carry over what they want in the section itself. Once done, "Done" closes the
 * suggestion (rejected, the reason saying it was applied by hand, for whoever made it).
 */
import { Box, Button, Flex, Grid, Modal, Typography } from '@strapi/design-system';
import * as React from 'react';
import type { SuggestionPlace } from '../../api';
import { markWordChanges } from '../../../../shared/word-diff';
import { Marked } from '../review-common';
import { useMessages } from '../../messages';

/** The reason a suggestion applied by hand is closed with (returned to the agent). */
export const APPLIED_BY_HAND = 'Applied by hand in the canvas: the section had changed since the suggestion was made.';

const textOf = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.innerText || new DOMParser().parseFromString(html, 'text/html').body.textContent || '';

export const ApplyByHandDialog = ({
  title,
  place,
  canEdit,
  busy,
  onClose,
  onDone,
}: {
  title: string;
  place: SuggestionPlace;
  canEdit: boolean;
  busy: boolean;
  onClose: () => void;
  onDone: () => void;
}) => {
  const { m, notify } = useMessages();
  const marks = React.useMemo(() => markWordChanges(place.current, place.suggested), [place]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(textOf(place.suggested));
      notify.success(m('suggestions.copied', 'The suggested text is in your clipboard.'));
    } catch {
      notify.warning(m('suggestions.copyFailed', 'The browser did not allow copying: select the text and copy it.'));
    }
  };
  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onClose()}>
      <Modal.Content style={{ maxWidth: '110rem', width: 'calc(100vw - 2rem)' }} data-testid="apply-by-hand-dialog">
        <Modal.Header>
          <Modal.Title>{m('suggestions.byHand.title', 'Apply by hand: "{title}"', { title })}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Flex direction="column" alignItems="stretch" gap={3}>
            <Typography textColor="neutral700">
              {m(
                'suggestions.byHand.hint',
                'The section changed since this was suggested, so it cannot be accepted as is. Its text is beside the current one: struck-through words are in the section now, highlighted words are what the suggestion has. Change the section as you see fit, then close the suggestion.',
              )}
            </Typography>
            <Grid.Root gap={4} data-testid="by-hand-side-by-side">
              <Grid.Item xs={12} m={6} direction="column" alignItems="stretch">
                <Typography variant="sigma" tag="h3">
                  {m('suggestions.byHand.current', 'In the section now')}
                </Typography>
                <Box padding={3} hasRadius borderColor="neutral200" borderStyle="solid" borderWidth="1px" data-version="current">
                  <Marked dangerouslySetInnerHTML={{ __html: marks.before }} />
                </Box>
              </Grid.Item>
              <Grid.Item xs={12} m={6} direction="column" alignItems="stretch">
                <Typography variant="sigma" tag="h3">
                  {m('suggestions.byHand.suggested', 'Suggested')}
                </Typography>
                <Box padding={3} hasRadius borderColor="success200" borderStyle="solid" borderWidth="1px" background="success100" data-version="suggested">
                  <Marked dangerouslySetInnerHTML={{ __html: marks.after }} />
                </Box>
              </Grid.Item>
            </Grid.Root>
          </Flex>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="tertiary" onClick={onClose}>
            {m('review.close', 'Close')}
          </Button>
          <Flex gap={2}>
            <Button variant="secondary" onClick={copy}>
              {m('suggestions.byHand.copy', 'Copy the suggested text')}
            </Button>
            {canEdit ? (
              <Button onClick={onDone} loading={busy}>
                {m('suggestions.byHand.done', 'Done: close the suggestion')}
              </Button>
            ) : null}
          </Flex>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};
