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

  /**
   * An error: its envelope on stdout under --json (the server's, unchanged); on stderr, in
   * words, what went wrong and what to run next, in the CLI's own commands and flags.
   */
  error(error: CliError): void {
    if (this.json) this.out(error.envelopeText());
    const { message, next } = error.spoken ?? { message: error.message, next: error.nextAction };
    const lines = [`Error: ${message} (${error.code})`];
    if (error.matches?.length) lines.push('It matches:', ...error.matches.map((line) => `  ${line}`));
    if (next) lines.push(`Next: ${next}`);
    this.info(lines.join('\n'));
  }
}

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

/**
 * The CLI's one time format for people: the server's ISO-8601 time in the local time zone (or
 * `timeZone`), "2026-11-22 19:05". --json keeps the server's ISO-8601 UTC strings.
 */
export function when(iso: string | Date | null | undefined, timeZone?: string): string {
  if (!iso) return '-';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** Keeps one line of text to a length, for table cells. */
export function clip(text: string | null | undefined, max = 60): string {
  const line = String(text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
