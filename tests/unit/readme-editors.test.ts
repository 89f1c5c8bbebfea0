/**
 * The README's Editors section names only controls the canvas has (issue 36 point 1): every
 * bold word there (**Publish**, **Restore**...) is the text of a translation the Quire admin
 * pages use, so a button that is renamed or removed (there is no **Edit** and no **Save** any
 * more) fails here until the README follows. Feature names that open a bullet ("- **Offline.**")
 * are headings, not controls.
 */
import fs from 'node:fs';
import path from 'node:path';
import { appDir, sourceFiles } from '../helpers/imports';

const read = (file: string) => fs.readFileSync(path.join(appDir, file), 'utf8');
const ADMIN = 'src/plugins/quire/admin/src';
const translations: Record<string, string> = JSON.parse(read(`${ADMIN}/translations/en.json`));

/** The translation keys the admin pages' code names (a quoted key), and so can show. */
function usedKeys(): Set<string> {
  const code = sourceFiles(ADMIN).filter((file) => /\.tsx?$/.test(file)).map(read).join('\n');
  return new Set(Object.keys(translations).filter((key) => code.includes(`'${key}'`) || code.includes(`"${key}"`)));
}

/** A bold word matches a text when it is that text, placeholders standing for any words, without a closing mark or count. */
function matcher(text: string): RegExp {
  const trimmed = text.replace(/\s*\(\{\w+\}\)$/, '').replace(/[.…:]$/, '');
  const pattern = trimmed.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+');
  return new RegExp(`^${pattern}$`);
}

function editorsSection(): string {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Editors\n');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end);
}

/** The bold words of `text`, less the feature names that open a bullet ("- **Offline.**"). */
function boldControls(text: string): string[] {
  const words: string[] = [];
  for (const found of text.matchAll(/\*\*([^*\n]+)\*\*/g)) {
    const lineStart = text.lastIndexOf('\n', found.index) + 1;
    const heading = /^\s*-\s*$/.test(text.slice(lineStart, found.index)) && found[1].endsWith('.');
    if (!heading && !words.includes(found[1])) words.push(found[1]);
  }
  return words;
}

it('every control the Editors section names is a label of the canvas', () => {
  const labels = [...usedKeys()].map((key) => matcher(translations[key]));
  const controls = boldControls(editorsSection());
  expect(controls.length).toBeGreaterThan(10);
  expect(controls.filter((word) => !labels.some((label) => label.test(word)))).toEqual([]);
});

it('the check catches a control the canvas does not have', () => {
  const labels = [...usedKeys()].map((key) => matcher(translations[key]));
  const missing = boldControls('Click **Edit**, then **Save**; **Publish**.').filter((word) => !labels.some((label) => label.test(word)));
  expect(missing).toEqual(['Edit', 'Save']);
});

it('the Editors section describes the live canvas', () => {
  const section = editorsSection();
  for (const feature of ['Live editing', 'Autosave', 'Two people at once', 'Agents write inside your section', 'Undo across the article', 'Presence', 'Offline', 'A section deleted under you', 'Suggestions in place', 'History']) {
    expect(section).toContain(`- **${feature}.**`);
  }
  expect(section).toMatch(/within 2 seconds/);
});
