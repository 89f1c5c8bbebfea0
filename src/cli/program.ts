import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { examples } from './action';
import { registerArticles } from './commands/articles';
import { registerAuth } from './commands/auth';
import { registerBrief, registerNotes } from './commands/brief';
import { registerKeys } from './commands/keys';
import { registerMedia } from './commands/media';
import { registerSections } from './commands/sections';

function version(): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

const ROOT_HELP = `
Environment:
  QUIRE_URL         the server's base URL (default: the last one logged in to, else http://127.0.0.1:1337)
  QUIRE_API_KEY     an API key to use instead of the saved login (for agents and CI)
  QUIRE_CONFIG_DIR  where the login is saved (default: $XDG_CONFIG_HOME/quire, else ~/.config/quire)

Output:
  Tables and text by default. With --json every command prints the server's envelope unchanged,
  {"success":true,"data":...} or {"success":false,"error":{"code","message","nextAction"}}, on stdout.
  Errors are also described in words on stderr, with the next step to take.

Exit status:
  0 success              4 not-found                       8 login expired or already used
  1 other failure        5 rate-limited                    9 login still waiting (login --resume --once)
  2 invalid argument     6 internal or network error
  3 unauthenticated      7 login denied
${examples([
  'quire login',
  'quire articles create --title "On anchors" draft.md',
  'quire outline <article>',
  'quire sections add <article> part2.md --after 3f2a9c',
  'quire publish <article>',
  'quire import https://example.com/post',
  'QUIRE_API_KEY=qk_... quire articles list --json',
])}
See docs/cli.md for every command.`;

/** The whole command tree. Errors surface to main() (exitOverride) instead of exiting here. */
export function buildProgram(): Command {
  const program = new Command('quire');
  program
    .description('Quire from the terminal: long-form articles, section by section, for people and agents')
    .version(version(), '-V, --version')
    .option('--url <url>', 'the server\'s base URL (overrides QUIRE_URL and the saved default)')
    .option('--json', 'print the server\'s JSON envelope unchanged (for scripts and agents)')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .showSuggestionAfterError()
    .addHelpText('after', ROOT_HELP);

  registerAuth(program);
  registerArticles(program);
  registerSections(program);
  registerBrief(program);
  registerNotes(program);
  registerKeys(program);
  registerMedia(program);
  return program;
}
