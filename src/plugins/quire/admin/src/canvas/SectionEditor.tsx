/**
 * The rich-text editor of one section (TipTap 3: StarterKit with its Link, Image, and our link
 * card). Saves the section as HTML; images come from the Media Library with absolute URLs; a
 * pasted link becomes a link card filled from the unfurl route.
 */
import { Box, Button, Flex, IconButton } from '@strapi/design-system';
import { Bold, BulletList, Image as ImageIcon, Italic, Link as LinkIcon, NumberList, Quotes } from '@strapi/icons';
import { useFetchClient, useNotification, useStrapiApp } from '@strapi/strapi/admin';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import Image from '@tiptap/extension-image';
import StarterKit from '@tiptap/starter-kit';
import * as React from 'react';
import { useIntl } from 'react-intl';
import type { LinkPreview } from '../api';
import { t } from '../pluginId';
import { LinkCard, pastedLink } from './link-card';

/** A Media Library file's URL made absolute (the local provider answers /uploads/...). */
export const absoluteUrl = (url: string) => new URL(url, (window as any).strapi?.backendURL || window.location.origin).href;

interface Props {
  html: string;
  saving: boolean;
  onSave: (html: string) => void;
  onCancel: () => void;
}

export const SectionEditor = ({ html, saving, onSave, onCancel }: Props) => {
  const { formatMessage } = useIntl();
  const { get } = useFetchClient();
  const { toggleNotification } = useNotification();
  const components = useStrapiApp('SectionEditor', (state) => state.components);
  const MediaLibraryDialog = components['media-library'] as React.ComponentType<any> | undefined;
  const [mediaOpen, setMediaOpen] = React.useState(false);
  const editorRef = React.useRef<Editor | null>(null);

  const unfurl = React.useCallback(
    async (url: string) => {
      const editor = editorRef.current;
      if (!editor) return;
      try {
        const { data } = await get<{ data: LinkPreview }>('/quire/unfurl', { params: { url } });
        const preview = data.data;
        editor.chain().focus().insertLinkCard({ url: preview.url, title: preview.title, description: preview.description, image: preview.image, siteName: preview.host }).run();
      } catch {
        // No preview (the page failed, or too many): keep the link as a plain link.
        editor.chain().focus().insertContent(`<p><a href="${url.replace(/"/g, '&quot;')}">${url.replace(/</g, '&lt;')}</a></p>`).run();
        toggleNotification({ type: 'warning', message: formatMessage({ id: t('canvas.unfurl.failed'), defaultMessage: 'No preview for this link: it was inserted as a plain link.' }) });
      }
    },
    [get, toggleNotification, formatMessage],
  );

  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, autolink: true } }), Image, LinkCard],
    content: html,
    editorProps: {
      attributes: { 'aria-label': formatMessage({ id: t('canvas.editor.label'), defaultMessage: 'Section text' }), class: 'quire-prose quire-editor' },
      handlePaste: (_view, event) => {
        const url = pastedLink(event.clipboardData?.getData('text/plain') ?? '');
        if (!url || event.clipboardData?.getData('text/html')) return false;
        event.preventDefault();
        void unfurl(url);
        return true;
      },
    },
  });
  editorRef.current = editor;

  const insertAssets = (files: Array<{ url: string; alternativeText?: string | null; name?: string; mime?: string }>) => {
    for (const file of files) {
      if (file.mime && !file.mime.startsWith('image/')) continue;
      editor?.chain().focus().setImage({ src: absoluteUrl(file.url), alt: file.alternativeText ?? file.name ?? '' }).run();
    }
    setMediaOpen(false);
  };

  const addLink = () => {
    const url = window.prompt(formatMessage({ id: t('canvas.editor.linkPrompt'), defaultMessage: 'Link address (https://...)' }));
    if (url) editor?.chain().focus().extendMarkRange('link').setLink({ href: url }).run();
  };

  if (!editor) return null;
  const tool = (label: string, icon: React.ReactNode, action: () => void, active = false) => (
    <IconButton label={label} onClick={action} variant={active ? 'secondary' : 'ghost'} aria-pressed={active}>
      {icon}
    </IconButton>
  );
  const m = (id: string, defaultMessage: string) => formatMessage({ id: t(id), defaultMessage });

  return (
    <Box data-editing="true">
      <Flex gap={1} wrap="wrap" paddingBottom={2} role="toolbar" aria-label={m('canvas.editor.toolbar', 'Formatting')}>
        <Button size="S" variant={editor.isActive('heading', { level: 2 }) ? 'secondary' : 'tertiary'} onClick={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}>
          H2
        </Button>
        <Button size="S" variant={editor.isActive('heading', { level: 3 }) ? 'secondary' : 'tertiary'} onClick={() => editor.chain().focus().toggleHeading({ level: 3 }).run()}>
          H3
        </Button>
        {tool(m('canvas.editor.bold', 'Bold'), <Bold />, () => editor.chain().focus().toggleBold().run(), editor.isActive('bold'))}
        {tool(m('canvas.editor.italic', 'Italic'), <Italic />, () => editor.chain().focus().toggleItalic().run(), editor.isActive('italic'))}
        {tool(m('canvas.editor.bullets', 'Bulleted list'), <BulletList />, () => editor.chain().focus().toggleBulletList().run(), editor.isActive('bulletList'))}
        {tool(m('canvas.editor.numbers', 'Numbered list'), <NumberList />, () => editor.chain().focus().toggleOrderedList().run(), editor.isActive('orderedList'))}
        {tool(m('canvas.editor.quote', 'Quote'), <Quotes />, () => editor.chain().focus().toggleBlockquote().run(), editor.isActive('blockquote'))}
        {tool(m('canvas.editor.link', 'Link'), <LinkIcon />, addLink, editor.isActive('link'))}
        {MediaLibraryDialog ? tool(m('canvas.editor.image', 'Image from the Media Library'), <ImageIcon />, () => setMediaOpen(true)) : null}
      </Flex>
      <EditorContent editor={editor} />
      <Flex gap={2} paddingTop={3} justifyContent="flex-end">
        <Button variant="tertiary" onClick={onCancel} disabled={saving}>
          {m('canvas.editor.cancel', 'Cancel')}
        </Button>
        <Button onClick={() => onSave(editor.getHTML())} loading={saving}>
          {m('canvas.editor.save', 'Save')}
        </Button>
      </Flex>
      {mediaOpen && MediaLibraryDialog ? <MediaLibraryDialog allowedTypes={['images']} onClose={() => setMediaOpen(false)} onSelectAssets={insertAssets} /> : null}
    </Box>
  );
};
