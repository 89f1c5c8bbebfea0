import { editsInput } from '../schemas/inputs/edits';
import { editsApplied, suggestionOnly } from '../schemas/responses';
import { articleParams, conditionalWrite, route, WORKER_ERRORS } from './route';

const outlineWrite = conditionalWrite('the outline (GET /api/articles/{id}/outline)');

export const editRoutes = route('edits', 'Atomic edits', {
  apply: {
    method: 'POST',
    path: '/api/articles/:id/edits',
    summary: 'Apply 1 to 100 section operations, all or nothing',
    description:
      'insert, replace, move, delete and replaceText, in order, in one transaction: any failure leaves the article as it was, and its message starts with ops[N] (op). `$N` names the first section op N produced, `$N.K` its K-th. dryRun: the same checks and answer, with diffs, nothing written. A suggest key\'s edits become a suggestion (202), except a dry run, answered 200 like anyone\'s (nothing stored).',
    params: articleParams,
    body: editsInput,
    headers: outlineWrite.headers,
    // A dry run writes nothing: a suggest credential's is answered like anyone's, not filed.
    suggestible: { unless: ({ body }) => Boolean((body as { dryRun?: boolean }).dryRun) },
    responses: { 200: editsApplied, 202: suggestionOnly },
    responseHeaders: { ETag: 'The outline\'s ETag (after the edits; a dry run\'s is the current one).' },
    errors: [...WORKER_ERRORS, ...outlineWrite.errors],
  },
});
