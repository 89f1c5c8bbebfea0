/**
 * Strapi's stock guided tour ("Discover your application!": build a content type, create an
 * API token...) is about developing a Strapi app, not about writing in Quire, whose home
 * greets editors with its own widgets. Strapi 5.54 has no setting for it (its provider's
 * `enabled` is hard-coded `process.env.NODE_ENV !== 'test'`; the admin config's `tutorials` is
 * read nowhere), and it shows to the first Super Admin whenever the panel was built with
 * Strapi's default NODE_ENV (development). Its state lives in the browser under
 * STRAPI_GUIDED_TOUR; the tour's own "Skip" stores `enabled: false` there, and Strapi's
 * migration of that state (utils/migrations) fills in the rest when only `enabled` is stored.
 *
 * So, before the panel renders, a browser with no tour state yet gets the skipped one. A state
 * already there is left alone: someone who reset the tour (Profile > Guided tour) keeps it.
 */
export const GUIDED_TOUR_KEY = 'STRAPI_GUIDED_TOUR';

export function skipStrapiGuidedTour(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = globalThis.localStorage) {
  try {
    if (storage && storage.getItem(GUIDED_TOUR_KEY) === null) storage.setItem(GUIDED_TOUR_KEY, JSON.stringify({ enabled: false }));
  } catch {
    // No storage (private mode, blocked): the tour shows, and its Skip still works.
  }
}
