/**
 * Beside the article: how many suggestions are open (the count is the number of entries), each
 * with who made it, what it changes (summary.ts) and the sections it shows in, a click away. Deciding happens in the section;
 * only a suggestion that no longer shows in any section (they are gone) is rejected from here.
 */
import { Badge, Box, Button, Flex, Typography } from '@strapi/design-system';
import * as React from 'react';
import type { SectionRecord, SuggestionInPlace } from '../../api';
import { ByLine, Panel } from '../review-common';
import { RejectDialog } from './RejectDialog';
import type { Decide } from './use-suggestions';
import { useMessages } from '../../messages';
import { summarizeOps } from './summary';

export const SuggestionsOverview = ({
  list,
  sections,
  untitled,
  canEdit,
  decide,
  onJump,
}: {
  list: SuggestionInPlace[];
  sections: SectionRecord[];
  untitled: string;
  canEdit: boolean;
  decide: Decide;
  onJump: (anchor: string) => void;
}) => {
  const { m } = useMessages();
  const [rejecting, setRejecting] = React.useState<SuggestionInPlace | null>(null);
  const [busy, setBusy] = React.useState(false);
  if (!list.length) return null;
  const byId = new Map(sections.map((section) => [section.id, section]));
  return (
    <Panel title={m('suggestions.count', 'Suggestions ({count})', { count: list.length })} testId="suggestions">
      <Box paddingTop={1}>
        <Typography variant="pi" textColor="neutral600">
          {m('suggestions.overview.hint', 'Each is shown in the section it changes, to accept or reject there.')}
        </Typography>
      </Box>
      <Flex tag="ul" direction="column" alignItems="stretch" gap={3} paddingTop={3}>
        {list.map((suggestion) => {
          const places = suggestion.places.map((place) => byId.get(place.section)).filter((section): section is SectionRecord => Boolean(section));
          return (
            <Flex tag="li" key={suggestion.id} direction="column" alignItems="flex-start" gap={1} data-suggestion={suggestion.anchor} data-status={suggestion.stale ? 'stale' : 'pending'}>
              <Flex gap={2} wrap="wrap" alignItems="center">
                {suggestion.stale ? (
                  <Badge backgroundColor="warning100" textColor="warning700">
                    {m('suggestions.stale', 'Out of date')}
                  </Badge>
                ) : null}
                <ByLine by={suggestion.by} at={suggestion.createdAt} />
              </Flex>
              <Typography variant="omega" textColor="neutral800" data-summary style={{ overflowWrap: 'anywhere' }}>
                {summarizeOps(suggestion.ops, sections, m, untitled)}
              </Typography>
              {suggestion.note ? (
                <Typography variant="pi" textColor="neutral800" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {suggestion.note}
                </Typography>
              ) : null}
              <Flex gap={1} wrap="wrap">
                {[...new Set(places)].map((section) => (
                  <Button key={section.id} size="S" variant="tertiary" onClick={() => onJump(section.anchor)}>
                    {m('suggestions.show', 'Show in "{title}"', { title: section.title || untitled })}
                  </Button>
                ))}
                {!places.length && canEdit ? (
                  <Button size="S" variant="danger-light" onClick={() => setRejecting(suggestion)}>
                    {m('review.reject', 'Reject')}
                  </Button>
                ) : null}
              </Flex>
            </Flex>
          );
        })}
      </Flex>
      {rejecting ? (
        <RejectDialog
          busy={busy}
          onCancel={() => setRejecting(null)}
          onReject={async (reason) => {
            setBusy(true);
            await decide(rejecting, 'reject', reason);
            setBusy(false);
            setRejecting(null);
          }}
        />
      ) : null}
    </Panel>
  );
};
