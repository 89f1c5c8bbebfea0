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
  figure[data-type='link-card'] {
    display: flex; gap: 1rem; align-items: flex-start; margin: 1em 0; padding: 0.75rem;
    border: 1px solid ${({ theme }) => theme.colors.neutral200}; border-radius: 8px; background: ${({ theme }) => theme.colors.neutral0};
  }
  figure[data-type='link-card'] img { width: 7rem; height: 5rem; object-fit: cover; border-radius: 4px; flex: none; }
  figure[data-type='link-card'] figcaption { display: flex; flex-direction: column; gap: 0.2rem; min-width: 0; font-size: 1.4rem; }
  figure[data-type='link-card'] a { font-weight: 600; text-decoration: none; }
  figure[data-type='link-card'] small { color: ${({ theme }) => theme.colors.neutral600}; }
  figure[data-type='link-card'].ProseMirror-selectednode { outline: 2px solid ${({ theme }) => theme.colors.primary600}; }
  .ProseMirror { min-height: 8rem; padding: 0.75rem; border: 1px solid ${({ theme }) => theme.colors.neutral200}; border-radius: 4px; background: ${({ theme }) => theme.colors.neutral0}; }
  .ProseMirror:focus { outline: 2px solid ${({ theme }) => theme.colors.primary600}; outline-offset: 1px; }
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
