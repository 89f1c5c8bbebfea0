import type { Core } from '@strapi/strapi';
import { extendUploadPlugin } from './upload-extension';

export default ({ strapi }: { strapi: Core.Strapi }) => {
  extendUploadPlugin(strapi);
};
