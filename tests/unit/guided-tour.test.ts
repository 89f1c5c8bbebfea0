import { GUIDED_TOUR_KEY, skipStrapiGuidedTour } from '../../src/plugins/quire/admin/src/guided-tour';

const storage = (initial: Record<string, string> = {}) => {
  const items = new Map(Object.entries(initial));
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
};

it("marks Strapi's guided tour skipped in a browser with no tour state, as the tour's own Skip does", () => {
  const fresh = storage();
  skipStrapiGuidedTour(fresh);
  expect(JSON.parse(fresh.items.get(GUIDED_TOUR_KEY)!)).toEqual({ enabled: false });
});

it('keeps a tour state already there (an admin who reset the tour gets it)', () => {
  const reset = storage({ [GUIDED_TOUR_KEY]: JSON.stringify({ enabled: true, tours: {} }) });
  skipStrapiGuidedTour(reset);
  expect(JSON.parse(reset.items.get(GUIDED_TOUR_KEY)!)).toEqual({ enabled: true, tours: {} });
});

it('does nothing without storage, or when the storage refuses', () => {
  expect(() => skipStrapiGuidedTour(undefined)).not.toThrow();
  expect(() =>
    skipStrapiGuidedTour({
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    }),
  ).not.toThrow();
});
