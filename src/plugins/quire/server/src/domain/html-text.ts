import iconv from 'iconv-lite';

/**
 * Turns the bytes of an HTML page into text, in the order browsers use: a byte-order mark,
 * then the charset of the Content-Type header, then a `<meta charset>` (or http-equiv) in the
 * first bytes, then UTF-8. Unknown labels fall back to UTF-8.
 */

// WHATWG Encoding: these labels mean windows-1252 in HTML.
const WINDOWS_1252 = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'latin1', 'l1', 'us-ascii', 'ascii', 'cp819', 'ibm819']);
const META_SCAN_BYTES = 4096;

function normalizeLabel(label: string | undefined | null): string | undefined {
  if (!label) return undefined;
  const name = label.trim().replace(/^["']|["']$/g, '').toLowerCase();
  if (!name) return undefined;
  if (WINDOWS_1252.has(name)) return 'windows-1252';
  return iconv.encodingExists(name) ? name : undefined;
}

export function charsetFromContentType(contentType: string | undefined | null): string | undefined {
  const match = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/i.exec(contentType ?? '');
  return normalizeLabel(match?.[1]);
}

export function charsetFromMeta(head: Buffer): string | undefined {
  const text = head.subarray(0, META_SCAN_BYTES).toString('latin1');
  const direct = /<meta[^>]*?\scharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(text);
  if (direct) return normalizeLabel(direct[1]);
  const equiv = /<meta[^>]*?content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(text);
  return normalizeLabel(equiv?.[1]);
}

function bomCharset(body: Buffer): { charset: string; skip: number } | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', skip: 3 };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', skip: 2 };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', skip: 2 };
  return undefined;
}

export function decodeHtml(body: Buffer, contentType?: string | null): string {
  const bom = bomCharset(body);
  if (bom) return iconv.decode(body.subarray(bom.skip), bom.charset);
  let charset = charsetFromContentType(contentType) ?? charsetFromMeta(body) ?? 'utf-8';
  // A page that claims UTF-16 without a byte-order mark is ASCII-compatible in practice (WHATWG).
  if (charset.startsWith('utf-16')) charset = 'utf-8';
  return iconv.decode(body, charset);
}
