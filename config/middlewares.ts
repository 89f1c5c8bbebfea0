/** Where S3 uploads are served from, so the admin panel may show them (its CSP is 'self' otherwise). */
function uploadOrigins(env): string[] {
  if (env('UPLOAD_PROVIDER', 'local') !== 'aws-s3') return [];
  const bucket = env('S3_BUCKET', '');
  const region = env('S3_REGION', 'us-east-1');
  const explicit = [env('S3_BASE_URL', ''), env('S3_ENDPOINT', '')].filter(Boolean).map((url) => {
    try {
      return new URL(url).origin;
    } catch {
      return '';
    }
  });
  return [...explicit.filter(Boolean), `https://${bucket}.s3.${region}.amazonaws.com`, `https://${bucket}.s3.amazonaws.com`];
}

export default ({ env }) => {
  const origins = uploadOrigins(env);
  return [
    'strapi::logger',
    'strapi::errors',
    origins.length
      ? {
          name: 'strapi::security',
          config: {
            contentSecurityPolicy: {
              useDefaults: true,
              directives: {
                'img-src': ["'self'", 'data:', 'blob:', 'market-assets.strapi.io', ...origins],
                'media-src': ["'self'", 'data:', 'blob:', 'market-assets.strapi.io', ...origins],
              },
            },
          },
        }
      : 'strapi::security',
    // nosniff and a sandboxing CSP on files served from /uploads.
    'plugin::quire.uploadHeaders',
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
};
