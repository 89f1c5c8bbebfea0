/**
 * A section's content in its three forms: the stored HTML, the ProseMirror JSON of the shared
 * editor schema (shared/editor-extensions.ts, the canvas's own), and the Y.XmlFragment the
 * canvas edits. HTML is parsed and written with ProseMirror's own DOMParser/DOMSerializer for
 * that schema, as the browser's editor does, over one jsdom window (CommonJS, unlike
 * happy-dom 20, which TipTap's server entry needs and Jest cannot load). Scripts never run:
 * the window is built without them, and content is only parsed, never rendered.
 */
import { getSchema, type AnyExtension } from '@tiptap/core';
import { DOMParser as PMDOMParser, DOMSerializer, Node as PMNode, type Schema } from '@tiptap/pm/model';
import { JSDOM } from 'jsdom';
import { prosemirrorJSONToYXmlFragment, updateYFragment, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { editorExtensions } from '../../../shared/editor-extensions';

let extensions: AnyExtension[] | null = null;
let schema: Schema | null = null;
let window: JSDOM['window'] | null = null;

const ext = () => (extensions ??= editorExtensions());
const schemaOf = () => (schema ??= getSchema(ext()));
const win = () => (window ??= new JSDOM('<!doctype html><html><body></body></html>').window);

/** Elements that hold blocks, not text: whitespace between or around their children is layout. */
const BLOCK = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DIV', 'DL', 'DD', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'IMG', 'LI', 'OL', 'P', 'PRE', 'SECTION', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL']);
type DomNode = InstanceType<JSDOM['window']['Node']>;
type DomElement = InstanceType<JSDOM['window']['Element']>;
const isBlock = (node: DomNode | null) => !!node && node.nodeType === 1 && BLOCK.has((node as DomElement).tagName);

/**
 * Drops the whitespace that is only layout (between blocks, as Markdown's HTML and pretty-printed
 * HTML have) and turns line breaks inside text into spaces, as a browser shows them. What is
 * left is the text as typed, so it can be parsed without collapsing: a space a person just typed
 * at the end of a paragraph, stored in the middle of their typing, stays a space (collapsing it
 * made a later merge of an agent's write delete it from under the person's caret).
 */
function dropLayoutWhitespace(element: DomElement): void {
  for (const child of [...element.childNodes]) {
    if (child.nodeType === 1) {
      if ((child as DomElement).tagName !== 'PRE') dropLayoutWhitespace(child as DomElement);
    } else if (child.nodeType === 3) {
      const text = child.nodeValue ?? '';
      const layout = !/[^ \t\r\n\f]/.test(text) && (isBlock(child.previousSibling) || isBlock(child.nextSibling) || !child.previousSibling || !child.nextSibling) && [...element.childNodes].some(isBlock);
      if (layout) child.remove();
      else if (/[\t\r\n\f]/.test(text)) child.nodeValue = text.replace(/[ \t\r\n\f]*[\t\r\n\f][ \t\r\n\f]*/g, ' ');
    }
  }
}

/** The ProseMirror JSON of stored HTML (anything the schema does not know is dropped, as in the editor). */
export function htmlToJSON(html: string): Record<string, any> {
  const body = win().document.createElement('div');
  body.innerHTML = html || '<p></p>';
  dropLayoutWhitespace(body);
  return PMDOMParser.fromSchema(schemaOf()).parse(body as any, { preserveWhitespace: true }).toJSON();
}

/**
 * ProseMirror JSON with only what the schema has (issue 32, finding 5): a node of an unknown
 * type is dropped with its content, unknown marks and attributes are dropped. A live document
 * saved before the update guard may hold them, and ProseMirror throws on them.
 */
export function pruneToSchema(json: Record<string, any>, schema: Schema = schemaOf()): Record<string, any> | null {
  const type = schema.nodes[json?.type];
  if (!type) return null;
  const pruned: Record<string, any> = { type: json.type };
  if (json.attrs && typeof json.attrs === 'object') pruned.attrs = Object.fromEntries(Object.entries(json.attrs).filter(([key]) => key in (type.spec.attrs ?? {})));
  if (typeof json.text === 'string') pruned.text = json.text;
  if (Array.isArray(json.marks)) pruned.marks = json.marks.filter((mark) => schema.marks[mark?.type]).map((mark) => ({ type: mark.type, ...(mark.attrs ? { attrs: Object.fromEntries(Object.entries(mark.attrs).filter(([key]) => key in (schema.marks[mark.type].spec.attrs ?? {}))) } : {}) }));
  if (Array.isArray(json.content)) pruned.content = json.content.map((child) => pruneToSchema(child, schema)).filter((child): child is Record<string, any> => child !== null);
  return pruned;
}

/** The HTML of a fragment, as the canvas would save it (what the schema does not know left out). */
export function fragmentToHtml(fragment: Y.XmlFragment): string {
  const json = pruneToSchema(yXmlFragmentToProsemirrorJSON(fragment));
  if (!json?.content?.length) return '';
  const node = PMNode.fromJSON(schemaOf(), json);
  const document = win().document;
  const container = document.createElement('div');
  container.appendChild(DOMSerializer.fromSchema(schemaOf()).serializeFragment(node.content, { document: document as any }) as any);
  return container.innerHTML;
}

/** A section's HTML to store, or null (and `onError` told) when even the pruned fragment cannot be written. */
export function storableHtml(fragment: Y.XmlFragment, onError: (error: Error) => void): string | null {
  try {
    return fragmentToHtml(fragment);
  } catch (error) {
    onError(error as Error);
    return null;
  }
}

/** Fills an empty fragment with stored HTML (a document being loaded). */
export function fillFragment(fragment: Y.XmlFragment, html: string): void {
  prosemirrorJSONToYXmlFragment(schemaOf(), htmlToJSON(html), fragment);
}

/**
 * Makes the fragment hold `html` as the smallest change (y-prosemirror's diff): nodes and text
 * that stay are kept, so others' carets and their typing elsewhere in the section survive.
 * Call inside a transaction whose origin names who changed it.
 */
export function updateFragment(doc: Y.Doc, fragment: Y.XmlFragment, html: string): void {
  const node = PMNode.fromJSON(schemaOf(), htmlToJSON(html));
  updateYFragment(doc, fragment, node, { mapping: new Map(), isOMark: new Map() } as any);
}

/** Characters of the fragment's text, a cheap lower bound of its HTML length. */
export function fragmentLength(fragment: Y.XmlFragment): number {
  return fragment.toString().length;
}

/** Stored HTML as a fragment filled with it renders (what "unchanged" compares with). */
export function renderedHtml(html: string): string {
  const scratch = new Y.Doc();
  try {
    const fragment = scratch.getXmlFragment('scratch');
    fillFragment(fragment, html);
    return fragmentToHtml(fragment);
  } finally {
    scratch.destroy();
  }
}
