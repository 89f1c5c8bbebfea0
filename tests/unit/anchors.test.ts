import {
  anchorOf,
  anchorsOf,
  matchInSorted,
  MIN_ANCHOR_LENGTH,
  newId,
  normalizeAnchor,
  normalizeId,
  prefixUpperBound,
  resolveAnchor,
  sortIds,
} from '../../src/plugins/quire/server/src/domain/anchors';
import { ApiError } from '../../src/kernel/errors';

const scope = { item: 'section', listRoute: 'GET /api/articles/x/outline' };

describe('ids', () => {
  it('are random lowercase UUID v4', () => {
    const id = newId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(normalizeId(id.toUpperCase())).toBe(id);
    expect(normalizeId('not-a-uuid')).toBeNull();
    expect(normalizeId('0190f5a0-7c2b-7abc-8def-0123456789ab')).toBeNull(); // v7 is not ours
  });
});

describe('normalizeAnchor', () => {
  it('lowercases and accepts any prefix of the UUID layout', () => {
    expect(normalizeAnchor('ABCDEF')).toBe('abcdef');
    expect(normalizeAnchor('a')).toBe('a');
    expect(normalizeAnchor('abcdef12-3')).toBe('abcdef12-3');
    expect(normalizeAnchor('abcdef12-3456-4789-8abc-def012345678')).toBe('abcdef12-3456-4789-8abc-def012345678');
  });

  it('refuses what cannot be a prefix of an id', () => {
    for (const bad of ['', 'xyz', 'abcdef123', 'abc-def', 'abcdef12-3456-4789-8abc-def0123456789', '%', 'abcd ef', 'ａｂｃ']) {
      expect(normalizeAnchor(bad)).toBeNull();
    }
    expect(normalizeAnchor(42)).toBeNull();
  });

  it('has an upper bound above every id with the prefix', () => {
    const ids = Array.from({ length: 500 }, newId);
    for (const id of ids) {
      const prefix = id.slice(0, 3);
      expect(id >= prefix && id < prefixUpperBound(prefix)).toBe(true);
    }
  });
});

describe('anchorOf / anchorsOf', () => {
  it('is the shortest unique prefix, never shorter than six characters', () => {
    expect(anchorOf('abcdef01-0000-4000-8000-000000000000')).toBe('abcdef');
    expect(anchorOf('abcdef01-0000-4000-8000-000000000000', 'abcdee00-0000-4000-8000-000000000000')).toBe('abcdef');
    expect(anchorOf('abcdef01-0000-4000-8000-000000000000', 'abcdef00-0000-4000-8000-000000000000')).toBe('abcdef01');
    expect(anchorOf('abcdef01-0000-4000-8000-000000000000', null, 'abcdef01-1000-4000-8000-000000000000')).toBe('abcdef01-0');
  });

  it('gives each of many ids an anchor that matches it alone', () => {
    const ids = Array.from({ length: 3000 }, newId);
    // Force long shared prefixes too.
    ids.push('12345678-1111-4111-8111-111111111111', '12345678-1111-4111-8111-111111111112', '12345678-1111-4111-9111-111111111111');
    const anchors = anchorsOf(ids);
    const sorted = sortIds(ids);
    for (const id of ids) {
      const anchor = anchors.get(id)!;
      expect(anchor.length).toBeGreaterThanOrEqual(MIN_ANCHOR_LENGTH);
      expect(id.startsWith(anchor)).toBe(true);
      expect(matchInSorted(sorted, anchor)).toEqual({ kind: 'one', id });
      expect(anchor.endsWith('-')).toBe(false);
    }
    expect(anchors.get('12345678-1111-4111-8111-111111111111')).toBe('12345678-1111-4111-8111-111111111111');
    expect(anchors.get('12345678-1111-4111-9111-111111111111')).toBe('12345678-1111-4111-9');
  });
});

describe('resolveAnchor', () => {
  const ids = sortIds(['aaaaaa00-0000-4000-8000-000000000000', 'aaaaab00-0000-4000-8000-000000000000', 'bbbbbb00-0000-4000-8000-000000000000']);

  it('finds the one id a prefix matches, case-insensitively', () => {
    expect(resolveAnchor(ids, 'B', scope)).toBe('bbbbbb00-0000-4000-8000-000000000000');
    expect(resolveAnchor(ids, 'AAAAAB', scope)).toBe('aaaaab00-0000-4000-8000-000000000000');
  });

  it('refuses an ambiguous prefix with 400 and "Use a longer anchor."', () => {
    const error = (() => {
      try {
        resolveAnchor(ids, 'aaaaa', scope);
      } catch (e) {
        return e as ApiError;
      }
    })()!;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.nextAction]).toEqual([400, 'invalid-argument', 'Use a longer anchor.']);
  });

  it('answers 404 naming the listing route when nothing matches, malformed or not', () => {
    for (const anchor of ['cccccc', 'zzz', 'aaaaaa00-0000-4000-8000-000000000001']) {
      try {
        resolveAnchor(ids, anchor, scope);
        throw new Error('should have thrown');
      } catch (e) {
        const error = e as ApiError;
        expect([error.status, error.code]).toEqual([404, 'not-found']);
        expect(error.nextAction).toContain('GET /api/articles/x/outline');
      }
    }
  });
});
