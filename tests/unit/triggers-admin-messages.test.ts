/**
 * The trigger panel's messages: every `m('id', 'Default text')` of its admin code is in
 * translations/en.json with the same text, so translators see what the page shows.
 */
import fs from 'node:fs';
import path from 'node:path';

const ADMIN = path.resolve(__dirname, '..', '..', 'src', 'plugins', 'triggers', 'admin', 'src');
const CALL = /\bm\(\s*'([^']+)',\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

it('en.json holds every message of the trigger panel, with its default text', () => {
  const en = JSON.parse(fs.readFileSync(path.join(ADMIN, 'translations', 'en.json'), 'utf8'));
  const used = new Map<string, string>();
  for (const file of sources(ADMIN)) {
    for (const [, id, quoted] of fs.readFileSync(file, 'utf8').matchAll(CALL)) used.set(id, quoted.slice(1, -1).replace(/\\'/g, "'"));
  }
  expect(used.size).toBeGreaterThan(50);
  const mismatched = [...used].filter(([id, text]) => en[id] !== text).map(([id, text]) => ({ id, text, en: en[id] }));
  expect(mismatched).toEqual([]);
});
