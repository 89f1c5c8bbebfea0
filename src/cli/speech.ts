/**
 * The CLI speaks to people in its own terms. The server's messages name JSON fields and its
 * nextActions name HTTP routes ("Call GET /api/keys for your keys."), which suits agents; at a
 * terminal they are told as quire commands and flags ("Next: quire keys list"). Pure code: the
 * command runner (action.ts) applies it to errors; --json still prints the server's envelope
 * byte for byte.
 */

/** How one command takes the API's fields. */
export interface Terms {
  /** API field -> its flag ("--link") or, for an argument, words ("the Markdown"). */
  fields?: Record<string, string>;
  /** API field -> the flag that clears it (the API's "null to clear it"). */
  clear?: Record<string, string>;
  /** API field -> a nextAction of our own, for fields that are arguments rather than flags. */
  next?: Record<string, string>;
}

/** A --cursor the server refused: where the right one is printed. */
const CURSOR_NEXT = (command: string) =>
  `Pass --cursor exactly as the previous page printed it (the line "More: ${command} --cursor …", or "nextCursor" under --json), or leave --cursor out for the first page.`;

const MARKDOWN_FILE = 'Pass a file of Markdown, or "-" and pipe it (it must not be empty).';
const NOTE_FIELDS = { kind: '--kind', title: '--title', body: '--body', url: '--link' };

/** Per command path ("notes add"); `articles import` and the like share their short form's terms. */
const TERMS: Record<string, Terms> = {
  'articles list': { fields: { limit: '--limit', cursor: '--cursor' }, next: { cursor: CURSOR_NEXT('quire articles list') } },
  search: { fields: { limit: '--limit', cursor: '--cursor' }, next: { cursor: CURSOR_NEXT('quire search "…"') } },
  'articles create': { fields: { title: '--title', premise: '--premise', markdown: 'the Markdown' }, next: { markdown: MARKDOWN_FILE } },
  'articles rename': { fields: { title: 'the title' }, next: { title: 'Pass a non-empty title (at most 300 characters) after the article.' } },
  'sections add': { fields: { markdown: 'the Markdown', after: '--after', before: '--before' }, next: { markdown: MARKDOWN_FILE } },
  'sections replace': { fields: { markdown: 'the Markdown', html: 'the HTML' }, next: { markdown: MARKDOWN_FILE, html: 'Pass a file of HTML, or "-" and pipe it.' } },
  'sections move': { fields: { after: '--after', before: '--before' } },
  'brief set': { fields: { premise: 'the premise' }, next: { premise: 'Pass the text, --file F, or pipe it.' } },
  'notes add': { fields: NOTE_FIELDS },
  'notes edit': { fields: NOTE_FIELDS, clear: { body: '--clear-body', url: '--clear-link' } },
  import: {
    fields: { markdown: 'the Markdown', html: 'the HTML', url: 'the URL', title: '--title' },
    next: { url: 'Pass a public http(s) URL.', markdown: 'Pass a Markdown file, or "-" and pipe it.', html: 'Pass an HTML file (or --html), or "-" and pipe it.' },
  },
  unfurl: { fields: { url: 'the URL' }, next: { url: 'Pass a public http(s) URL.' } },
  'keys create': { fields: { name: '--name' } },
};

const ALIASES: Record<string, string> = { 'articles import': 'import', 'articles publish': 'publish', 'articles unpublish': 'unpublish' };

export const termsOf = (command: string): Terms => TERMS[ALIASES[command] ?? command] ?? {};

/** Where the credential came from, which decides what to do about a refused one. */
export type KeySource = 'QUIRE_API_KEY' | 'saved login' | 'none';

const REFUSED_KEY_NEXT: Record<KeySource, string> = {
  QUIRE_API_KEY: 'QUIRE_API_KEY was refused (revoked or unknown here): set it to a valid key, or unset it to use your saved login.',
  'saved login': 'Run quire login again: the saved key was revoked, or this server does not know it.',
  none: 'Run quire login (or quire login --key -), or set QUIRE_API_KEY.',
};

/** Server nextActions that name a route or speak of polling, told as what to run here. */
const ROUTES: Array<[RegExp, (match: RegExpExecArray, source: KeySource) => string]> = [
  [/^Call GET \/api\/articles for your articles\.$/, () => 'quire articles list'],
  [/^Call GET \/api\/articles\/([^/\s]+)\/outline for the current anchors\.$/, (m) => `quire outline ${m[1]}`],
  [/^Pass section anchors as strings, from GET \/api\/articles\/([^/\s]+)\/outline\.$/, (m) => `quire outline ${m[1]}`],
  [/^Call GET \/api\/articles\/([^/\s]+)\/notes for the current anchors\.$/, (m) => `quire notes list ${m[1]}`],
  [/^Call GET \/api\/keys for your keys\.$/, () => 'quire keys list'],
  [
    /^Call GET \/api\/articles\/([^/\s]+)\/sections\/([^/\s]+) for its current version and ETag/,
    (m) => `quire sections get ${m[1]} ${m[2]} --json (its "etag"), merge your change into it, and retry with --if-match`,
  ],
  [/^Call GET \/api\/articles\/([^/\s]+)\/notes\/([^/\s]+) for its current version and ETag/, (m) => `quire notes get ${m[1]} ${m[2]} --json (its "etag"), and retry with --if-match`],
  [/^Call GET \/api\/articles\/([^/\s]+)\/outline for the current outline and its ETag/, (m) => `quire outline ${m[1]}, then retry (with the outline's ETag in --if-match)`],
  [
    /^Wait until a person with write access accepts or rejects some of them \(GET \/api\/articles\/([^/\s]+)\/suggestions\?status=pending/,
    (m) => `Wait until a person with write access accepts or rejects some of them (quire suggestions list ${m[1]} --status pending), then run the command again.`,
  ],
  [/Start again with POST \/api\/cli\/login-request/, () => 'Run quire login again.'],
  [/^Keep polling POST \/api\/cli\/login-complete/, () => 'Approve the login in the browser, then run quire login --resume.'],
  [/^Wait (\d+) seconds, then keep polling/, (m) => `Wait ${m[1]} seconds, then run the command again.`],
  [/^Retry after (\d+) seconds?\.$/, (m) => `Wait ${m[1]} seconds, then run the command again.`],
  [/^Retry with backoff; if it keeps failing, report it\.$/, () => "Run the command again in a moment; if it keeps failing, tell the server's operator."],
  [/^Send "Authorization: Bearer/, (_m, source) => REFUSED_KEY_NEXT[source]],
  [/^Log in again\.$/, () => 'Run quire login again.'],
  [/^Use a longer anchor\.$/, () => 'Use a longer anchor (more of the characters of the one you mean).'],
];

/**
 * Server messages about what only a flag sends, told as that flag. The CLI sends If-Match only
 * from --if-match, so "If-Match is not an entity tag" is that flag's value, shown with the form it takes.
 */
const MESSAGES: Array<[RegExp, (match: RegExpExecArray) => Spoken]> = [
  [
    /^If-Match is not an entity tag \(got (.*)\)\.$/s,
    (m) => ({
      message: `--if-match ${m[1]} is not an ETag.`,
      next: `Pass the ETag exactly as quire printed it ("ETag: …" on stderr, or "etag" under --json), double quotes included: --if-match '"s.3f2a9c51-….2"'. Or --if-match '*' for any version.`,
    }),
  ],
];

export interface Spoken {
  message: string;
  next?: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A server error as this command would say it: fields named as its flags, routes as commands.
 * `fromServer` is false for errors the CLI made itself, which already speak its language.
 */
export function speak(
  error: { message: string; nextAction?: string },
  context: { command: string; keySource: KeySource; fromServer: boolean },
): Spoken {
  if (!context.fromServer) return { message: error.message, next: error.nextAction };
  for (const [pattern, say] of MESSAGES) {
    const match = pattern.exec(error.message);
    if (match) return say(match);
  }
  const terms = termsOf(context.command);
  let message = error.message;
  let field: string | undefined;
  for (const [name, said] of Object.entries(terms.fields ?? {})) {
    const match = new RegExp(`^${escape(name)}(: | )`).exec(message);
    if (!match) continue;
    field = name;
    const rest = message.slice(match[0].length);
    // "url: The URL points to..." reads well without its field; "url must be..." needs it.
    message = match[1] === ': ' && /^[A-Z]/.test(rest) ? rest : `${said.startsWith('--') ? said : capitalise(said)}${match[1]}${rest}`;
    break;
  }
  return { message, next: translateNext(error.nextAction, terms, field, context.keySource) };
}

function translateNext(next: string | undefined, terms: Terms, field: string | undefined, source: KeySource): string | undefined {
  if (!next) return undefined;
  for (const [pattern, say] of ROUTES) {
    const match = pattern.exec(next);
    if (match) return say(match, source);
  }
  if (field && terms.next?.[field]) return terms.next[field];
  let text = next;
  for (const [name, said] of Object.entries(terms.fields ?? {})) {
    if (!said.startsWith('--')) continue;
    const clear = terms.clear?.[name];
    text = text
      .replace(new RegExp(`"${escape(name)}"`, 'g'), said)
      .replace(new RegExp(`\\b(Pass|pass|of|or) ${escape(name)}\\b`, 'g'), `$1 ${said}`)
      .replace(new RegExp(`(${escape(said)}[^.]*?), or null(?: \\(or ""\\))? to clear it`), clear ? `$1, or ${clear} to remove it` : '$1');
  }
  return text.replace(/(--[a-z-]+) string\b/g, '$1');
}
