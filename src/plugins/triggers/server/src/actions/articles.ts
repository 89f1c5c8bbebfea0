import { z } from 'zod';
import { createArticleInput, createNoteInput, LIMITS } from '../../../../quire/server/src/controllers/inputs';
import type { ActionDefinition } from './types';
import { noConfig, parseAt } from './schema';

/**
 * Actions on the article service of the quire plugin, done as the instance's owner; a note
 * written this way is `createdBy: agent`. The inputs are the article API's own schemas (same
 * limits, same messages) and are checked when the trigger arrives, so a bad one is a 400.
 */

const importInput = createArticleInput.extend({
  markdown: z.string().max(LIMITS.markdown, `must be at most ${LIMITS.markdown.toLocaleString('en')} characters`),
});

const noteInput = createNoteInput.extend({
  articleId: z.string().min(1, 'must not be empty').max(100, 'is too long'),
});

export const articleImport: ActionDefinition = {
  parseConfig: noConfig,
  parseInput: (input) => parseAt('payload', importInput, input, 'Send {"payload": {"title": "...", "markdown": "...", "premise"?: "..."}}.'),
  async run(input, { strapi, userId }) {
    const { title, markdown, premise } = importInput.parse(input);
    const created = await strapi.plugin('quire').service('articles').createArticle(userId, { title, markdown, premise });
    return { articleId: created.article.id };
  },
};

export const articleNote: ActionDefinition = {
  parseConfig: noConfig,
  parseInput: (input) =>
    parseAt('payload', noteInput, input, 'Send {"payload": {"articleId": "...", "kind": "source|decision|idea|question", "title": "...", "body"?: "...", "url"?: "..."}}.'),
  async run(input, { strapi, userId }) {
    const { articleId, ...note } = noteInput.parse(input);
    const created = await strapi.plugin('quire').service('notes').add(userId, articleId, note, 'agent');
    return { articleId, anchor: created.note.anchor };
  },
};
