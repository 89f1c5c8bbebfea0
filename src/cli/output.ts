import { CliError } from './errors';
import type { CallResult } from './client';

/** Writes results to stdout and everything else (progress, hints, errors) to stderr. */
export class Output {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {}

  /** A command's result: the server's envelope verbatim under --json, the readable form otherwise. */
  result(call: CallResult, human: () => string): void {
    this.out(this.json ? call.text : human());
  }

  /** A result the CLI composed itself (login, logout), in the same envelope shape. */
  composed(data: unknown, human: () => string): void {
    this.out(this.json ? JSON.stringify({ success: true, data }) : human());
  }

  out(text: string): void {
    if (text) this.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }

  info(text: string): void {
    this.stderr.write(text.endsWith('\n') ? text : text + '\n');
  }

  /** An error: its envelope on stdout under --json; its message and next step in words on stderr. */
  error(error: CliError): void {
    if (this.json) this.out(error.envelopeText());
    const lines = [`Error: ${error.message} (${error.code})`];
    if (error.nextAction) lines.push(`Next: ${error.nextAction}`);
    // The server's nextAction speaks of HTTP routes; add the terminal's way of doing it.
    const hint = error.body !== undefined ? HINTS[error.code] : undefined;
    if (hint) lines.push(`Hint: ${hint}`);
    this.info(lines.join('\n'));
  }
}

/** What to do at the terminal, added to the server's nextAction (which speaks of HTTP routes). */
const HINTS: Record<string, string> = {
  unauthenticated: 'log in with "quire login", or pass a key with "quire login --key -" or QUIRE_API_KEY.',
  'not-found': '"quire articles list" and "quire outline <article>" show the ids and anchors you can use.',
  'rate-limited': 'wait, then run the command again.',
  internal: 'run the command again in a moment; if it keeps failing, report it.',
};

/** A plain text table: columns padded to their widest cell, the last one left ragged. */
export function table(headers: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell == null ? '' : String(cell))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => displayWidth(row[i] ?? ''))));
  return cells
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - displayWidth(cell))))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Columns a string takes in a terminal: wide (CJK) characters count twice. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    width += code >= 0x1100 && /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}|[\u3000-\u303f\uff00-\uffef]/u.test(ch) ? 2 : 1;
  }
  return width;
}

/** ISO timestamps, shortened for people: "2026-11-22 18:05" (UTC). */
export function when(iso: string | null | undefined): string {
  if (!iso) return '-';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 16).replace('T', ' ');
}

/** Keeps one line of text to a length, for table cells. */
export function clip(text: string | null | undefined, max = 60): string {
  const line = String(text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
