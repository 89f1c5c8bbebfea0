/**
 * A note's body, which agents and editors write in Markdown, rendered as a reader sees it.
 * react-markdown builds React elements (no innerHTML): raw HTML in the body stays text and
 * javascript: links are dropped, so an agent's note cannot script the panel.
 */
import type * as React from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { NoteProse } from './styles';

const REMARK_PLUGINS = [remarkGfm];

/** Links leave the panel (a note's sources), never replacing the canvas. */
const COMPONENTS = {
  a: ({ node: _node, ...props }: React.AnchorHTMLAttributes<HTMLAnchorElement> & { node?: unknown }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
};

export const NoteBody = ({ markdown }: { markdown: string }) => (
  <NoteProse data-note-body>
    <Markdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS}>
      {markdown}
    </Markdown>
  </NoteProse>
);
