export default [
  // Before the logger, which logs ctx.url: takes ?api_key= (a trigger credential) out of the URL.
  'plugin::triggers.redactQuery',
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  // Before the body parser, so malformed JSON under our prefixes answers in our envelope.
  'plugin::quire.envelope',
  // Before the body parser: keeps the raw bytes of trigger requests (signatures cover them), 1 MiB cap.
  'plugin::triggers.rawBody',
  { name: 'strapi::body', config: { jsonLimit: '5mb', textLimit: '5mb', formLimit: '1mb' } },
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
