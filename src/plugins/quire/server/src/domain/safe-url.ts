/**
 * Whether the HTML sanitiser (domain/markdown.ts: rehype-sanitize with GitHub's schema and the
 * link card's data-* URLs) would keep a URL, without running it: the live channel refuses a
 * change carrying one it would drop (issue 32, finding 8), so the live document never holds a
 * `javascript:` link that every open canvas renders. The same rule as hast-util-sanitize's
 * `safeProtocol`: no colon before the first `/`, `?` or `#` (a relative URL), or one of the
 * protocols, spelled exactly (lower case) before the colon.
 */
import { defaultSchema } from 'rehype-sanitize';

const HTTP = ['http', 'https'];

/** Protocols per kind of URL attribute, as the sanitiser's schema has them. */
export const URL_PROTOCOLS = {
  href: defaultSchema.protocols?.href ?? ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'],
  src: defaultSchema.protocols?.src ?? HTTP,
  /** The link card's `data-url` and `data-image`. */
  data: HTTP,
} as const;

export type UrlKind = keyof typeof URL_PROTOCOLS;

export function sanitiserKeepsUrl(value: unknown, kind: UrlKind): boolean {
  if (value === null || value === undefined || value === '') return true;
  const url = String(value);
  const colon = url.indexOf(':');
  const questionMark = url.indexOf('?');
  const numberSign = url.indexOf('#');
  const slash = url.indexOf('/');
  if (colon < 0 || (slash > -1 && colon > slash) || (questionMark > -1 && colon > questionMark) || (numberSign > -1 && colon > numberSign)) return true;
  return URL_PROTOCOLS[kind].some((protocol) => colon === protocol.length && url.slice(0, protocol.length) === protocol);
}
