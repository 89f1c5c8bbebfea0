import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Core } from '@strapi/strapi';
import { ApiError, invalidArgument } from '#kernel/errors';
import { acceptedType, checkDeclaredLength, checkImage, displayName, readBody, type CheckedImage } from '../domain/upload-file';
import { publicUrl } from '#kernel/config';
import { uploadContext } from '../upload-extension';
import { quireConfig } from '../config';
import type { UploadedImage } from '../schemas/records';
import { getService } from './get-service';

export interface UploadHeaders {
  contentType?: string;
  contentLength?: string;
  contentEncoding?: string;
  filename?: string;
}

export type { UploadedImage };

/**
 * Hosts images for articles: checks the raw body, then stores it through Strapi's upload
 * plugin (so it shows in the Media Library, in the "API Uploads" folder, owned by the caller)
 * with the configured provider (local folder or S3).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const pixels = quireConfig(strapi).uploadMaxPixels;

  /** Provider URLs are relative for the local provider (/uploads/...), absolute for S3. */
  function absoluteUrl(url: string): string {
    if (/^https?:\/\//i.test(url)) return url;
    const base = publicUrl(strapi);
    return `${base}${url.startsWith('/') ? '' : '/'}${url}`;
  }

  return {
    /** Reads, checks and stores the body of `POST /api/upload`. */
    async fromRequest(userId: number, body: Readable, headers: UploadHeaders): Promise<UploadedImage> {
      const type = acceptedType(headers.contentType);
      const encoding = (headers.contentEncoding ?? '').trim().toLowerCase();
      if (encoding && encoding !== 'identity') {
        throw invalidArgument(`Content-Encoding ${encoding} is not accepted: send the file itself.`, 'Send the raw, uncompressed file.');
      }
      checkDeclaredLength(headers.contentLength);
      const bytes = await readBody(body);
      // SVG is sanitised with jsdom, which is slow for hostile documents: in the worker pool.
      const image = await checkImage(bytes, type, pixels, (svg) => getService(strapi, 'workers').sanitizeSvg(svg));
      return this.store(userId, image, displayName(headers.filename, type));
    },

    /** Stores a checked image under a generated name and returns its public description. */
    async store(userId: number, image: CheckedImage, name: string): Promise<UploadedImage> {
      const hash = randomBytes(16).toString('hex');
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-upload-'));
      try {
        const filepath = path.join(dir, `${hash}${image.ext}`);
        await fs.writeFile(filepath, image.bytes);
        const folder = await strapi.plugin('upload').service('api-upload-folder').getAPIUploadFolder();
        const [file] = await uploadContext.run({ hash, userId }, () =>
          strapi
            .plugin('upload')
            .service('upload')
            .upload(
              {
                data: { fileInfo: { name, folder: folder.id } },
                files: { filepath, originalFilename: `upload${image.ext}`, mimetype: image.mime, size: image.bytes.length },
              },
              {},
            ),
        );
        return {
          url: absoluteUrl(file.url),
          name: file.name,
          mime: file.mime,
          size: image.bytes.length,
          width: file.width ?? image.width,
          height: file.height ?? image.height,
        };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        strapi.log.error(`upload failed: ${(error as Error)?.stack ?? error}`);
        throw new ApiError('internal', 'The image could not be stored.', 'Retry with backoff; if it keeps failing, report it.', { status: 500 });
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  };
};
