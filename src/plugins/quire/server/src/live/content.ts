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

/** The ProseMirror JSON of stored HTML (anything the schema does not know is dropped, as in the editor). */
export function htmlToJSON(html: string): Record<string, any> {
  const body = win().document.createElement('div');
  body.innerHTML = html || '<p></p>';
  return PMDOMParser.fromSchema(schemaOf()).parse(body as any).toJSON();
}

/** The HTML of a fragment, as the canvas would save it. */
export function fragmentToHtml(fragment: Y.XmlFragment): string {
  const json = yXmlFragmentToProsemirrorJSON(fragment);
  if (!json.content?.length) return '';
  const node = PMNode.fromJSON(schemaOf(), json);
  const document = win().document;
  const container = document.createElement('div');
  container.appendChild(DOMSerializer.fromSchema(schemaOf()).serializeFragment(node.content, { document: document as any }) as any);
  return container.innerHTML;
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
