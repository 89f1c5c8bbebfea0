import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { invalidArgument } from '#kernel/errors';

/**
 * SVG is a document, not just an image: opened directly it runs script on our origin. An
 * uploaded SVG is parsed as XML (so what we check is what a browser renders, with no HTML/XML
 * parser differential), sanitised in place with DOMPurify's SVG profile, then stripped of
 * every reference that leaves the document. What is stored is the re-serialised result.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';
const ANIMATIONS = new Set(['animate', 'set', 'animatetransform', 'animatemotion', 'animatecolor']);
const RASTER_DATA_URL = /^data:image\/(png|jpeg|gif|webp|avif);base64,[a-z0-9+/=\s]*$/i;
// Any url(...) whose target is not a fragment of this document ("#id").
const EXTERNAL_CSS_URL = /url\s*\(\s*(?!['"]?\s*#)/i;

export class SvgRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvgRejected';
  }
}

/** More attributes than any drawing needs on one element; jsdom's cost grows with their square. */
export const MAX_SVG_ATTRIBUTES = 256;

/**
 * The largest number of attributes on one element, counted in one pass over the text (the
 * `=` signs of each tag outside quoted values; comments, CDATA, processing instructions and
 * declarations skipped). Only a guard: the XML parser still decides what is well-formed.
 */
export function mostAttributesOnOneElement(text: string): number {
  let most = 0;
  let i = text.indexOf('<');
  const skip = (open: string, close: string) => {
    if (!text.startsWith(open, i)) return false;
    const end = text.indexOf(close, i + open.length);
    i = end < 0 ? text.length : end + close.length;
    return true;
  };
  while (i >= 0 && i < text.length) {
    if (!(skip('<!--', '-->') || skip('<![CDATA[', ']]>') || skip('<?', '?>') || skip('<!', '>'))) {
      let count = 0;
      let quote = '';
      let j = i + 1;
      for (; j < text.length; j += 1) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '=') count += 1;
        else if (c === '>') break;
      }
      if (count > most) most = count;
      i = j + 1;
    }
    i = text.indexOf('<', i);
  }
  return most;
}

function isReference(name: string) {
  const n = name.toLowerCase();
  return n === 'href' || n.endsWith(':href') || n === 'src';
}

function unsafeCss(text: string) {
  // Backslashes are CSS escapes, which could spell url( or @import in a way no check sees.
  return EXTERNAL_CSS_URL.test(text) || /@import|expression\s*\(|javascript:|\\/i.test(text);
}

/** Removes what DOMPurify's SVG profile allows but we do not: references outside the document. */
// (No DOM lib in our TypeScript config: jsdom nodes are typed loosely.)
function stripExternalReferences(root: any) {
  const elements: any[] = [root, ...Array.from(root.querySelectorAll('*'))];
  for (const element of elements) {
    const tag = element.localName.toLowerCase();
    if (tag === 'style' && unsafeCss(element.textContent ?? '')) {
      element.remove();
      continue;
    }
    if (ANIMATIONS.has(tag)) {
      const target = (element.getAttribute('attributeName') ?? '').toLowerCase();
      if (isReference(target) || target.startsWith('on') || target === 'style') {
        element.remove();
        continue;
      }
    }
    for (const attribute of Array.from(element.attributes as ArrayLike<{ name: string; value: string }>)) {
      const value = attribute.value.trim();
      let keep = true;
      if (isReference(attribute.name)) {
        keep = value.startsWith('#') || ((tag === 'image' || tag === 'feimage') && RASTER_DATA_URL.test(value));
      } else if (/url\s*\(|@import|javascript:|\\/i.test(value)) {
        keep = !unsafeCss(value);
      }
      if (!keep) element.removeAttributeNode(attribute);
    }
  }
}

/**
 * Returns the sanitised SVG text, or throws SvgRejected (with a message that says why) for
 * bytes that are not a well-formed UTF-8 SVG document.
 */
export function sanitizeSvg(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new SvgRejected('The SVG is not valid UTF-8 text.');
  }
  if (/<!ENTITY/i.test(text)) throw new SvgRejected('The SVG declares XML entities, which are not accepted.');
  if (mostAttributesOnOneElement(text) > MAX_SVG_ATTRIBUTES) {
    throw new SvgRejected(`The SVG has an element with more than ${MAX_SVG_ATTRIBUTES} attributes, which is not accepted.`);
  }

  let dom: JSDOM;
  try {
    dom = new JSDOM(text, { contentType: 'image/svg+xml' });
  } catch (error) {
    const where = String((error as Error).message ?? '').split('\n')[0].replace(/^about:blank:/, 'line:column ');
    throw new SvgRejected(`The SVG is not well-formed XML (${where}).`);
  }
  try {
    const { window } = dom;
    const root = window.document.documentElement;
    if (!root || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) {
      throw new SvgRejected(`The file is not an SVG document: its root element must be <svg xmlns="${SVG_NS}">.`);
    }
    const purify = createDOMPurify(window as any);
    try {
      purify.sanitize(root, { IN_PLACE: true, USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'] });
    } catch {
      throw new SvgRejected('The SVG could not be sanitised.');
    }
    stripExternalReferences(root);
    return new window.XMLSerializer().serializeToString(root);
  } finally {
    dom.window.close();
  }
}

/** sanitizeSvg for an upload: what is not a well-formed SVG is a 400 saying why. */
export function sanitizeUploadedSvg(bytes: Uint8Array): string {
  try {
    return sanitizeSvg(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    if (error instanceof SvgRejected) throw invalidArgument(error.message, 'Send a well-formed SVG document (UTF-8).');
    throw error;
  }
}
