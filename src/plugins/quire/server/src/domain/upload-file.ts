import type { Readable } from 'node:stream';
import { readCapped } from '#kernel/capped-stream';
// file-type/core: the buffer API, without the Node file helpers (whose export map Jest cannot resolve).
import { fileTypeFromBuffer } from 'file-type/core';
import sharp from 'sharp';
import { invalidArgument } from '#kernel/errors';
import { sanitizeUploadedSvg } from './svg';

/**
 * Checks of an uploaded image, before anything is stored: the declared type, the size (counted
 * while reading), the first bytes against the declared type, SVG sanitising, and a pixel limit
 * applied before any full decode (a small file can be a huge image).
 */

export const UPLOAD_MAX_BYTES = 4_500_000;
export const DEFAULT_MAX_PIXELS = 40_000_000;

/** The six accepted types and the extension a stored file of each type gets. */
export const UPLOAD_TYPES: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/svg+xml': '.svg',
};

const TYPE_LIST = Object.keys(UPLOAD_TYPES).join(', ');
const NEXT_TYPE = `Send the raw file as the body with Content-Type set to one of: ${TYPE_LIST}.`;
const KNOWN_EXTENSIONS = /\.(png|jpe?g|jfif|gif|webp|avif|svgz?)$/i;

/** The declared media type, if it is one we accept; throws 400 otherwise. */
export function acceptedType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!type) throw invalidArgument('Content-Type is required: it must be the image type of the body.', NEXT_TYPE);
  if (!UPLOAD_TYPES[type]) throw invalidArgument(`Content-Type ${type} is not an accepted image type (${TYPE_LIST}).`, NEXT_TYPE);
  return type;
}

/** Refuses a declared Content-Length over the limit before reading anything. */
export function checkDeclaredLength(contentLength: string | undefined, max = UPLOAD_MAX_BYTES) {
  if (contentLength && /^\d+$/.test(contentLength) && Number(contentLength) > max) throw tooLarge(max);
}

export const tooLarge = (max = UPLOAD_MAX_BYTES) =>
  invalidArgument(`The file is larger than the limit of ${max.toLocaleString('en-US')} bytes (4.5 MB).`, 'Send a smaller image.');

/** The upload body, refused one byte past `max` (see readCapped). */
export function readBody(stream: Readable, max = UPLOAD_MAX_BYTES): Promise<Buffer> {
  return readCapped(stream, max, () => tooLarge(max));
}

/**
 * The `x-filename` header as a display name: decoded (percent-encoding or raw UTF-8), reduced
 * to its last path segment, stripped of control and reserved characters, capped, and given the
 * extension of the real type. It is only ever shown, never used as a path.
 */
export function displayName(header: string | undefined, type: string): string {
  const ext = UPLOAD_TYPES[type];
  let name = header ?? '';
  const utf8 = Buffer.from(name, 'latin1').toString('utf8');
  if (!utf8.includes('\uFFFD')) name = utf8;
  if (/%[0-9a-f]{2}/i.test(name)) {
    try {
      name = decodeURIComponent(name);
    } catch {
      /* keep it as sent */
    }
  }
  name = name.split(/[/\\]/).pop() ?? '';
  name = name
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .replace(KNOWN_EXTENSIONS, '')
    .replace(/[\s.]+$/g, '');
  if (name.length > 200) name = name.slice(0, 200).trimEnd();
  return `${name || 'image'}${ext}`;
}

export interface CheckedImage {
  /** The bytes to store: the body itself, or the sanitised SVG. */
  bytes: Buffer;
  mime: string;
  ext: string;
  width: number | null;
  height: number | null;
}

const TYPE_NAMES: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
  'image/avif': 'AVIF',
  'image/svg+xml': 'SVG',
};

/**
 * Image dimensions, refusing images over `maxPixels` in total (all frames of an animation
 * counted) before anything decodes their pixels. sharp reads only headers here, and enforces
 * the same limit itself.
 */
export async function checkPixels(
  input: Buffer | string,
  maxPixels = DEFAULT_MAX_PIXELS,
  { vector = false } = {},
): Promise<{ width: number | null; height: number | null }> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: maxPixels, animated: true }).metadata();
  } catch (error) {
    if (/pixel limit/i.test(String((error as Error).message))) throw tooManyPixels(maxPixels);
    // An SVG without width, height or viewBox has no size for the rasteriser, yet browsers show it.
    if (vector) return { width: null, height: null };
    throw invalidArgument('The file is not a valid image: it could not be decoded.', 'Send an image file that opens in an image viewer.');
  }
  // With `animated`, height is that of all frames stacked; pageHeight is one frame's.
  if ((meta.width ?? 0) * (meta.height ?? 0) > maxPixels) throw tooManyPixels(maxPixels);
  return { width: meta.width ?? null, height: meta.pageHeight ?? meta.height ?? null };
}

const tooManyPixels = (maxPixels: number) =>
  invalidArgument(
    `The image has more than ${maxPixels.toLocaleString('en-US')} pixels (all frames counted).`,
    'Scale the image down before uploading it.',
  );

/** Sanitises SVG text here, on the calling thread; the upload service passes the worker pool's instead. */
const sanitizeSvgHere = async (body: Buffer) => sanitizeUploadedSvg(body);

/**
 * Checks a body against its declared type; throws 400 saying what is wrong. An SVG is replaced
 * by its sanitised text (`sanitize`: 400 for what is not a well-formed SVG).
 */
export async function checkImage(
  body: Buffer,
  type: string,
  maxPixels = DEFAULT_MAX_PIXELS,
  sanitize: (svg: Buffer) => Promise<string> = sanitizeSvgHere,
): Promise<CheckedImage> {
  if (body.length === 0) throw invalidArgument('The file is empty: the request body must be the image.', NEXT_TYPE);
  const ext = UPLOAD_TYPES[type];
  let bytes = body;
  if (type === 'image/svg+xml') {
    bytes = Buffer.from(await sanitize(body), 'utf8');
  } else {
    const detected = await fileTypeFromBuffer(body);
    if (detected?.mime !== type) {
      const what = detected ? `its content is ${detected.mime}` : 'its first bytes are not those of any accepted image type';
      throw invalidArgument(`The file is not a ${TYPE_NAMES[type]} image as Content-Type says: ${what}.`, NEXT_TYPE);
    }
  }
  const vector = type === 'image/svg+xml';
  const { width, height } = await checkPixels(bytes, maxPixels, { vector });
  if (!vector) await decodes(bytes, maxPixels);
  return { bytes, mime: type, ext, width, height };
}

/** A full decode of the first frame, scaled down on the way: a file whose header is fine but whose data is not fails here. */
async function decodes(bytes: Buffer, maxPixels: number) {
  try {
    await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' }).resize(16, 16, { fit: 'inside' }).raw().toBuffer();
  } catch {
    throw invalidArgument('The file is not a valid image: its data is damaged or incomplete.', 'Send an image file that opens in an image viewer.');
  }
}
