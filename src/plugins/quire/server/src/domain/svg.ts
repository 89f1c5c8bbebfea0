import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';

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
