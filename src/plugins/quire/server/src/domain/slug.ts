import slugifyText from 'slugify';

const MAX_SLUG_LENGTH = 80;

/** A URL slug from a title: lowercase ASCII words joined by dashes, never empty. */
export function slugFromTitle(title: string): string {
  const slug = slugifyText(title, { lower: true, strict: true, trim: true })
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
  return slug || 'article';
}

/** The first of `base`, `base-2`, `base-3`... not taken. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
