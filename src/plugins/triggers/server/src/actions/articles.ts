import { z } from 'zod';
import type { ActionDefinition } from './types';
import { noConfig, parseAt } from './schema';

/**
 * Actions on the article service of the quire plugin, done as the instance's owner; a note
 * written this way is `createdBy: agent`. Input problems are refused when the trigger arrives.
 */

const importInput = z.object({
  title: z.string().trim().min(1, 'must not be empty'),
  markdown: z.string(),
  premise: z.string().optional(),
});

const noteInput = z.object({
  articleId: z.string().min(1, 'must not be empty'),
  kind: z.string().min(1, 'must not be empty'),
  title: z.string().min(1, 'must not be empty'),
  body: z.string().optional(),
  url: z.string().optional(),
});

export const articleImport: ActionDefinition = {
  parseConfig: noConfig,
  parseInput: (input) => parseAt('payload', importInput, input, 'Send {"payload": {"title": "...", "markdown": "..."}}.'),
  async run(input, { strapi, userId }) {
    const { title, markdown, premise } = importInput.parse(input);
    const created = await strapi.plugin('quire').service('articles').create(userId, { title, markdown, ...(premise !== undefined ? { premise } : {}) });
    return { articleId: created.article.id };
  },
};

export const articleNote: ActionDefinition = {
  parseConfig: noConfig,
  parseInput: (input) =>
    parseAt('payload', noteInput, input, 'Send {"payload": {"articleId": "...", "kind": "...", "title": "..."}}.'),
  async run(input, { strapi, userId }) {
    const { articleId, ...note } = noteInput.parse(input);
    const created = await strapi.plugin('quire').service('notes').create(userId, articleId, note, { createdBy: 'agent' });
    return { articleId, noteId: created.note.id };
  },
};
