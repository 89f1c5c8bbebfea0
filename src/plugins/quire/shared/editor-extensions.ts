/**
 * The one TipTap schema of a section, shared by the canvas (admin, bound to the live Y.Doc) and
 * the server (HTML <-> ProseMirror JSON <-> Y.XmlFragment). Both sides must build the same schema,
 * or a node one side knows is dropped by the other. No React and no DOM at import time, so the
 * server can load it.
 *
 * The link card: a pasted link's unfurl preview, kept in the section's HTML as
 * `<figure data-type="link-card" data-url data-title data-description data-image data-site-name>`
 * with a readable body (image, linked title, description, site), which the server's sanitiser
 * keeps (domain/markdown.ts) and the public page styles as a card.
 */
import { Node, type AnyExtension } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';

export interface LinkCardAttributes {
  url: string;
  title: string;
  description: string;
  image: string;
  siteName: string;
}

const ATTRIBUTES: Array<[keyof LinkCardAttributes, string]> = [
  ['url', 'data-url'],
  ['title', 'data-title'],
  ['description', 'data-description'],
  ['image', 'data-image'],
  ['siteName', 'data-site-name'],
];

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    linkCard: { insertLinkCard: (attributes: LinkCardAttributes) => ReturnType };
  }
}

export const LinkCard = Node.create({
  name: 'linkCard',
  group: 'block',
  atom: true,
  draggable: true,

  addAttributes() {
    return Object.fromEntries(
      ATTRIBUTES.map(([name, attribute]) => [name, { default: '', rendered: false, parseHTML: (element: { getAttribute(name: string): string | null }) => element.getAttribute(attribute) ?? '' }]),
    );
  },

  parseHTML() {
    return [{ tag: 'figure[data-type="link-card"]' }];
  },

  renderHTML({ node }) {
    const attrs = node.attrs as LinkCardAttributes;
    const data: Record<string, string | null> = { 'data-type': 'link-card' };
    for (const [name, attribute] of ATTRIBUTES) data[attribute] = attrs[name] || null;
    const caption: any[] = ['figcaption', {}, ['a', { href: attrs.url }, attrs.title || attrs.url]];
    if (attrs.description) caption.push(['span', {}, attrs.description]);
    if (attrs.siteName) caption.push(['small', {}, attrs.siteName]);
    return ['figure', data, ...(attrs.image ? [['img', { src: attrs.image, alt: '' }]] : []), caption] as any;
  },

  addCommands() {
    return {
      insertLinkCard:
        (attributes) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs: attributes }),
    };
  },
});

/**
 * The section schema's extensions. The undo/redo of StarterKit is off: with collaboration the
 * Yjs undo manager (Collaboration's own) undoes only this person's changes. StarterKit brings
 * strikethrough (`<s>`) and code blocks (`<pre><code>`); TableKit the tables GFM Markdown has
 * (a header row of `<th>`, then `<td>` rows). Columns are not resizable: widths would live in
 * inline styles, which the server's sanitiser drops, and Markdown tables have none.
 */
export const editorExtensions = (): AnyExtension[] => [
  StarterKit.configure({ link: { openOnClick: false, autolink: true }, undoRedo: false }),
  Image,
  LinkCard,
  TableKit.configure({ table: { resizable: false } }),
];
