import { createArticleInput } from '../schemas/inputs/articles';
import { createNoteInput } from '../schemas/inputs/notes';
import { LIMITS } from '../schemas/inputs/shared';
import { getService } from './get-service';

/**
 * The article API's input schemas, for other plugins: the triggers plugin's article actions
 * check their payloads with them (same limits, same messages) through
 * `getService(strapi, 'inputs')`, never by importing this plugin's files.
 */
export default () => ({
  createArticle: createArticleInput,
  createNote: createNoteInput,
  limits: LIMITS,
});
