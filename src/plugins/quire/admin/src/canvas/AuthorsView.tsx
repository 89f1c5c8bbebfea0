/**
 * The Authors view (CONTRACT 23): the article's text coloured by who wrote it, each passage a
 * `span[data-author="<name>"]` (text older than change sets has no author and no colour). A
 * read-only rendering of each section's Markdown (or HTML source) as the server's spans give it
 * (`/quire/articles/{id}/sections/{sid}/authors`), shown in place of the editors while the
 * header's Authors toggle is on; read again whenever the outline changes.
 */
import { Box, Flex, Typography } from '@strapi/design-system';
import * as React from 'react';
import type { SectionRecord } from '../api';
import { useChangesApi, type AuthorSpans } from '../api/changes';
import { colourFor } from './live';
import { useMessages } from '../messages';

export const AuthorsView = ({ articleId, sections, version }: { articleId: string; sections: SectionRecord[]; version: string | null }) => {
  const { m, notify } = useMessages();
  const api = useChangesApi(articleId);
  const [spans, setSpans] = React.useState<Map<string, AuthorSpans['spans']>>(new Map());
  const anchors = sections.map((section) => section.anchor).join(',');
  React.useEffect(() => {
    let current = true;
    Promise.all(sections.map(async (section) => [section.anchor, (await api.authors(section.anchor)).spans] as const)).then(
      (all) => current && setSpans(new Map(all)),
      (error) => current && notify.failure(error),
    );
    return () => {
      current = false;
    };
  }, [articleId, anchors, version]); // eslint-disable-line react-hooks/exhaustive-deps

  const names = new Map<string, string>();
  for (const list of spans.values()) for (const span of list) if (span.by) names.set(span.by.name, span.by.kind);
  return (
    <Flex direction="column" alignItems="stretch" gap={4} data-testid="authors-view">
      <Flex gap={3} wrap="wrap" data-testid="authors-legend">
        {[...names].map(([name, kind]) => (
          <Typography key={name} variant="pi" style={{ borderBottom: `3px solid ${colourFor(name)}` }}>
            {m('authors.legend', '{name} · {kind}', { name, kind: m(`review.kind.${kind}`, kind) })}
          </Typography>
        ))}
      </Flex>
      {sections.map((section) => (
        <Box key={section.id} background="neutral0" hasRadius shadow="tableShadow" padding={4} data-authors-of={section.anchor}>
          <Typography tag="div" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.65 }}>
            {(spans.get(section.anchor) ?? []).map((span, index) =>
              span.by ? (
                <span key={index} data-author={span.by.name} title={span.by.name} style={{ background: `${colourFor(span.by.name)}26`, borderBottom: `2px solid ${colourFor(span.by.name)}` }}>
                  {span.text}
                </span>
              ) : (
                <span key={index}>{span.text}</span>
              ),
            )}
          </Typography>
        </Box>
      ))}
    </Flex>
  );
};
