/**
 * `global::multipart` (config/middlewares.ts), right after 'strapi::body' (configured with
 * `multipart: false`): multipart bodies are parsed only on the routes that take them, and every
 * file written for a request is removed when the request ends, whatever its answer.
 *
 * Strapi's body parser wrote every file part of any multipart request to the temp directory
 * before routing and authentication, and removed only the part named `files`, only after a
 * success: two 20 MB parts sent to `POST /x` stayed on disk. Here a path not in `paths`
 * answers as if no body was parsed (its bytes are never written), and on a path in `paths` each
 * file formidable begins is recorded (per request, through koa-body's `onFileBegin`) and
 * removed in `finally`, including the parts of a request that failed half way.
 *
 * Config: `routes`, the routes that take multipart, as `METHOD /path` with `:param` for one
 * segment (the admin Media Library's upload, replace and edit routes), and `maxFileSize` in bytes.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import type { Core } from '@strapi/strapi';

// The parser Strapi's own 'strapi::body' uses (koa-body over formidable), for the same answers.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { koaBody } = require('koa-body') as { koaBody: (options: object) => (ctx, next: () => Promise<void>) => Promise<void> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mime = require('mime-types') as { lookup(name: string): string | false };

interface MultipartConfig {
  routes?: string[];
  maxFileSize?: number;
}

/** `POST /upload/files/:id/replace` as a matcher of the method and the path (one trailing slash allowed, as the router does). */
function routeMatcher(route: string): (method: string, path: string) => boolean {
  const [method, pattern] = route.split(' ');
  const segments = pattern.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  const regexp = new RegExp(`^${segments.join('/')}/?$`, 'i');
  return (m, path) => m === method && regexp.test(path);
}

interface ParsedFile {
  filepath: string;
  name?: string;
  originalFilename?: string;
  type?: string;
  mimetype?: string;
}

/** Strapi's body parser guesses a missing type from the name (the Media Library relies on it). */
function ensureType(file: ParsedFile) {
  if (!file.type) file.type = mime.lookup(file.name ?? file.originalFilename ?? '') || 'application/octet-stream';
}

export default (config: MultipartConfig, _ctx: { strapi: Core.Strapi }) => {
  const routes = (config.routes ?? []).map(routeMatcher);
  const maxFileSize = config.maxFileSize ?? 200 * 1024 * 1024;

  return async (ctx, next) => {
    if (!ctx.is('multipart') || !routes.some((matches) => matches(ctx.method, ctx.path))) return next();
    const written: string[] = [];
    const removeWritten = () => Promise.all(written.map((file) => fs.rm(file, { force: true })));
    try {
      try {
        await koaBody({
          multipart: true,
          patchKoa: true,
          formidable: { uploadDir: os.tmpdir(), maxFileSize, onFileBegin: (_name: string, file: ParsedFile) => void written.push(file.filepath) },
        })(ctx, async () => {});
      } catch (error) {
        if (error instanceof Error && error.message.includes('maxFileSize') && error.message.includes('exceeded')) {
          return ctx.payloadTooLarge('FileTooBig');
        }
        throw error;
      }
      const files = ctx.request.files?.files;
      for (const file of Array.isArray(files) ? files : files ? [files] : []) ensureType(file);
      await next();
    } finally {
      await removeWritten();
      delete ctx.request.files;
    }
  };
};
