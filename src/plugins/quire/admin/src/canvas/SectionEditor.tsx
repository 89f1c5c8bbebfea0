/**
 * One section of the live article, editable in place (CONTRACT 18, 19): a TipTap editor bound
 * to the Y.Doc's `section:<id>` fragment (Collaboration) with the others' carets and names
 * (CollaborationCaret). Nothing to save: what is typed goes to the live document, which the
 * server stores. The schema is the shared one (shared/editor-extensions.ts); the toolbar shows
 * while the section is being edited: headings; bold, italic, strikethrough; lists, quote, code
 * block; link, an image from the Media Library, a table (and, inside a table, rows and columns
 * added or removed). Every tool is an icon with its name as tooltip and aria-label. A pasted
 * link becomes a link card filled from the unfurl route. Open threads' quotes are marked in the
 * text (`data-thread`, threads/thread-marks.ts); with text selected, "Comment" opens a thread on it.
 * Undo is the article's (canvas/undo.ts): the editor's y-tiptap undo plugin works on the one
 * history, the toolbar's Undo and Redo too, and an undo or redo that changes this section
 * brings it into view with the caret.
 * Pending suggestions show in the text as tracked changes (`ins`/`del` with `data-change`,
 * decorations: suggestions/inline-changes.ts).
 */
import { Button, Flex, IconButton, IconButtonGroup } from '@strapi/design-system';
import {
  ArrowClockwise,
  Bold,
  BulletList,
  CodeBlock,
  GridNine,
  HeadingThree,
  HeadingTwo,
  Image as ImageIcon,
  Italic,
  Link as LinkIcon,
  Message,
  Minus,
  NumberList,
  Plus,
  Quotes,
  StrikeThrough,
  Trash,
} from '@strapi/icons';
import { useStrapiApp } from '@strapi/strapi/admin';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { ySyncPluginKey } from '@tiptap/y-tiptap';
import * as React from 'react';
import { editorExtensions } from '../../../shared/editor-extensions';
import { useLiveApi } from '../api/live';
import { useMessages } from '../messages';
import { pastedLink } from './link-card';
import type { LiveUser } from './live';
import { InlineChanges, inlineChangesKey, type InlineChange, type Shown } from './suggestions/inline-changes';
import { selectionQuote, ThreadMarks, threadMarksKey, type ThreadMark } from './threads/thread-marks';
import { useArticleHistory } from './undo';

/** A Media Library file's URL made absolute (the local provider answers /uploads/...). */
export const absoluteUrl = (url: string) => new URL(url, (window as any).strapi?.backendURL || window.location.origin).href;

interface Props {
  provider: HocuspocusProvider;
  sectionId: string;
  user: LiveUser;
  editable: boolean;
  /** The section's header (source badge, history...), shown left of the toolbar. */
  header: React.ReactNode;
  /** After each change typed here: the section's HTML (kept, so a deletion meanwhile can show it). */
  onTyped: (sectionId: string, html: string) => void;
  /** The open threads' quotes, marked in the text. */
  threads?: ThreadMark[];
  /** Set when the editor may comment: asked with the selected text and its occurrence. */
  onComment?: (quote: string, occurrence: number) => void;
  /** Pending change sets on this section, shown in the text as insertions and deletions. */
  changes?: InlineChange[];
  /** Which of `changes` show in the text, and which not (their passage changed since), whenever that changes. */
  onInlineShown?: (shown: Shown) => void;
}

export const SectionEditor = ({ provider, sectionId, user, editable, header, onTyped, threads, onComment, changes, onInlineShown }: Props) => {
  const { m, notify } = useMessages();
  const liveApi = useLiveApi();
  const components = useStrapiApp('SectionEditor', (state) => state.components);
  /** The article's undo history (canvas/undo.ts): Ctrl+Z here may undo a change made in another section. */
  const history = useArticleHistory();
  const MediaLibraryDialog = components['media-library'] as React.ComponentType<any> | undefined;
  const [mediaOpen, setMediaOpen] = React.useState(false);
  const [focused, setFocused] = React.useState(false);
  const editorRef = React.useRef<Editor | null>(null);
  const typedRef = React.useRef(onTyped);
  typedRef.current = onTyped;
  const marksRef = React.useRef<ThreadMark[]>(threads ?? []);
  marksRef.current = threads ?? [];
  const changesRef = React.useRef<InlineChange[]>(changes ?? []);
  changesRef.current = changes ?? [];
  const shownRef = React.useRef(onInlineShown);
  shownRef.current = onInlineShown;
  /** Whether text is selected (the Comment button shows). */
  const [selected, setSelected] = React.useState(false);

  const unfurl = React.useCallback(
    async (url: string) => {
      const editor = editorRef.current;
      if (!editor) return;
      try {
        const preview = await liveApi.unfurl(url);
        editor.chain().focus().insertLinkCard({ url: preview.url, title: preview.title, description: preview.description, image: preview.image, siteName: preview.host }).run();
      } catch {
        // No preview (the page failed, or too many): keep the link as a plain link.
        editor.chain().focus().insertContent(`<p><a href="${url.replace(/"/g, '&quot;')}">${url.replace(/</g, '&lt;')}</a></p>`).run();
        notify.warning(m('canvas.unfurl.failed', 'No preview for this link: it was inserted as a plain link.'));
      }
    },
    [liveApi, notify], // eslint-disable-line react-hooks/exhaustive-deps
  );

  const editor = useEditor(
    {
      editable,
      extensions: [
        ...editorExtensions(),
        Collaboration.configure({
          document: provider.document,
          field: `section:${sectionId}`,
          ...(history ? { yUndoOptions: { undoManager: history.editorManager() } } : {}),
        }),
        CollaborationCaret.configure({ provider, user: { name: user.name, color: user.color, kind: 'editor', id: user.id } }),
        ThreadMarks(() => marksRef.current),
        InlineChanges(() => changesRef.current, (shown) => shownRef.current?.(shown)),
      ],
      editorProps: {
        attributes: { 'aria-label': m('canvas.editor.label', 'Section text'), class: 'quire-prose quire-editor', 'data-section-editor': sectionId },
        handlePaste: (_view, event) => {
          const url = pastedLink(event.clipboardData?.getData('text/plain') ?? '');
          if (!url || event.clipboardData?.getData('text/html')) return false;
          event.preventDefault();
          void unfurl(url);
          return true;
        },
      },
      onFocus: () => {
        setFocused(true);
        provider.awareness?.setLocalStateField('section', sectionId);
      },
      onBlur: () => {
        setFocused(false);
        if (provider.awareness?.getLocalState()?.section === sectionId) provider.awareness.setLocalStateField('section', null);
      },
      onSelectionUpdate: ({ editor: current }) => setSelected(!current.state.selection.empty),
      onUpdate: ({ editor: current, transaction }) => {
        const sync = transaction.getMeta(ySyncPluginKey);
        // This person's undo or redo, pressed wherever: show where it changed the text (the caret is back where it was).
        if (sync?.isUndoRedoOperation) {
          window.requestAnimationFrame(() => {
            if (!current.isDestroyed) current.commands.focus(null, { scrollIntoView: true });
          });
          typedRef.current(sectionId, current.getHTML());
          return;
        }
        // Only what this person typed (remote changes come through the sync plugin's transactions).
        if (sync?.isChangeOrigin) return;
        typedRef.current(sectionId, current.getHTML());
      },
    },
    [provider, sectionId, history],
  );
  editorRef.current = editor;

  React.useEffect(() => {
    editor?.setEditable(editable);
  }, [editor, editable]);

  // New threads, or their anchors moved: mark them again (a transaction that changes no content).
  const marksKey = JSON.stringify(threads ?? []);
  React.useEffect(() => {
    if (editor && !editor.isDestroyed) editor.view.dispatch(editor.state.tr.setMeta(threadMarksKey, true).setMeta('addToHistory', false));
  }, [editor, marksKey]);

  // Suggestions made or decided: their marks again (decorations only, nothing reaches the live document).
  const changesKey = JSON.stringify(changes ?? []);
  React.useEffect(() => {
    if (editor && !editor.isDestroyed) editor.view.dispatch(editor.state.tr.setMeta(inlineChangesKey, true).setMeta('addToHistory', false));
  }, [editor, changesKey]);

  const comment = () => {
    const picked = editor ? selectionQuote(editor.state) : null;
    if (picked && onComment) onComment(picked.quote, picked.occurrence);
  };

  const insertAssets = (files: Array<{ url: string; alternativeText?: string | null; name?: string; mime?: string }>) => {
    for (const file of files) {
      if (file.mime && !file.mime.startsWith('image/')) continue;
      editor?.chain().focus().setImage({ src: absoluteUrl(file.url), alt: file.alternativeText ?? file.name ?? '' }).run();
    }
    setMediaOpen(false);
  };

  const addLink = () => {
    const url = window.prompt(m('canvas.editor.linkPrompt', 'Link address (https://...)'));
    if (url) editor?.chain().focus().extendMarkRange('link').setLink({ href: url }).run();
  };

  const tool = (label: string, icon: React.ReactNode, action: () => void, active = false) => (
    <IconButton label={label} onClick={action} variant={active ? 'secondary' : 'ghost'} aria-pressed={active}>
      {icon}
    </IconButton>
  );
  /** A table change, shown while the caret is in a table: a short text with an icon, its full name as aria-label. */
  const tableTool = (label: string, text: string, icon: React.ReactNode, action: () => void) => (
    <Button size="S" variant="tertiary" startIcon={icon} onClick={action} aria-label={label} title={label}>
      {text}
    </Button>
  );
  const showTools = editor && editable && (focused || mediaOpen);
  const run = () => editor!.chain().focus();

  return (
    <>
      <Flex justifyContent="space-between" alignItems="center" paddingBottom={2} gap={2} wrap="wrap" style={{ minHeight: '3.2rem' }}>
        {header}
        {onComment && selected ? (
          <Button size="S" variant="secondary" startIcon={<Message />} onMouseDown={(event: React.MouseEvent) => event.preventDefault()} onClick={comment} data-testid="comment-selection">
            {m('threads.comment', 'Comment')}
          </Button>
        ) : null}
        {showTools ? (
          // Keeps the editor's focus (and caret) while a tool is clicked.
          <Flex gap={2} wrap="wrap" role="toolbar" aria-label={m('canvas.editor.toolbar', 'Formatting')} onMouseDown={(event: React.MouseEvent) => event.preventDefault()}>
            {history ? (
              // The article's history (canvas/undo.ts), for a keyboard without Ctrl+Z: a phone's.
              <IconButtonGroup>
                {tool(m('canvas.editor.undo', 'Undo'), <ArrowClockwise style={{ transform: 'scaleX(-1)' }} />, () => void history.undo())}
                {tool(m('canvas.editor.redo', 'Redo'), <ArrowClockwise />, () => void history.redo())}
              </IconButtonGroup>
            ) : null}
            <IconButtonGroup>
              {tool(m('canvas.editor.heading2', 'Heading 2'), <HeadingTwo />, () => run().toggleHeading({ level: 2 }).run(), editor.isActive('heading', { level: 2 }))}
              {tool(m('canvas.editor.heading3', 'Heading 3'), <HeadingThree />, () => run().toggleHeading({ level: 3 }).run(), editor.isActive('heading', { level: 3 }))}
            </IconButtonGroup>
            <IconButtonGroup>
              {tool(m('canvas.editor.bold', 'Bold'), <Bold />, () => run().toggleBold().run(), editor.isActive('bold'))}
              {tool(m('canvas.editor.italic', 'Italic'), <Italic />, () => run().toggleItalic().run(), editor.isActive('italic'))}
              {tool(m('canvas.editor.strike', 'Strikethrough'), <StrikeThrough />, () => run().toggleStrike().run(), editor.isActive('strike'))}
            </IconButtonGroup>
            <IconButtonGroup>
              {tool(m('canvas.editor.bullets', 'Bulleted list'), <BulletList />, () => run().toggleBulletList().run(), editor.isActive('bulletList'))}
              {tool(m('canvas.editor.numbers', 'Numbered list'), <NumberList />, () => run().toggleOrderedList().run(), editor.isActive('orderedList'))}
              {tool(m('canvas.editor.quote', 'Quote'), <Quotes />, () => run().toggleBlockquote().run(), editor.isActive('blockquote'))}
              {tool(m('canvas.editor.codeBlock', 'Code block'), <CodeBlock />, () => run().toggleCodeBlock().run(), editor.isActive('codeBlock'))}
            </IconButtonGroup>
            <IconButtonGroup>
              {tool(m('canvas.editor.link', 'Link'), <LinkIcon />, addLink, editor.isActive('link'))}
              {MediaLibraryDialog ? tool(m('canvas.editor.image', 'Image from the Media Library'), <ImageIcon />, () => setMediaOpen(true)) : null}
              {tool(m('canvas.editor.table', 'Table (3 × 3, with a header row)'), <GridNine />, () => run().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(), editor.isActive('table'))}
            </IconButtonGroup>
            {editor.isActive('table') ? (
              <Flex gap={1} wrap="wrap" role="group" aria-label={m('canvas.editor.tableTools', 'Table')} data-testid="table-tools">
                {tableTool(m('canvas.editor.addRow', 'Add a row below'), m('canvas.editor.row', 'Row'), <Plus />, () => run().addRowAfter().run())}
                {tableTool(m('canvas.editor.addColumn', 'Add a column to the right'), m('canvas.editor.column', 'Column'), <Plus />, () => run().addColumnAfter().run())}
                {tableTool(m('canvas.editor.deleteRow', 'Delete this row'), m('canvas.editor.row', 'Row'), <Minus />, () => run().deleteRow().run())}
                {tableTool(m('canvas.editor.deleteColumn', 'Delete this column'), m('canvas.editor.column', 'Column'), <Minus />, () => run().deleteColumn().run())}
                {tableTool(m('canvas.editor.deleteTable', 'Delete the table'), m('canvas.editor.tableWord', 'Table'), <Trash />, () => run().deleteTable().run())}
              </Flex>
            ) : null}
          </Flex>
        ) : null}
      </Flex>
      <EditorContent editor={editor} />
      {mediaOpen && MediaLibraryDialog ? <MediaLibraryDialog allowedTypes={['images']} onClose={() => setMediaOpen(false)} onSelectAssets={insertAssets} /> : null}
    </>
  );
};
