/**
 * The suggestions waiting on one section, shown in it (CONTRACT 20): each as the section's text
 * with the words it adds in `ins` and the words it removes in `del`, who made it and why, and
 * Accept / Reject right there (one that changes several sections: also Accept here / Reject here). A stale one (the section changed since) offers "Apply by hand"
 * (its text beside the current one) and Reject. One that changes the section's words shows in
 * its text as tracked changes (CONTRACT 23, inline-changes.ts): its card then shows no copy of
 * the text, only who, why and the decisions (the whole suggestion, or this section of it); one
 * whose passage was changed since (typing not yet stored) says so and shows its text as before. Above them, once this person starts typing in
 * the section, a warning that typing may make them stale.
 */
import { Alert, Badge, Box, Button, Flex, Typography } from '@strapi/design-system';
import { Check, Cross, Pencil } from '@strapi/icons';
import * as React from 'react';
import type { SuggestionInPlace } from '../../api';
import { inlineWordChanges } from '../../../../shared/word-diff';
import { ByLine, Marked } from '../review-common';
import { ApplyByHandDialog, APPLIED_BY_HAND } from './ApplyByHandDialog';
import { RejectDialog } from './RejectDialog';
import type { InlineChange, Shown } from './inline-changes';
import type { Decide, SectionSuggestion } from './use-suggestions';
import { useMessages } from '../../messages';

/** The anchor a suggestion's marks in the text carry (data-change): its change set's (the same id), or its own before change sets. */
export const changeAnchorOf = (suggestion: SuggestionInPlace): string => suggestion.changeSet?.anchor ?? suggestion.anchor;

/** Why it was made: its change set's reason, or its note. */
const reasonOf = (suggestion: SuggestionInPlace): string | null => suggestion.changeSet?.reason ?? suggestion.note ?? null;

/** The suggestions of a section that may show in its text: pending (not stale) edits and deletions of it. */
export const inlineChangesOf = (items: SectionSuggestion[]): InlineChange[] =>
  items
    .filter(({ suggestion, place }) => !suggestion.stale && (place.change === 'edit' || place.change === 'delete'))
    .map(({ suggestion, place }) => {
      const reason = reasonOf(suggestion);
      return {
        anchor: changeAnchorOf(suggestion),
        current: place.current,
        suggested: place.change === 'delete' ? '' : place.suggested,
        title: `${suggestion.by.name} (${suggestion.by.kind})${reason ? `: ${reason}` : ''}`,
      };
    });

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The marked text a suggestion shows in a section. */
const marked = ({ suggestion, place }: SectionSuggestion): { html: string; marked: boolean } => {
  // Out of date: its words against the section now would also undo what changed since. Its text as it was.
  if (suggestion.stale && place.change !== 'move') return { html: place.suggested || place.current, marked: true };
  switch (place.change) {
    case 'insert':
      return { html: inlineWordChanges('', place.suggested).html, marked: true };
    case 'delete':
      return { html: inlineWordChanges(place.current, '').html || `<p><del>${escapeHtml(place.current)}</del></p>`, marked: true };
    case 'move':
      return { html: '', marked: true };
    default:
      return inlineWordChanges(place.current, place.suggested);
  }
};

interface CardProps {
  item: SectionSuggestion;
  title: string;
  canEdit: boolean;
  decide: Decide;
  /** The section's anchor (accepting in this section only). */
  section: string;
  /** Shown in the section's text, or not because its passage changed since (null: not a change of the text). */
  inline: 'shown' | 'moved' | null;
}

const Card = ({ item, title, canEdit, decide, section, inline }: CardProps) => {
  const { m } = useMessages();
  const { suggestion, place } = item;
  /** It changes other sections too: it can be accepted or rejected here alone. */
  const elsewhere = suggestion.places.some((other) => other.section !== place.section);
  const reason = suggestion.changeSet?.reason && suggestion.changeSet.reason !== suggestion.note ? suggestion.changeSet.reason : null;
  const [busy, setBusy] = React.useState<'accept' | 'reject' | null>(null);
  const [dialog, setDialog] = React.useState<'reject' | 'reject-here' | 'by-hand' | null>(null);
  const shown = React.useMemo(() => marked(item), [item]);
  const run = async (decision: 'accept' | 'reject', why: string | null = null, sections?: string[]) => {
    setBusy(decision);
    const ok = await decide(suggestion, decision, why, sections);
    setBusy(null);
    if (ok) setDialog(null);
  };
  const what =
    place.change === 'insert'
      ? m('suggestions.change.insert', 'Adds after this section:')
      : place.change === 'delete'
        ? m('suggestions.change.delete', 'Deletes this section.')
        : place.change === 'move'
          ? m('suggestions.change.move', 'Moves this section.')
          : null;
  return (
    <Box
      tag="li"
      data-suggestion={suggestion.anchor}
      data-status={suggestion.stale ? 'stale' : 'pending'}
      data-change={place.change}
      data-change-set={changeAnchorOf(suggestion)}
      data-inline={inline ?? undefined}
      background={suggestion.stale ? 'warning100' : 'primary100'}
      borderColor={suggestion.stale ? 'warning200' : 'primary200'}
      borderStyle="solid"
      borderWidth="1px"
      hasRadius
      padding={3}
      aria-label={m('suggestions.card.label', 'Suggestion by {name}', { name: suggestion.by.name })}
    >
      <Flex gap={2} wrap="wrap" alignItems="center" justifyContent="space-between">
        <Flex gap={2} wrap="wrap" alignItems="center">
          <Badge backgroundColor={suggestion.stale ? 'warning200' : 'primary200'} textColor={suggestion.stale ? 'warning700' : 'primary700'}>
            {suggestion.stale ? m('suggestions.stale', 'Out of date') : m('suggestions.badge', 'Suggestion')}
          </Badge>
          <ByLine by={suggestion.by} at={suggestion.createdAt} />
        </Flex>
        {canEdit ? (
          <Flex gap={2} wrap="wrap">
            <Button
              size="S"
              variant="danger-light"
              startIcon={<Cross />}
              onClick={() => setDialog('reject')}
              disabled={busy !== null}
              aria-label={m('suggestions.reject.label', 'Reject suggestion')}
            >
              {elsewhere && !suggestion.stale ? m('suggestions.rejectAll', 'Reject all') : m('review.reject', 'Reject')}
            </Button>
            {elsewhere && !suggestion.stale ? (
              <Button
                size="S"
                variant="danger-light"
                startIcon={<Cross />}
                onClick={() => setDialog('reject-here')}
                disabled={busy !== null}
                aria-label={m('suggestions.rejectHere.label', 'Reject only this section\'s part of the suggestion')}
                data-testid="reject-in-section"
              >
                {m('suggestions.rejectHere', 'Reject here')}
              </Button>
            ) : null}
            {suggestion.stale ? (
              <Button size="S" variant="secondary" startIcon={<Pencil />} onClick={() => setDialog('by-hand')} disabled={busy !== null || place.change === 'move'}>
                {m('suggestions.byHand', 'Apply by hand')}
              </Button>
            ) : (
              <>
                {elsewhere ? (
                  <Button
                    size="S"
                    variant="success-light"
                    startIcon={<Check />}
                    onClick={() => run('accept', null, [section])}
                    loading={busy === 'accept'}
                    disabled={busy !== null && busy !== 'accept'}
                    aria-label={m('suggestions.acceptHere.label', 'Accept suggestion in this section')}
                    data-testid="accept-in-section"
                  >
                    {m('suggestions.acceptHere', 'Accept here')}
                  </Button>
                ) : null}
                <Button
                  size="S"
                  variant="success"
                  startIcon={<Check />}
                  onClick={() => run('accept')}
                  loading={busy === 'accept'}
                  disabled={busy !== null && busy !== 'accept'}
                  aria-label={m('suggestions.accept.label', 'Accept suggestion')}
                >
                  {elsewhere ? m('suggestions.acceptAll', 'Accept all') : m('review.accept', 'Accept')}
                </Button>
              </>
            )}
          </Flex>
        ) : null}
      </Flex>
      {suggestion.note ? (
        <Box paddingTop={2}>
          <Typography tag="p" textColor="neutral800" style={{ whiteSpace: 'pre-wrap' }} data-testid="suggestion-note">
            {suggestion.note}
          </Typography>
        </Box>
      ) : null}
      {reason ? (
        <Box paddingTop={2}>
          <Typography tag="p" textColor="neutral800" style={{ whiteSpace: 'pre-wrap' }} data-testid="suggestion-reason">
            {m('suggestions.reason', 'Why: {reason}', { reason })}
          </Typography>
        </Box>
      ) : null}
      {inline === 'shown' ? (
        <Box paddingTop={2}>
          <Typography variant="pi" textColor="neutral600" data-testid="suggestion-inline">
            {elsewhere
              ? m('suggestions.inline.elsewhere', 'Shown in the text above (added words in green, removed ones struck through), and in the other sections it changes.')
              : m('suggestions.inline', 'Shown in the text above: added words in green, removed ones struck through.')}
          </Typography>
        </Box>
      ) : null}
      {inline === 'moved' ? (
        <Box paddingTop={2}>
          <Typography variant="pi" textColor="warning700" data-testid="suggestion-moved">
            {m('suggestions.inline.moved', 'The text it changes was edited since, so it is not shown in the text: what it suggests is below.')}
          </Typography>
        </Box>
      ) : null}
      {suggestion.stale ? (
        <Box paddingTop={2}>
          <Typography variant="pi" textColor="warning700">
            {m('suggestions.stale.hint', 'The section changed since this was suggested, so it cannot be accepted as is: apply it by hand, or reject it.')}
          </Typography>
        </Box>
      ) : null}
      {suggestion.stale && place.change === 'edit' ? (
        <Box paddingTop={2}>
          <Typography variant="pi" fontWeight="bold" textColor="neutral700">
            {m('suggestions.stale.text', 'What it suggested:')}
          </Typography>
        </Box>
      ) : null}
      {what ? (
        <Box paddingTop={2}>
          <Typography variant="pi" fontWeight="bold" textColor="neutral700">
            {what}
          </Typography>
        </Box>
      ) : null}
      {shown.html && inline !== 'shown' ? (
        <Box paddingTop={2}>
          <Box background="neutral0" hasRadius padding={3} data-testid="suggestion-text">
            <Marked dangerouslySetInnerHTML={{ __html: shown.html }} />
          </Box>
          {!shown.marked ? (
            <Typography variant="pi" textColor="neutral600">
              {m('suggestions.tooMany', 'It rewrites the section: the new text is shown whole.')}
            </Typography>
          ) : null}
        </Box>
      ) : null}
      {dialog === 'reject' ? <RejectDialog busy={busy === 'reject'} onCancel={() => setDialog(null)} onReject={(reason) => run('reject', reason)} /> : null}
      {dialog === 'reject-here' ? <RejectDialog here busy={busy === 'reject'} onCancel={() => setDialog(null)} onReject={(reason) => run('reject', reason, [section])} /> : null}
      {dialog === 'by-hand' ? (
        <ApplyByHandDialog title={title} place={place} canEdit={canEdit} busy={busy === 'reject'} onClose={() => setDialog(null)} onDone={() => run('reject', APPLIED_BY_HAND)} />
      ) : null}
    </Box>
  );
};

export const SectionSuggestions = ({
  items,
  title,
  section,
  inline,
  canEdit,
  warn,
  onDismissWarning,
  decide,
}: {
  items: SectionSuggestion[];
  /** The section's anchor. */
  section: string;
  /** Which suggestions the section's editor shows in its text, and which not (their passage changed since). */
  inline: Shown;
  /** The section's title (for the dialogs). */
  title: string;
  canEdit: boolean;
  /** Whether this person started typing in the section while suggestions wait on it. */
  warn: boolean;
  onDismissWarning: () => void;
  decide: Decide;
}) => {
  const { m } = useMessages();
  if (!items.length) return null;
  const inlineOf = ({ suggestion, place }: SectionSuggestion): CardProps['inline'] => {
    if (place.change !== 'edit' && place.change !== 'delete') return null;
    const anchor = changeAnchorOf(suggestion);
    return inline.shown.includes(anchor) ? 'shown' : inline.moved.includes(anchor) ? 'moved' : null;
  };
  return (
    <Flex direction="column" alignItems="stretch" gap={2} paddingTop={3} data-testid="section-suggestions">
      {warn ? (
        <Alert variant="warning" closeLabel={m('suggestions.warning.close', 'Dismiss')} onClose={onDismissWarning} data-testid="suggestion-warning" role="status">
          {m(
            'suggestions.warning',
            '{count, plural, one {An agent\'s suggestion is} other {# suggestions are}} waiting on this section: typing here may make {count, plural, one {it} other {them}} stale. Review {count, plural, one {it} other {them}} first.',
            { count: items.length },
          )}
        </Alert>
      ) : null}
      <Flex tag="ul" direction="column" alignItems="stretch" gap={2}>
        {items.map((item) => (
          <Card
            key={`${item.suggestion.id}:${item.place.change}`}
            item={item}
            title={title}
            canEdit={canEdit}
            decide={decide}
            section={section}
            inline={inlineOf(item)}
          />
        ))}
      </Flex>
    </Flex>
  );
};
