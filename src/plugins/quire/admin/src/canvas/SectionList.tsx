/**
 * The article column of the canvas: every section with data-anchor and data-source, editable in
 * place once the live document is there (SectionEditor; the stored HTML until then), its header
 * (source, History, who is editing it, who just changed it), the sections deleted while typed in
 * where they were, and, for editors, an insert control before the first section and after each
 * one (a new section can go anywhere, not only at the end). Pending suggestions show in the
 * section they change (data-suggestions, the cards from canvas/suggestions/), and typing there
 * is reported so the page can warn that it may make them stale; those that change its words show
 * in its text as tracked changes (SectionEditor, suggestions/inline-changes.ts), and their cards
 * learn which do (`inline`). Threads (CONTRACT 24) show the
 * same way: their quotes marked in the text, their cards under it (canvas/threads/).
 */
import { Badge, Box, Button, Flex, Typography } from '@strapi/design-system';
import { Clock } from '@strapi/icons';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import * as React from 'react';
import type { SectionRecord } from '../api';
import { useMessages } from '../messages';
import { InsertSection, useWhereLabel, type Placement } from './AddSection';
import { DeletedSection } from './DeletedSection';
import type { LiveUser, Peer } from './live';
import type { InlineChange, Shown } from './suggestions/inline-changes';
import type { ThreadMark } from './threads/thread-marks';
import { untitled } from './Outline';
import { SectionEditor } from './SectionEditor';
import { Prose } from './styles';
import type { Ghost } from './useOutsideChanges';

interface Props {
  title: string;
  sections: SectionRecord[];
  /** The live document, once synced (null: the sections show their stored HTML). */
  provider: HocuspocusProvider | null;
  synced: boolean;
  me: LiveUser | null;
  peers: Peer[];
  editable: boolean;
  canEdit: boolean;
  /** Sections changed from outside lately: id -> who. */
  changed: Record<string, string>;
  ghosts: Ghost[];
  /** Who deleted a ghost, if the live document says. */
  deletedBy: (ghostId: string) => string | null;
  restoring: string | null;
  onRestoreGhost: (ghost: Ghost) => void;
  onDismissGhost: (ghostId: string) => void;
  onHistory: (anchor: string) => void;
  onTyped: (sectionId: string, html: string) => void;
  /** Asks for a new section at `placement`; `where` says it in words (the dialog's title). */
  onInsert: (placement: Placement, where: string) => void;
  /** How many suggestions wait on a section. */
  suggestionsOn: (sectionId: string) => number;
  /** The section's suggestion cards (and the typing warning), under its text; `inline`: which show in the text. */
  suggestionsView: (section: SectionRecord, name: string, inline: Shown) => React.ReactNode;
  /** The pending change sets to show in a section's text as tracked changes. */
  inlineChanges?: (section: SectionRecord) => InlineChange[];
  /** A key or paste in a section (the page warns when it starts typing where suggestions wait). */
  onTypingStarts: (sectionId: string, event: React.KeyboardEvent | React.ClipboardEvent) => void;
  /** Threads: the open ones' quotes to mark, their cards under the section, and commenting on a selection (editors with edit). */
  threads?: {
    marks: (section: SectionRecord) => ThreadMark[];
    view: (section: SectionRecord) => React.ReactNode;
    onComment?: (section: SectionRecord, quote: string, occurrence: number) => void;
  };
}

const NONE_INLINE: Shown = { shown: [], moved: [] };

export const SectionList = (props: Props) => {
  const { title, sections, provider, synced, me, peers, editable, canEdit, changed, ghosts, deletedBy, restoring, onRestoreGhost, onDismissGhost, onHistory, onTyped, onInsert, suggestionsOn, suggestionsView, inlineChanges, onTypingStarts, threads } = props;
  const { m } = useMessages();
  const where = useWhereLabel();
  const noTitle = m('canvas.untitled', '(text before the first heading)');
  /** Per section: the suggestions its editor shows in the text, and those whose passage changed since. */
  const [inline, setInline] = React.useState<Record<string, Shown>>({});
  const shownIn = React.useCallback((sectionId: string, shown: Shown) => setInline((all) => ({ ...all, [sectionId]: shown })), []);
  const peersIn = (sectionId: string) => peers.filter((peer) => peer.section === sectionId).map((peer) => peer.name);

  const ghostView = (ghost: Ghost) => (
    <DeletedSection
      key={`ghost-${ghost.id}`}
      ghost={ghost}
      by={deletedBy(ghost.id)}
      canRestore={editable}
      restoring={restoring === ghost.id}
      onRestore={onRestoreGhost}
      onDismiss={onDismissGhost}
    />
  );

  const insertAtStart = canEdit && sections.length ? (
    <InsertSection at="start" label={where.atStart} onClick={() => onInsert({ before: sections[0].anchor }, where.atStart)} />
  ) : null;

  return (
    <Flex tag="article" direction="column" alignItems="stretch" gap={3} aria-label={title} data-testid="canvas" data-live={synced ? 'on' : 'off'}>
      {ghosts.filter((ghost) => ghost.after === null).map(ghostView)}
      {insertAtStart}
      {sections.map((section) => {
        const editing = peersIn(section.id);
        const name = untitled(section, noTitle);
        const header = (
          <Flex gap={2} alignItems="center">
            <Badge
              backgroundColor={section.source === 'html' ? 'alternative100' : 'neutral150'}
              textColor={section.source === 'html' ? 'alternative700' : 'neutral700'}
              data-source-badge={section.source}
            >
              {section.source === 'html' ? m('canvas.source.html', 'HTML') : m('canvas.source.markdown', 'Markdown')}
            </Badge>
            <Button size="S" variant="ghost" startIcon={<Clock />} onClick={() => onHistory(section.anchor)} aria-label={m('review.history.label', 'History of "{title}"', { title: name })}>
              {m('review.history', 'History')}
            </Button>
            {editing.length ? (
              <Typography variant="pi" textColor="neutral600" data-testid="editing-names">
                {m('canvas.editingBy', '{names} editing', { names: editing.join(', ') })}
              </Typography>
            ) : null}
            {changed[section.id] ? (
              <Typography variant="pi" textColor="success600" data-testid="changed-names">
                {m('canvas.changedBy', 'Changed by {name}', { name: changed[section.id] })}
              </Typography>
            ) : null}
          </Flex>
        );
        const after = where.after(name);
        return (
          <React.Fragment key={section.id}>
            <Box
              tag="section"
              data-anchor={section.anchor}
              data-source={section.source}
              data-section-id={section.id}
              data-editing={editing.length ? editing.join(', ') : undefined}
              data-changed-by={changed[section.id]}
              data-suggestions={suggestionsOn(section.id) || undefined}
              onKeyDown={(event: React.KeyboardEvent) => onTypingStarts(section.id, event)}
              onPaste={(event: React.ClipboardEvent) => onTypingStarts(section.id, event)}
              tabIndex={-1}
              background="neutral0"
              hasRadius
              shadow="tableShadow"
              padding={4}
              aria-label={name}
              style={editing.length ? { boxShadow: `0 0 0 2px ${peers.find((peer) => peer.section === section.id)?.color ?? 'transparent'}` } : undefined}
            >
              {synced && provider && me ? (
                <Prose>
                  <SectionEditor
                    provider={provider}
                    sectionId={section.id}
                    user={me}
                    editable={editable}
                    header={header}
                    onTyped={onTyped}
                    threads={threads?.marks(section)}
                    onComment={threads?.onComment ? (quote, occurrence) => threads.onComment!(section, quote, occurrence) : undefined}
                    changes={inlineChanges?.(section)}
                    onInlineShown={(shown) => shownIn(section.id, shown)}
                  />
                </Prose>
              ) : (
                <>
                  <Flex paddingBottom={2} style={{ minHeight: '3.2rem' }}>
                    {header}
                  </Flex>
                  <Prose className="quire-prose" dangerouslySetInnerHTML={{ __html: section.html || `<p><em>${m('canvas.empty', 'Empty')}</em></p>` }} />
                </>
              )}
              {suggestionsView(section, name, (synced && inline[section.id]) || NONE_INLINE)}
              {threads?.view(section)}
            </Box>
            {ghosts.filter((ghost) => ghost.after === section.id).map(ghostView)}
            {canEdit ? <InsertSection at={section.anchor} label={after} onClick={() => onInsert({ after: section.anchor }, after)} /> : null}
          </React.Fragment>
        );
      })}
      {ghosts.filter((ghost) => ghost.after !== null && !sections.some((section) => section.id === ghost.after)).map(ghostView)}
    </Flex>
  );
};
