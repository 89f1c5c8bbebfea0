/**
 * Uploads: the local provider (public/uploads, served by Strapi) by default, or any S3 or
 * S3-compatible bucket with UPLOAD_PROVIDER=aws-s3 and the S3_* variables (README).
 */
export function uploadConfig(env) {
  const provider = env('UPLOAD_PROVIDER', 'local');
  if (provider === 'local') return { provider: 'local' };
  if (provider !== 'aws-s3') throw new Error(`UPLOAD_PROVIDER must be "local" or "aws-s3" (got "${provider}").`);
  const bucket = env('S3_BUCKET');
  if (!bucket) throw new Error('UPLOAD_PROVIDER=aws-s3 needs S3_BUCKET.');
  const accessKeyId = env('S3_ACCESS_KEY_ID');
  const secretAccessKey = env('S3_SECRET_ACCESS_KEY');
  const baseUrl = env('S3_BASE_URL', '');
  if (baseUrl && !/^https?:\/\/[^/]/i.test(baseUrl)) throw new Error(`S3_BASE_URL must be an absolute http(s) URL (got "${baseUrl}").`);
  // "none" sends no ACL header (buckets with ACLs disabled, Cloudflare R2); objects must be public another way.
  const acl = env('S3_ACL', 'public-read');
  return {
    provider: 'aws-s3',
    providerOptions: {
      baseUrl: baseUrl || undefined,
      rootPath: env('S3_ROOT_PATH') || undefined,
      s3Options: {
        region: env('S3_REGION', 'us-east-1'),
        endpoint: env('S3_ENDPOINT') || undefined,
        forcePathStyle: env.bool('S3_FORCE_PATH_STYLE', false),
        // Without keys the AWS SDK's default chain applies (instance role, AWS_* variables).
        ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
        params: { Bucket: bucket, ACL: acl === 'none' ? undefined : acl },
      },
    },
  };
}

export default ({ env }) => ({
  quire: { enabled: true, resolve: './src/plugins/quire' },
  triggers: { enabled: true, resolve: './src/plugins/triggers' },
  upload: { config: uploadConfig(env) },
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET'),
      jwt: { expiresIn: env('JWT_EXPIRES_IN', '30d') },
      // Login and registration are rate limited per IP and identifier by users-permissions.
      ratelimit: {
        enabled: env.bool('AUTH_RATELIMIT_ENABLED', true),
        interval: env.int('AUTH_RATELIMIT_INTERVAL_MS', 60000),
        max: env.int('AUTH_RATELIMIT_MAX', 10),
      },
    },
  },
});
