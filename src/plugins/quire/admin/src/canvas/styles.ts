/** The canvas's typography: sections read like the public page; link cards look like cards. */
import styled from 'styled-components';

export const Prose = styled.div`
  font-size: 1.5rem;
  line-height: 1.65;
  color: ${({ theme }) => theme.colors.neutral800};
  overflow-wrap: anywhere;
  h1, h2, h3, h4, h5, h6 { margin: 0.6em 0 0.3em; line-height: 1.25; color: ${({ theme }) => theme.colors.neutral900}; }
  h1 { font-size: 2.4rem; } h2 { font-size: 2rem; } h3 { font-size: 1.7rem; } h4, h5, h6 { font-size: 1.5rem; }
  p, ul, ol, blockquote, pre, table { margin: 0.5em 0; }
  ul, ol { padding-left: 1.5em; } ul { list-style: disc; } ol { list-style: decimal; }
  blockquote { border-left: 3px solid ${({ theme }) => theme.colors.neutral300}; padding-left: 1em; color: ${({ theme }) => theme.colors.neutral600}; }
  a { color: ${({ theme }) => theme.colors.primary600}; text-decoration: underline; }
  strong { font-weight: 600; } em { font-style: italic; }
  img { max-width: 100%; height: auto; }
  pre { background: ${({ theme }) => theme.colors.neutral100}; padding: 0.8em; overflow: auto; border-radius: 4px; }
  code { font-family: ui-monospace, Menlo, Consolas, monospace; }
  s, del { text-decoration: line-through; }
  /* Tables fit the column (fixed layout: a phone gets narrow columns, not a sideways scroll). */
  table { width: 100%; border-collapse: collapse; table-layout: fixed; }
  th, td { border: 1px solid ${({ theme }) => theme.colors.neutral300}; padding: 0.3em 0.5em; vertical-align: top; text-align: left; }
  th { background: ${({ theme }) => theme.colors.neutral100}; font-weight: 600; }
  th > p, td > p { margin: 0; }
  .selectedCell { background: ${({ theme }) => theme.colors.primary100}; }
  /* A thread's quote (CONTRACT 24). */
  [data-thread] { background: ${({ theme }) => theme.colors.warning100}; border-bottom: 2px solid ${({ theme }) => theme.colors.warning500}; }
  /* A pending suggestion in the text (CONTRACT 23): decorations, not the text itself. */
  del[data-change] { background: ${({ theme }) => theme.colors.danger100}; color: ${({ theme }) => theme.colors.danger700}; text-decoration: line-through; border-radius: 2px; }
  ins[data-change] { background: ${({ theme }) => theme.colors.success100}; color: ${({ theme }) => theme.colors.success700}; text-decoration: none; border-bottom: 2px solid ${({ theme }) => theme.colors.success500}; border-radius: 2px; cursor: default; user-select: none; }
  del[data-change] + .quire-change-widget { margin-left: 0.25em; }
  figure[data-type='link-card'] {
    display: flex; gap: 1rem; align-items: flex-start; margin: 1em 0; padding: 0.75rem;
    border: 1px solid ${({ theme }) => theme.colors.neutral200}; border-radius: 8px; background: ${({ theme }) => theme.colors.neutral0};
  }
  figure[data-type='link-card'] img { width: 7rem; height: 5rem; object-fit: cover; border-radius: 4px; flex: none; }
  figure[data-type='link-card'] figcaption { display: flex; flex-direction: column; gap: 0.2rem; min-width: 0; font-size: 1.4rem; }
  figure[data-type='link-card'] a { font-weight: 600; text-decoration: none; }
  figure[data-type='link-card'] small { color: ${({ theme }) => theme.colors.neutral600}; }
  figure[data-type='link-card'].ProseMirror-selectednode { outline: 2px solid ${({ theme }) => theme.colors.primary600}; }
  /* Edited in place: the section looks like the page until it is clicked. */
  .ProseMirror { min-height: 2.5rem; padding: 0.25rem 0.5rem; margin: 0 -0.5rem; border: 1px solid transparent; border-radius: 4px; }
  .ProseMirror[contenteditable='true']:hover { border-color: ${({ theme }) => theme.colors.neutral200}; }
  .ProseMirror:focus { outline: 2px solid ${({ theme }) => theme.colors.primary600}; outline-offset: 1px; }
  .ProseMirror > :first-child { margin-top: 0; }
  .ProseMirror p.is-empty:only-child::before { content: attr(data-placeholder); color: ${({ theme }) => theme.colors.neutral500}; }
  /* The other people's carets (CollaborationCaret): a coloured bar with their name above it. */
  .collaboration-carets__caret { position: relative; margin-left: -1px; margin-right: -1px; border-left: 1px solid; border-right: 1px solid; word-break: normal; pointer-events: none; }
  .collaboration-carets__label {
    position: absolute; top: -1.4em; left: -1px; padding: 0.1rem 0.35rem; border-radius: 3px 3px 3px 0;
    font-size: 1.1rem; font-style: normal; font-weight: 600; line-height: normal; white-space: nowrap; color: #fff; user-select: none;
  }
  .collaboration-carets__selection { opacity: 0.9; }
`;

/** A note's body: Markdown rendered small, as the Brief's column is narrow. */
export const NoteProse = styled.div`
  font-size: 1.3rem;
  line-height: 1.5;
  color: ${({ theme }) => theme.colors.neutral700};
  overflow-wrap: anywhere;
  p, ul, ol, blockquote, pre { margin: 0.3em 0; }
  ul, ol { padding-left: 1.4em; } ul { list-style: disc; } ol { list-style: decimal; }
  h1, h2, h3, h4, h5, h6 { font-size: 1.4rem; font-weight: 600; margin: 0.4em 0 0.2em; }
  a { color: ${({ theme }) => theme.colors.primary600}; text-decoration: underline; }
  strong { font-weight: 600; } em { font-style: italic; }
  code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.95em; }
  pre { background: ${({ theme }) => theme.colors.neutral100}; padding: 0.5em; overflow: auto; border-radius: 4px; }
  blockquote { border-left: 3px solid ${({ theme }) => theme.colors.neutral300}; padding-left: 0.8em; }
  img { max-width: 100%; height: auto; }
`;
