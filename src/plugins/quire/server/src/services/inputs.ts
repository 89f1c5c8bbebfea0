import { createArticleInput, createNoteInput, LIMITS } from '../schemas/inputs';

/**
 * The article API's input schemas, for other plugins: the triggers plugin's article actions
 * check their payloads with them (same limits, same messages) through
 * `strapi.plugin('quire').service('inputs')`, never by importing this plugin's files.
 */
export default () => ({
  createArticle: createArticleInput,
  createNote: createNoteInput,
  limits: LIMITS,
});
