import { AsyncLocalStorage } from 'node:async_hooks';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import sharp from 'sharp';
import { quireConfig } from './config';

/**
 * How Quire bends Strapi's upload plugin (called from our register and bootstrap):
 *
 * 1. Our raw-body `POST /api/upload` replaces the plugin's multipart content-api route at the
 *    same path, which is removed here (the other upload content-api routes stay).
 * 2. Uploaded files get an owner: a private `userId` column on `plugin::upload.file`, set on
 *    insert for uploads made through our route.
 * 3. A pixel limit before any decode, for every upload (the admin's Media Library included):
 *    the plugin's `isImage`, which runs before its full decode (`isFaultyImage`), thumbnail and
 *    responsive formats, refuses images over UPLOAD_MAX_PIXELS in total (all frames counted).
 * 4. For our route only: the stored name is the one we generated (never derived from
 *    x-filename), the bytes are stored as checked (no re-encoding "optimisation"), and no
 *    responsive copies are made (only the original and the Media Library's thumbnail).
 */

export const FILE_UID = 'plugin::upload.file';

/** Set while our route stores a file; the plugin's hooks below read it. */
export const uploadContext = new AsyncLocalStorage<{ hash: string; userId: number }>();

async function pixelCount(file: { filepath?: string; getStream?: () => NodeJS.ReadableStream }, limit: number) {
  const options = { limitInputPixels: limit, animated: true };
  if (file.filepath) return sharp(file.filepath, options).metadata();
  const pipeline = sharp(options);
  file.getStream?.().pipe(pipeline);
  return pipeline.metadata();
}

export function extendUploadPlugin(strapi: Core.Strapi) {
  const upload = strapi.plugin('upload');
  const contentApi = upload.routes['content-api'] as unknown as { routes: Array<{ method: string; path: string }> };
  contentApi.routes = contentApi.routes.filter((r) => !(r.method === 'POST' && r.path === '/'));

  strapi.get('content-types').extend(FILE_UID, (contentType: any) => {
    contentType.attributes.userId = { type: 'integer', configurable: false, private: true };
    // Uploads are listed and checked by owner; schema sync creates the index (see content-types).
    contentType.indexes = [...(contentType.indexes ?? []), { name: 'files_user_id_idx', columns: ['user_id'] }];
  });

  const limit = quireConfig(strapi).uploadMaxPixels;
  strapi.get('services').extend('plugin::upload.image-manipulation', (service: any) => ({
    ...service,
    async isImage(file: any) {
      const image = await service.isImage(file);
      if (image) {
        try {
          await pixelCount(file, limit);
        } catch (error) {
          if (/pixel limit/i.test(String((error as Error)?.message))) {
            throw new errors.ApplicationError(`The image has more than ${limit} pixels (all frames counted).`);
          }
          throw error;
        }
      }
      return image;
    },
    async optimize(file: any) {
      return uploadContext.getStore() ? file : service.optimize(file);
    },
    // Our API answers with the original only: no large/medium/small copies to compute and store
    // (the Media Library still gets its thumbnail).
    async generateResponsiveFormats(file: any) {
      return uploadContext.getStore() ? [] : service.generateResponsiveFormats(file);
    },
    generateFileName(name: string) {
      return uploadContext.getStore()?.hash ?? service.generateFileName(name);
    },
  }));
}

export function subscribeUploadOwner(strapi: Core.Strapi) {
  strapi.db.lifecycles.subscribe({
    models: [FILE_UID],
    beforeCreate(event: any) {
      const context = uploadContext.getStore();
      if (context) event.params.data.userId = context.userId;
    },
  });
}
