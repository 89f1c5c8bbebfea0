export default [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  // Before the body parser, so malformed JSON under our prefixes answers in our envelope.
  'plugin::quire.envelope',
  { name: 'strapi::body', config: { jsonLimit: '5mb', textLimit: '5mb', formLimit: '1mb' } },
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
