/**
 * Adding a section where it should go: the dialog that asks for its heading (at the start,
 * after a section, or at the end), and the slim insert control the canvas shows before its
 * first section and after each one (an icon with its place as tooltip and aria-label).
 */
import { Box, Button, Dialog, Field, Flex, IconButton, TextInput } from '@strapi/design-system';
import { Plus } from '@strapi/icons';
import * as React from 'react';
import styled from 'styled-components';
import { useMessages } from '../messages';
import type { Placement } from './Outline';

export type { Placement };

/** The question of the dialog: where the new section goes, in words. */
export const useWhereLabel = () => {
  const { m } = useMessages();
  return {
    atStart: m('canvas.insert.atStart', 'Add a section at the start'),
    after: (title: string) => m('canvas.insert.after', 'Add a section after "{title}"', { title }),
    atEnd: m('canvas.addSection.title', 'Add a section at the end'),
  };
};

interface DialogProps {
  /** The dialog's title (where the section goes); null: closed. */
  where: string | null;
  onClose: () => void;
  onAdd: (title: string) => void;
}

export const AddSectionDialog = ({ where, onClose, onAdd }: DialogProps) => {
  const { m } = useMessages();
  const [title, setTitle] = React.useState('');
  React.useEffect(() => {
    if (where !== null) setTitle('');
  }, [where]);
  const submit = () => {
    if (!title.trim()) return;
    onAdd(title.trim());
    onClose();
  };
  return (
    <Dialog.Root open={where !== null} onOpenChange={(open: boolean) => !open && onClose()}>
      <Dialog.Content>
        <Dialog.Header>{where}</Dialog.Header>
        <Dialog.Body>
          <form
            id="quire-add-section"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
            style={{ width: '100%' }}
          >
            <Field.Root name="sectionTitle" required width="100%">
              <Field.Label>{m('canvas.addSection.heading', 'Heading')}</Field.Label>
              <TextInput value={title} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setTitle(e.target.value)} />
            </Field.Root>
          </form>
        </Dialog.Body>
        <Dialog.Footer>
          <Dialog.Cancel>
            <Button variant="tertiary">{m('canvas.cancel', 'Cancel')}</Button>
          </Dialog.Cancel>
          <Button type="submit" form="quire-add-section" disabled={!title.trim()}>
            {m('canvas.addSection.confirm', 'Add')}
          </Button>
        </Dialog.Footer>
      </Dialog.Content>
    </Dialog.Root>
  );
};

/** A line across the canvas with a + in the middle; the line darkens when the place is pointed at. */
const Gap = styled(Flex)`
  margin: -0.4rem 0;
  &::before,
  &::after {
    content: '';
    flex: 1;
    height: 1px;
    background: ${({ theme }) => theme.colors.neutral200};
  }
  &:hover::before,
  &:hover::after,
  &:focus-within::before,
  &:focus-within::after {
    background: ${({ theme }) => theme.colors.primary500};
  }
`;

interface InsertProps {
  /** What the control says it does ('Add a section after "Music"'). */
  label: string;
  onClick: () => void;
  /** data-insert: "start" or the anchor of the section it follows. */
  at: string;
}

export const InsertSection = ({ label, onClick, at }: InsertProps) => (
  <Gap alignItems="center" gap={2} data-insert={at}>
    <Box>
      <IconButton label={label} onClick={onClick} variant="tertiary" size="S">
        <Plus />
      </IconButton>
    </Box>
  </Gap>
);
