import { route } from './define';

// Replaces the upload plugin's multipart POST /api/upload (removed in upload-extension.ts).
export default [route('POST', '/upload', 'upload.create')];
