import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { examples } from './action';
import { registerArticles } from './commands/articles';
import { registerAuth } from './commands/auth';
import { registerBrief, registerNotes } from './commands/brief';
import { registerKeys } from './commands/keys';
import { registerGrants } from './commands/grants';
import { registerMcp } from './commands/mcp';
import { registerMedia } from './commands/media';
import { registerSearch } from './commands/search';
import { registerSections } from './commands/sections';
import { registerHistory } from './commands/history';
import { registerThreads } from './commands/threads';
import { registerChanges } from './commands/changes';

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

Ids and anchors:
  An article is addressed by its id or any unique start of it (4 characters or more, as
  "quire articles list" shows them); a section or note by its anchor ("quire outline").
  In the examples, $ART holds an article id and 3f2a9c is a section's anchor.

Text, files and stdin:
  A [file] argument is always a file; "-" reads stdin. Text options (--premise, --body, the
  words of "brief set") are the text itself: one that is only the name of an existing file is
  refused, and the message names the option that reads the file (--premise-file, --body-file,
  --file).
${examples([
  'quire login',
  'ART=$(quire articles create --title "On anchors" intro.md --json | jq -r .data.article.id)',
  'quire outline "$ART"',
  'quire sections add "$ART" part2.md --after 3f2a9c',
  'quire search "pricing" --in "$ART"',
  'quire publish "$ART"',
  'quire import https://example.com/post',
  'QUIRE_API_KEY=qk_... quire articles list --json',
])}
Every command has its own examples: quire <command> --help. See docs/cli.md for all of them.`;

/** The whole command tree. Errors surface to main() (exitOverride) instead of exiting here. */
export function buildProgram(): Command {
  const program = new Command('quire');
  program
    .description('Quire from the terminal: long-form articles, section by section, for people and agents')
    .version(version(), '-V, --version')
    .option('--url <url>', 'the server\'s base URL (overrides QUIRE_URL and the saved default)')
    .option('--json', 'print the server\'s JSON envelope unchanged (for scripts and agents)')
    .option('--reason <text>', 'why you make this change (at most 500 characters): kept with the change set of every write')
    .option('--run <id>', 'group the change sets of your writes into one run (1-100 characters; QUIRE_RUN too)')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .showSuggestionAfterError()
    .addHelpText('after', ROOT_HELP);

  registerAuth(program);
  registerArticles(program);
  registerSections(program);
  registerHistory(program);
  registerThreads(program);
  registerChanges(program);
  registerBrief(program);
  registerNotes(program);
  registerSearch(program);
  registerKeys(program);
  registerMedia(program);
  registerGrants(program);
  registerMcp(program);
  return program;
}
