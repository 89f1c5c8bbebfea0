/**
 * Moved to src/plugins/quire/shared/word-diff.ts: only the canvas uses it, in the browser, and
 * admin code takes nothing from the server but schema types (tests/unit/boundaries.test.ts).
 * This re-export stays until canvas/ReviewPanels.tsx imports the shared file; then delete it.
 */
export * from '../../../shared/word-diff';
