import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import type { ActionDefinition } from './types';
import { noConfig, parseAt } from './schema';
import { quireService } from '../quire';

/**
 * Actions on the article service of the quire plugin, done as the instance's owner; a note
 * written this way is `createdBy: agent`. The inputs are the article API's own schemas (same
 * limits, same messages), which the quire plugin lends through its `inputs` service, and are
 * checked when the trigger arrives, so a bad one is a 400.
 */

/** The article API's schemas of a new article and note, extended for these actions. */
function build(strapi: Core.Strapi) {
  const inputs = quireService(strapi, 'inputs');
  const max = inputs.limits.markdown;
  return {
    importInput: inputs.createArticle.extend({
      markdown: z.string().max(max, `must be at most ${max.toLocaleString('en')} characters`),
    }),
    noteInput: inputs.createNote.extend({
      articleId: z.string().min(1, 'must not be empty').max(100, 'is too long'),
    }),
  };
}

const schemasByApp = new WeakMap<Core.Strapi, ReturnType<typeof build>>();

function schemas(strapi: Core.Strapi) {
  let found = schemasByApp.get(strapi);
  if (!found) {
    found = build(strapi);
    schemasByApp.set(strapi, found);
  }
  return found;
}

export const articleImport: ActionDefinition = {
  description: 'Creates an article for the instance\'s owner from {title, markdown, premise?}. No config.',
  configExample: {},
  inputExample: { title: 'A test article', markdown: '# Hello\n\nSent from the trigger panel.' },
  parseConfig: noConfig,
  parseInput: (input, { strapi }) =>
    parseAt('payload', schemas(strapi).importInput, input, 'Send {"payload": {"title": "...", "markdown": "...", "premise"?: "..."}}.'),
  async run(input, { strapi, userId }) {
    const { title, markdown, premise } = schemas(strapi).importInput.parse(input);
    const created = await quireService(strapi, 'articles').createArticle(userId, { title, markdown, premise });
    return { articleId: created.article.id };
  },
};

export const articleNote: ActionDefinition = {
  description: 'Adds a note {articleId, kind, title, body?, url?} to one of the owner\'s articles. No config.',
  configExample: {},
  inputExample: { articleId: 'replace-with-an-article-id', kind: 'idea', title: 'Sent from the trigger panel' },
  parseConfig: noConfig,
  parseInput: (input, { strapi }) =>
    parseAt(
      'payload',
      schemas(strapi).noteInput,
      input,
      'Send {"payload": {"articleId": "...", "kind": "source|decision|idea|question", "title": "...", "body"?: "...", "url"?: "..."}}.',
    ),
  async run(input, { strapi, userId }) {
    const { articleId, ...note } = schemas(strapi).noteInput.parse(input);
    const created = await quireService(strapi, 'notes').add(userId, articleId, note, 'agent');
    return { articleId, anchor: created.note.anchor };
  },
};
