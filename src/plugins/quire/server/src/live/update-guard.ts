/**
 * What a client's update may change in an article's live document (issue 32, findings 3, 7, 8),
 * decided before it is applied, from the update's structs and the document they attach to:
 *
 * - only the parts the canvas writes: the fragments `section:<id>` of the article's sections
 *   (in `order`, or deleted while open: `meta` says `deleted:<id>`, and the page keeps typing
 *   there until it is restored or dismissed) and the text `premise`. `order` and the maps
 *   `meta`, `outline` and `presence` (SERVER_MAPS) are the
 *   server's; any other shared type (`getMap('junk')`) is nobody's;
 * - inside a section, only what y-prosemirror makes of the shared editor schema
 *   (shared/editor-extensions.ts): elements named after its nodes, their attributes, text with
 *   its marks and their attributes; no maps, arrays, sub-documents, embeds or binaries;
 * - no URL (a link's href, an image's src, a link card's url and image) that the HTML
 *   sanitiser would drop;
 * - deleting items of `order` or of those maps is refused as writing them is.
 *
 * A page reconnecting with the copy it kept (sync step 2, `echo`) sends back whatever of it the
 * server lacks, which includes the server's own writes to `order` and its maps made after the
 * saved state it reloaded from: those are let through and listed (`serverParts`), for the
 * caller to put back as the server had them; refusing them would make the page drop its typing.
 *
 * An item's parent is not always in the update: Yjs leaves it out when the item has a left or
 * right neighbour, whose parent it takes. Neighbours and parents are looked up in the update and
 * then in the document; one found in neither (the client has changes this server has not seen)
 * makes the verdict `retry`, not a refusal. Items the document already has are skipped.
 */
import { getSchema } from '@tiptap/core';
import * as Y from 'yjs';
import { editorExtensions } from '../../../shared/editor-extensions';
import { LIMITS } from '../schemas/inputs/shared';
import { sanitiserKeepsUrl, type UrlKind } from '../domain/safe-url';

export type Verdict = { ok: true; premiseGrowth: number; serverParts?: ServerParts } | { ok: false; reason: string; retry?: boolean };

/** What an echo touched of the server's own parts: the caller puts them back as they were. */
export interface ServerParts {
  order: boolean;
  keys: Map<string, Set<string>> /** per server map (SERVER_MAPS), the keys touched */;
}

/** The maps only the server writes: the document's state, its outline, the agents present. */
export const SERVER_MAPS = ['meta', 'outline', 'presence'] as const;
const isServerRoot = (root: string) => root === 'order' || (SERVER_MAPS as readonly string[]).includes(root);

export interface SchemaRules {
  nodes: Map<string, Set<string>> /** node name -> its attributes */;
  marks: Map<string, Set<string>> /** mark name -> its attributes */;
  /** `<node>.<attr>` or `mark:<mark>.<attr>` -> the sanitiser's kinds of URL it must pass. */
  urls: Map<string, UrlKind[]>;
}

/** Longest attribute value (a URL, an alt text, a card's description), as JSON. */
export const MAX_ATTRIBUTE_CHARS = 20_000;

let rules: SchemaRules | null = null;

/** The rules of the shared editor schema (built once). */
export function schemaRules(): SchemaRules {
  if (rules) return rules;
  const schema = getSchema(editorExtensions());
  const nodes = new Map<string, Set<string>>();
  for (const [name, type] of Object.entries(schema.nodes)) if (name !== 'doc' && name !== 'text') nodes.set(name, new Set(Object.keys(type.spec.attrs ?? {})));
  const marks = new Map<string, Set<string>>();
  for (const [name, type] of Object.entries(schema.marks)) marks.set(name, new Set(Object.keys(type.spec.attrs ?? {})));
  const urls = new Map<string, UrlKind[]>([
    ['image.src', ['src']],
    ['linkCard.url', ['href', 'data']],
    ['linkCard.image', ['src', 'data']],
    ['mark:link.href', ['href']],
  ]);
  rules = { nodes, marks, urls };
  return rules;
}

/** Where an item sits: the root shared type's name, the kind of its parent, the element's node name. */
interface Place {
  root: string;
  kind: 'root' | 'element' | 'text' | 'other';
  nodeName?: string;
  sub: string | null;
}
const GONE = 'gone' as const;
const MISSING = 'missing' as const;
type Resolved = Place | typeof GONE | typeof MISSING;

class Refused extends Error {}

const sectionOf = (root: string) => (root.startsWith('section:') ? root.slice('section:'.length) : null);

/** The ids of sections a client may write: in `order`, or deleted while the document was open. */
export function writableSections(doc: Y.Doc): Set<string> {
  const ids = new Set<string>(doc.share.has('order') ? doc.getArray<string>('order').toArray() : []);
  if (doc.share.has('meta')) for (const key of doc.getMap('meta').keys()) if (key.startsWith('deleted:')) ids.add(key.slice('deleted:'.length));
  return ids;
}

/** The shared-type items of `order` and the server's maps, the deleted ones included (a delete may name any). */
function serverItems(doc: Y.Doc): Y.Item[] {
  const items: Y.Item[] = [];
  if (doc.share.has('order')) for (let item = (doc.share.get('order') as any)._start as Y.Item | null; item; item = item.right) items.push(item);
  for (const name of SERVER_MAPS.filter((map) => doc.share.has(map))) {
    for (const last of ((doc.share.get(name) as any)._map as Map<string, Y.Item>).values()) for (let item: Y.Item | null = last; item; item = item.left) items.push(item);
  }
  return items;
}

function describeType(type: Y.AbstractType<any>, sub: string | null): Place {
  let root: Y.AbstractType<any> = type;
  while (root._item) root = root._item.parent as Y.AbstractType<any>;
  const key = Y.findRootTypeKey(root);
  if (type === root) return { root: key, kind: 'root', sub };
  if (type instanceof Y.XmlElement) return { root: key, kind: 'element', nodeName: type.nodeName, sub };
  if (type instanceof Y.XmlText) return { root: key, kind: 'text', sub };
  return { root: key, kind: 'other', sub };
}

/** Decides whether a client's update may be applied to `doc` (see the header). */
export function checkUpdate(doc: Y.Doc, update: Uint8Array, options: { echo?: boolean } = {}, schema: SchemaRules = schemaRules()): Verdict {
  let decoded: ReturnType<typeof Y.decodeUpdate>;
  try {
    decoded = Y.decodeUpdate(update);
  } catch {
    return { ok: false, reason: 'The change could not be read (malformed update).' };
  }
  const sections = writableSections(doc);
  const byClient = new Map<number, Array<Y.Item | Y.GC>>();
  for (const struct of decoded.structs) {
    if (struct instanceof Y.Skip) continue;
    const list = byClient.get(struct.id.client) ?? [];
    list.push(struct as Y.Item | Y.GC);
    byClient.set(struct.id.client, list);
  }
  for (const list of byClient.values()) list.sort((a, b) => a.id.clock - b.id.clock);
  const inUpdate = (id: Y.ID): Y.Item | Y.GC | undefined => {
    const list = byClient.get(id.client);
    if (!list) return undefined;
    let low = 0;
    let high = list.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const struct = list[mid];
      if (id.clock < struct.id.clock) high = mid - 1;
      else if (id.clock >= struct.id.clock + struct.length) low = mid + 1;
      else return struct;
    }
    return undefined;
  };
  const inDoc = (id: Y.ID): Y.Item | Y.GC | undefined => {
    const structs = doc.store.clients.get(id.client);
    if (!structs?.length) return undefined;
    const last = structs[structs.length - 1];
    if (id.clock >= last.id.clock + last.length) return undefined;
    return structs[Y.findIndexSS(structs, id.clock)] as Y.Item | Y.GC;
  };
  const known = (item: Y.Item) => Y.getState(doc.store, item.id.client) >= item.id.clock + item.length;

  const memo = new Map<Y.Item, Resolved>();
  const resolve = (item: Y.Item, depth = 0): Resolved => {
    const cached = memo.get(item);
    if (cached) return cached;
    if (depth > 10_000) throw new Refused('The change nests too deeply.');
    let result: Resolved;
    const parent = item.parent as unknown;
    if (typeof parent === 'string') {
      result = { root: parent, kind: 'root', sub: item.parentSub };
    } else if (parent && typeof parent === 'object' && 'client' in (parent as object)) {
      result = typeOf(parent as Y.ID, item.parentSub, depth);
    } else {
      const neighbour = (item.origin ?? item.rightOrigin) as Y.ID | null;
      if (!neighbour) throw new Refused('The change holds an item without a place.');
      const fromUpdate = inUpdate(neighbour);
      if (fromUpdate instanceof Y.Item && fromUpdate !== item) {
        result = resolve(fromUpdate, depth + 1);
      } else {
        const fromDoc = inDoc(neighbour);
        if (fromDoc instanceof Y.Item) result = fromDoc.parent instanceof Y.AbstractType ? describeType(fromDoc.parent, fromDoc.parentSub) : GONE;
        else result = fromDoc || fromUpdate ? GONE : MISSING;
      }
    }
    memo.set(item, result);
    return result;
  };
  /** The place of a child of the type that the item `id` made. */
  const typeOf = (id: Y.ID, sub: string | null, depth: number): Resolved => {
    const fromUpdate = inUpdate(id);
    if (fromUpdate instanceof Y.Item) {
      if (!(fromUpdate.content instanceof Y.ContentType)) throw new Refused('The change puts an item inside something that is not a container.');
      const above = resolve(fromUpdate, depth + 1);
      if (above === GONE || above === MISSING) return above;
      const type = fromUpdate.content.type;
      if (type instanceof Y.XmlElement) return { root: above.root, kind: 'element', nodeName: type.nodeName, sub };
      if (type instanceof Y.XmlText) return { root: above.root, kind: 'text', sub };
      return { root: above.root, kind: 'other', sub };
    }
    const fromDoc = inDoc(id);
    if (fromDoc instanceof Y.Item) return fromDoc.content instanceof Y.ContentType ? describeType(fromDoc.content.type, sub) : GONE;
    return fromDoc || fromUpdate ? GONE : MISSING;
  };

  let premiseGrowth = 0;
  const serverParts: ServerParts = { order: false, keys: new Map() };
  const server = (place: { root: string; sub: string | null }) => {
    if (!isServerRoot(place.root)) return false;
    if (!options.echo) throw new Refused(`The change writes \`${place.root}\`, which only the server writes.`);
    if (place.root === 'order') serverParts.order = true;
    else if (place.sub !== null) serverParts.keys.set(place.root, (serverParts.keys.get(place.root) ?? new Set<string>()).add(place.sub));
    return true;
  };
  try {
    for (const list of byClient.values()) {
      for (const struct of list) {
        if (!(struct instanceof Y.Item) || known(struct)) continue;
        const place = resolve(struct);
        if (place === MISSING) return { ok: false, retry: true, reason: 'The change depends on changes this server has not received yet: reconnecting.' };
        if (place === GONE || server(place)) continue;
        premiseGrowth += checkItem(struct, place, sections, schema);
      }
    }
    // Deleting what only the server writes.
    const ds = decoded.ds as unknown as { clients: Map<number, Array<{ clock: number; len: number }>> };
    if (ds.clients.size) {
      for (const item of serverItems(doc)) {
        const ranges = ds.clients.get(item.id.client);
        if (ranges?.some((range) => item.id.clock < range.clock + range.len && range.clock < item.id.clock + item.length)) {
          if (!options.echo) return { ok: false, reason: 'The change deletes part of the section order or the article\'s state, which only the server writes.' };
          server(describeType(item.parent as Y.AbstractType<any>, item.parentSub));
        }
      }
    }
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
  return serverParts.order || serverParts.keys.size ? { ok: true, premiseGrowth, serverParts } : { ok: true, premiseGrowth };
}

/** Refuses (throws) an item the canvas would never write; returns the characters it adds to the premise. */
function checkItem(item: Y.Item, place: Place, sections: Set<string>, schema: SchemaRules): number {
  const content = item.content;
  if (isServerRoot(place.root)) throw new Refused(`The change writes \`${place.root}\`, which only the server writes.`);
  if (content instanceof Y.ContentDeleted) return 0;
  if (place.root === 'premise') {
    if (place.kind !== 'root' || place.sub !== null || !(content instanceof Y.ContentString)) throw new Refused('The change writes something other than text into the premise.');
    return content.getLength();
  }
  const sectionId = sectionOf(place.root);
  if (sectionId === null) throw new Refused(`The change writes "${place.root.slice(0, 60)}", which is not part of an article (sections and the premise are).`);
  if (!sections.has(sectionId)) throw new Refused(`The change writes the section ${sectionId.slice(0, 60)}, which is not one of this article's sections.`);
  const element = (name: string) => {
    if (!schema.nodes.has(name)) throw new Refused(`The change adds a "${name.slice(0, 60)}" element, which the editor does not have.`);
  };
  switch (place.kind) {
    case 'root':
      if (place.sub !== null || !(content instanceof Y.ContentType) || !(content.type instanceof Y.XmlElement)) throw new Refused('The change adds something other than blocks to a section.');
      element(content.type.nodeName);
      return 0;
    case 'element': {
      const nodeName = place.nodeName ?? '';
      if (place.sub === null) {
        if (!(content instanceof Y.ContentType)) throw new Refused(`The change adds raw content inside a "${nodeName}" element.`);
        if (content.type instanceof Y.XmlElement) element(content.type.nodeName);
        else if (!(content.type instanceof Y.XmlText)) throw new Refused(`The change adds a shared type inside a "${nodeName}" element, which the editor never does.`);
        return 0;
      }
      if (!schema.nodes.get(nodeName)?.has(place.sub)) throw new Refused(`The change sets "${place.sub.slice(0, 60)}" on a "${nodeName}" element, which has no such attribute.`);
      if (!(content instanceof Y.ContentAny)) throw new Refused(`The change sets "${place.sub}" on a "${nodeName}" element to something other than a value.`);
      for (const value of content.getContent()) checkValue(value, `${nodeName}.${place.sub}`, schema);
      return 0;
    }
    case 'text':
      if (place.sub !== null) throw new Refused('The change sets an attribute on text, which the editor never does.');
      if (content instanceof Y.ContentString) return 0;
      if (content instanceof Y.ContentFormat) {
        const mark = content.key.split('--', 1)[0];
        const attrs = schema.marks.get(mark);
        if (!attrs) throw new Refused(`The change formats text with "${mark.slice(0, 60)}", which the editor does not have.`);
        const value = content.value as unknown;
        if (value === null) return 0;
        if (typeof value !== 'object' || Array.isArray(value)) throw new Refused(`The change formats text with a "${mark}" whose attributes are not an object.`);
        for (const [key, attribute] of Object.entries(value as Record<string, unknown>)) {
          if (!attrs.has(key)) throw new Refused(`The change sets "${key.slice(0, 60)}" on a "${mark}" mark, which has no such attribute.`);
          checkValue(attribute, `mark:${mark}.${key}`, schema);
        }
        return 0;
      }
      throw new Refused('The change adds something other than text and marks to a text.');
    default:
      throw new Refused('The change writes inside a shared type the editor never makes.');
  }
}

function checkValue(value: unknown, at: string, schema: SchemaRules) {
  if (value !== null && typeof value === 'object' && JSON.stringify(value).length > MAX_ATTRIBUTE_CHARS) throw new Refused(`The change sets ${at} to a value that is too large.`);
  if (typeof value === 'string' && value.length > MAX_ATTRIBUTE_CHARS) throw new Refused(`The change sets ${at} to a value that is too long.`);
  for (const kind of schema.urls.get(at) ?? []) {
    if (!sanitiserKeepsUrl(value, kind)) throw new Refused(`The change holds a link the server does not keep (${String(value).slice(0, 40)}...): links must be http(s), mailto or relative.`);
  }
  if (schema.urls.has(at) && typeof value === 'string' && value.length > LIMITS.url) throw new Refused(`The change holds a link longer than ${LIMITS.url} characters.`);
}
