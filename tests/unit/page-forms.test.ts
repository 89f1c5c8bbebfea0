/**
 * How the server-rendered pages read their forms and queries (pages/respond.ts readForm): with
 * the schemas their routes declare, leniently. A field that is missing or that the schema
 * refuses (sent twice, not text, not one of the choices) reads as absent, and the other fields
 * are kept, so the page answers as for an empty field (what to fill in), as it always did.
 */
import { readForm, text } from '../../src/kernel/page-kit';
import { cliLoginPageRoutes } from '../../src/plugins/quire/server/src/routes/pages';
import { oauthRoutes } from '../../src/plugins/quire/server/src/routes/oauth';
import { decisionForm, loginPageQuery, oauthDecisionForm, oauthSignInForm, signInForm } from '../../src/plugins/quire/server/src/schemas/inputs/pages';

describe('readForm', () => {
  it('the schemas read are the ones the routes declare', () => {
    expect((cliLoginPageRoutes.signIn.body as { schema: unknown }).schema).toBe(signInForm);
    expect((cliLoginPageRoutes.decide.body as { schema: unknown }).schema).toBe(decisionForm);
    expect(cliLoginPageRoutes.show.query).toBe(loginPageQuery);
    expect((oauthRoutes.signIn.body as { schema: unknown }).schema).toBe(oauthSignInForm);
    expect((oauthRoutes.decide.body as { schema: unknown }).schema).toBe(oauthDecisionForm);
  });

  it('keeps the fields the schema accepts and drops unknown ones', () => {
    expect(readForm(signInForm, { csrf: 't', code: 'ABCD-EFGH', identifier: 'ann', password: 'pw', extra: 'x' })).toEqual({
      csrf: 't',
      code: 'ABCD-EFGH',
      identifier: 'ann',
      password: 'pw',
    });
  });

  it('a field sent twice or not as text reads as absent; the others stay', () => {
    expect(readForm(signInForm, { csrf: 't', code: ['A', 'B'], identifier: { a: 1 }, password: 'pw' })).toEqual({ csrf: 't', password: 'pw' });
    expect(readForm(loginPageQuery, { code: ['ABCD-EFGH', 'x'] })).toEqual({});
  });

  it('a decision that is not one of the choices reads as none', () => {
    expect(readForm(decisionForm, { csrf: 't', code: 'C', decision: 'maybe' })).toEqual({ csrf: 't', code: 'C' });
    expect(readForm(oauthDecisionForm, { csrf: 't', request: 'client_id=x', decision: 'approve' })).toEqual({ csrf: 't', request: 'client_id=x', decision: 'approve' });
  });

  it('required fields that are missing read as absent, not as a failed form', () => {
    expect(readForm(oauthSignInForm, { csrf: 't', request: 'client_id=x' })).toEqual({ csrf: 't', request: 'client_id=x' });
  });

  it('no body at all is an empty form', () => {
    expect(readForm(signInForm, undefined)).toEqual({});
    expect(readForm(signInForm, 'csrf=t')).toEqual({});
  });

  it('text gives an absent field as empty, a present one cut to its length', () => {
    expect(text(undefined, 5)).toBe('');
    expect(text('abcdefgh', 5)).toBe('abcde');
  });
});
