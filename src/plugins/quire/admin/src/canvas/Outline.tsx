/**
 * The outline beside the article: click a title to jump to its section, drag to reorder (or the
 * arrow buttons, from the keyboard), add a section at the end (the canvas's insert controls add
 * one anywhere; the page owns the dialog, AddSection.tsx), delete one after a confirmation.
 */
import { Box, Button, Dialog, Flex, IconButton, Typography } from '@strapi/design-system';
import { ArrowDown, ArrowUp, Drag, Plus, Trash } from '@strapi/icons';
import { ConfirmDialog } from '@strapi/strapi/admin';
import * as React from 'react';
import type { SectionRecord } from '../api';
import { useMessages } from '../messages';

export type Placement = { after: string } | { before: string };

interface Props {
  sections: SectionRecord[];
  canEdit: boolean;
  onJump: (anchor: string) => void;
  onMove: (anchor: string, placement: Placement) => void;
  /** Asks for a new section at the end (the page's dialog asks its heading). */
  onAdd: () => void;
  onDelete: (anchor: string) => void;
}

export const untitled = (section: Pick<SectionRecord, 'title' | 'level'>, fallback: string) => section.title || fallback;

export const Outline = ({ sections, canEdit, onJump, onMove, onAdd, onDelete }: Props) => {
  const { m } = useMessages();
  const [dragged, setDragged] = React.useState<string | null>(null);
  const [over, setOver] = React.useState<string | null>(null);
  const [doomed, setDoomed] = React.useState<SectionRecord | null>(null);
  const noTitle = m('canvas.untitled', '(text before the first heading)');

  /** Dropping on a section puts the dragged one where that section was. */
  const drop = (target: string) => {
    const from = sections.findIndex((s) => s.anchor === dragged);
    const to = sections.findIndex((s) => s.anchor === target);
    setDragged(null);
    setOver(null);
    if (from < 0 || to < 0 || from === to || !dragged) return;
    onMove(dragged, from < to ? { after: target } : { before: target });
  };

  return (
    <Box background="neutral0" hasRadius shadow="tableShadow" padding={4} tag="nav" aria-labelledby="quire-outline-title" data-testid="outline">
      <Typography variant="delta" tag="h2" id="quire-outline-title">
        {m('canvas.outline', 'Outline')}
      </Typography>
      <Flex tag="ol" direction="column" alignItems="stretch" gap={1} paddingTop={3}>
        {sections.map((section, index) => (
          <Box
            tag="li"
            key={section.anchor}
            data-outline={section.anchor}
            draggable={canEdit}
            onDragStart={(event: React.DragEvent) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', section.anchor);
              setDragged(section.anchor);
            }}
            onDragOver={(event: React.DragEvent) => {
              if (!dragged) return;
              event.preventDefault();
              setOver(section.anchor);
            }}
            onDragLeave={() => setOver((current) => (current === section.anchor ? null : current))}
            onDrop={(event: React.DragEvent) => {
              event.preventDefault();
              drop(section.anchor);
            }}
            onDragEnd={() => {
              setDragged(null);
              setOver(null);
            }}
            paddingTop={1}
            paddingBottom={1}
            paddingLeft={Math.max(0, section.level - 1) * 3}
            hasRadius
            background={over === section.anchor ? 'primary100' : dragged === section.anchor ? 'neutral100' : undefined}
          >
            <Flex gap={1} alignItems="center">
              {canEdit ? (
                <Box color="neutral500" style={{ cursor: 'grab', display: 'flex' }} aria-hidden>
                  <Drag width="1.2rem" height="1.2rem" />
                </Box>
              ) : null}
              <Box flex="1" style={{ minWidth: 0 }}>
                <Button variant="ghost" size="S" data-outline-title onClick={() => onJump(section.anchor)} style={{ maxWidth: '100%', justifyContent: 'flex-start' }} title={untitled(section, noTitle)}>
                  <Typography ellipsis textColor={section.title ? 'neutral800' : 'neutral500'} fontWeight={section.level <= 1 ? 'semiBold' : 'regular'}>
                    {untitled(section, noTitle)}
                  </Typography>
                </Button>
              </Box>
              {canEdit ? (
                <Flex gap={0}>
                  <IconButton label={m('canvas.moveUp', 'Move "{title}" up', { title: untitled(section, noTitle) })} variant="ghost" size="S" disabled={index === 0} onClick={() => onMove(section.anchor, { before: sections[index - 1].anchor })}>
                    <ArrowUp />
                  </IconButton>
                  <IconButton label={m('canvas.moveDown', 'Move "{title}" down', { title: untitled(section, noTitle) })} variant="ghost" size="S" disabled={index === sections.length - 1} onClick={() => onMove(section.anchor, { after: sections[index + 1].anchor })}>
                    <ArrowDown />
                  </IconButton>
                  <IconButton label={m('canvas.deleteSection', 'Delete "{title}"', { title: untitled(section, noTitle) })} variant="ghost" size="S" onClick={() => setDoomed(section)}>
                    <Trash />
                  </IconButton>
                </Flex>
              ) : null}
            </Flex>
          </Box>
        ))}
      </Flex>
      {canEdit ? (
        <Box paddingTop={3}>
          <Button variant="secondary" startIcon={<Plus />} onClick={onAdd} fullWidth>
            {m('canvas.addSection', 'Add section')}
          </Button>
        </Box>
      ) : null}

      <Dialog.Root open={doomed !== null} onOpenChange={(open: boolean) => !open && setDoomed(null)}>
        <ConfirmDialog
          onConfirm={() => {
            if (doomed) onDelete(doomed.anchor);
            setDoomed(null);
          }}
        >
          {m('canvas.deleteSection.confirm', 'Delete the section "{title}" and its text?', { title: doomed ? untitled(doomed, noTitle) : '' })}
        </ConfirmDialog>
      </Dialog.Root>
    </Box>
  );
};
