/** The app's title and description in its API description (/api/openapi.json, docs/openapi.json). */
export const API_INFO = {
  title: 'Quire API',
  description: [
    'Quire: a long-form writing back end for AI agents and human editors, on Strapi 5.',
    '',
    'Every route of ours answers `{"success": true, "data": ...}` or `{"success": false, "error": {"code", "message", "nextAction"?}}`.',
    'Articles are ordered lists of sections addressed by anchors (unique prefixes of their ids); the trigger service starts workflows from signed or keyed webhooks.',
    'Each content-api route is a users-permissions action: a role that lacks it gets 403 `permission-denied` (the operation\'s `x-users-permissions-action`).',
  ].join('\n'),
};
